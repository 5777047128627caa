"""Every tournament setting is one declaration: the same tournament from its flag and from its
config key, the same one-line refusal of a bad value from both, every flag in the help."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from arena.settings import SETTINGS, ConfigError, flags_to_mapping
from arena.tournament.config import TournamentConfig, config_from_mapping, load_config
from cli.arena import main
from cli.tournament import tournament

BOTS = ["greedy", "random"]

# Each setting with a flag: (the flags, what a config file says for them). Settings given together
# (replays and keep, executor and its cluster) are given together on both sides.
CASES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "format": (["--format", "round-robin"], {"format": "round-robin"}),
    "baseline": (["--baseline", "greedy"], {"baseline": "greedy"}),
    "games": (["--games", "7"], {"games": 7}),
    "seeds": (["--seeds", "3..5"], {"seeds": "3..5"}),
    "seed": (["--seed", "0x1F"], {"seed": "0x1F"}),
    "workers": (["--workers", "1"], {"workers": 1}),
    "force_workers": (["--force-workers", "--workers", "9"], {"force_workers": True, "workers": 9}),
    "time_scale": (["--time-scale", "2.5"], {"time_scale": 2.5}),
    "time_margin": (["--time-margin", "15"], {"time_margin": 15}),
    "memory_limit_mb": (["--memory-limit", "512"], {"memory_limit_mb": 512}),
    "params": (
        ["--param", "MAX_ROUNDS=10", "--param", "STARTING_SUN=3"],
        {"params": {"MAX_ROUNDS": 10, "STARTING_SUN": 3}},
    ),
    "league": (["--league", "wood 1"], {"league": 2}),
    "sprt": (["--sprt"], {"sprt": True}),
    "sprt.elo0": (["--elo0", "-2"], {"sprt": {"elo0": -2}}),
    "sprt.elo1": (["--sprt", "--elo1", "8"], {"sprt": {"elo1": 8}}),
    "sprt.alpha": (["--alpha", "0.1"], {"sprt": {"alpha": 0.1}}),
    "sprt.beta": (["--beta", "0.2"], {"sprt": {"beta": 0.2}}),
    "sprt.model": (["--sprt-model", "trinomial"], {"sprt": {"model": "trinomial"}}),
    "sweep.grid": (
        ["--grid", "day=8,12", "--sweep-bot", "g"],
        {"sweep": {"grid": {"day": [8, 12]}, "bot": "g"}},
    ),
    "db": (["--db", "{tmp}/r.sqlite"], {"db": "{tmp}/r.sqlite"}),
    "max_failures": (["--max-failures", "0.5"], {"max_failures": 0.5}),
    "replays": (["--replays", "{tmp}", "--keep", "3"], {"replays": "{tmp}", "keep": 3}),
    "sandbox": (["--sandbox", "off"], {"sandbox": "off"}),
    "lib": (["--lib", "{tmp}", "--lib", "/"], {"lib": ["{tmp}", "/"]}),
    "env": (["--env", "DEBUG=1", "--env", "X=y"], {"env": {"DEBUG": 1, "X": "y"}}),
    "executor": (
        ["--executor", "dask", "--scheduler", "tcp://10.0.0.1:8786"],
        {"executor": "dask", "scheduler": "tcp://10.0.0.1:8786"},
    ),
    "local_cluster": (["--executor", "dask", "--local-cluster", "3"], {"executor": "dask", "local_cluster": 3}),
}
CASES["sweep.bot"] = CASES["sweep.grid"]
CASES["keep"] = CASES["replays"]
CASES["scheduler"] = CASES["executor"]


def from_flags(args: list[str], bots: list[str] | None = None) -> TournamentConfig:
    """The config ``arena tournament spring2021 BOTS... ARGS`` plays (parsed as the command does)."""
    bots = bots or BOTS
    ctx = tournament.make_context("tournament", ["spring2021", *bots, *args])
    flags = {k: v for k, v in ctx.params.items() if k not in ("args", "new", "as_json", "no_progress")}
    return config_from_mapping({"game": "spring2021", "bots": bots, **flags_to_mapping(flags)}, base=Path.cwd())


def from_file(tmp_path: Path, settings: dict[str, Any], bots: list[Any] | None = None) -> TournamentConfig:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump({"game": "spring2021", "bots": bots or BOTS, **settings}))
    return load_config(path)


def fill(value: Any, tmp: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{tmp}", str(tmp))
    if isinstance(value, (list, tuple)):
        return type(value)(fill(v, tmp) for v in value)
    if isinstance(value, dict):
        return {k: fill(v, tmp) for k, v in value.items()}
    return value


def comparable(config: TournamentConfig) -> dict[str, Any]:
    return {**config.to_dict(), "executor": (config.executor, config.scheduler, config.local_cluster)}


def test_every_flag_has_a_case_here() -> None:
    assert {s.key for s in SETTINGS if s.option is not None} == set(CASES)


@pytest.mark.parametrize("key", sorted(CASES))
def test_a_flag_and_its_config_key_make_the_same_tournament(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    flags, settings = fill(CASES[key], tmp_path)
    bots: list[Any] = BOTS
    if key.startswith("sweep."):  # the swept bot has a {day} placeholder
        bots = ["random", "g=greedy --complete-day {day}"]
    by_flag = from_flags(flags, bots)
    by_file = from_file(tmp_path, settings, bots)
    default = from_flags([], bots)
    assert comparable(by_flag) == comparable(by_file)
    assert comparable(by_flag) != comparable(default)  # the case does set something


@pytest.mark.parametrize(
    "flags,settings,message",
    [
        (["--games", "0"], {"games": 0}, "games: must be at least 1, got 0"),
        (["--time-scale", "nan"], {"time_scale": ".nan"}, "time_scale: expected a finite number, got "),
        (["--time-margin", "-3"], {"time_margin": -3}, "time_margin: between 0 and 60000 ms, got -3"),
        (["--elo0", "-2000"], {"sprt": {"elo0": -2000}}, "sprt: elo0 must be between -1000 and 1000 Elo"),
        (["--format", "swiss"], {"format": "swiss"}, "format 'swiss' is not one of: gauntlet, round-robin"),
        (["--sandbox", "maybe"], {"sandbox": "maybe"}, "sandbox: expected auto, on or off, got 'maybe'"),
        (["--seed", "x1"], {"seed": "x1"}, "seed: 'x1' is not an integer"),
        (["--elo0", "9", "--elo1", "3"], {"sprt": {"elo0": 9, "elo1": 3}}, "sprt: elo1 (3.0) must be greater"),
        (["--local-cluster", "2"], {"local_cluster": 2}, "local_cluster: only for the Dask executor"),
    ],
)
def test_a_bad_value_is_refused_alike_from_a_flag_and_a_file(
    flags: list[str], settings: dict[str, Any], message: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as by_flag:
        from_flags(flags)
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump({"game": "spring2021", "bots": BOTS}) + yaml.safe_dump(settings).replace("'", ""))
    with pytest.raises(ConfigError) as by_file:
        load_config(path)
    # the same reader's words; only the value shown may differ (YAML reads .nan as a float)
    assert str(by_flag.value).startswith(message)
    assert str(by_file.value).startswith(f"{path}: {message}")


def test_the_help_lists_every_flag_with_its_help() -> None:
    text = " ".join(CliRunner().invoke(main, ["tournament", "--help"], terminal_width=1000).output.split())
    for s in SETTINGS:
        if s.option is not None:
            assert s.option in text, s.option
            assert " ".join(s.help.split()) in text, s.key
