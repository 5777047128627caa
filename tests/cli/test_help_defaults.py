"""Issue #34, point 9: every option's default is shown in ``--help``, for every command of ``arena``
and ``bundle``; ``arena tournament``'s options, whose defaults come from the settings table (the
option itself has none, so that a config file's value stands), show their real default; flags and
options without a default show none."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
from click.testing import CliRunner

from arena.settings import SETTINGS
from cli.arena import main
from cli.bundle import main as bundle


def commands() -> Iterator[tuple[str, click.Command, click.Context]]:
    """Every command under ``arena`` and ``bundle``, with the context click gives its help."""

    def walk(
        cmd: click.Command, path: str, parent: click.Context | None
    ) -> Iterator[tuple[str, click.Command, click.Context]]:
        ctx = click.Context(cmd, info_name=path.rsplit(" ", 1)[-1], parent=parent, **(cmd.context_settings or {}))
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                yield from walk(sub, f"{path} {name}", ctx)
        else:
            yield path, cmd, ctx

    yield from walk(main, "arena", None)
    yield from walk(bundle, "bundle", None)


def has_default(option: click.Option) -> bool:
    """A default worth showing: not unset, ``None``, an empty text or list, nor a flag's off."""
    default = option.default
    if option.is_flag and not option.is_bool_flag:
        return False
    if default is None or (option.is_bool_flag and default is False):
        return False
    if repr(default).startswith("Sentinel"):
        return False
    return default not in ("", ())


def test_every_option_with_a_default_shows_it() -> None:
    checked, missing = 0, []
    for path, cmd, ctx in commands():
        for option in cmd.params:
            if not isinstance(option, click.Option):
                continue
            record = option.get_help_record(ctx)
            text = "" if record is None else record[1]
            assert "[default: False]" not in text and "[default: None]" not in text, (path, option.opts)
            if not has_default(option):
                continue
            checked += 1
            match = re.search(r"\[default: ([^;\]]*)", text)
            expected = option.show_default if isinstance(option.show_default, str) else str(option.default)
            if match is None or expected not in match.group(1):
                missing.append(f"{path} {option.opts[-1]}: {text!r}")
    assert not missing, "\n".join(missing)
    assert checked >= 20  # the walk reached the commands (db, format, time scale... of each)


TOURNAMENT_DEFAULTS = {  # by hand, from the settings table and TournamentConfig
    "--format": "gauntlet",
    "--games": "100",
    "--seed": "0",
    "--workers": "the number of cores",
    "--time-scale": "1",
    "--time-margin": "0",
    "--memory-limit": "768",
    "--league": "the top league",
    "--elo0": "0",
    "--elo1": "5",
    "--alpha": "0.05",
    "--beta": "0.05",
    "--sprt-model": "pentanomial",
    "--db": "arena.sqlite",
    "--max-failures": "0.25",
    "--keep": "failures",
    "--sandbox": "auto",
    "--executor": "local",
}


def test_tournament_help_shows_the_settings_defaults() -> None:
    result = CliRunner().invoke(main, ["tournament", "--help"], terminal_width=200)
    assert result.exit_code == 0
    lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip().startswith("--")}
    assert "[default: 100]" in lines["--games"] and "[default: 0]" in lines["--seed"]
    for flag, default in TOURNAMENT_DEFAULTS.items():
        assert lines[flag].endswith(f"[default: {default}]"), lines[flag]
    # every setting with a default in the table shows one; switches and the rest show none
    for s in SETTINGS:
        if s.option is None:
            continue
        shown = "[default:" in lines[s.option]
        assert shown == (s.option in TOURNAMENT_DEFAULTS), s.option
        assert s.default is None or s.is_switch or shown, s.option
    assert result.output.count("default") == len(TOURNAMENT_DEFAULTS) + 1  # + "(default: the last)" of --baseline


LADDER_INIT_DEFAULTS = {  # by hand, from arena.ladder.settings.LadderSettings
    "--league": "the top league",
    "--time-scale": "1",
    "--time-margin": "0",
    "--memory-limit": "768",
    "--sandbox": "auto",
    "--seed": "0",
}


def test_ladder_settings_show_what_init_takes_and_run_keeps() -> None:
    """The ladder's settings have no click default (what was given must be told from what was
    not): ``init`` shows what it takes, ``run`` that the ladder's own stand."""
    for command in ("init", "run"):
        result = CliRunner().invoke(main, ["ladder", command, "--help"], terminal_width=200)
        lines = {line.split()[0]: line for line in result.output.splitlines() if line.strip().startswith("--")}
        for flag, default in LADDER_INIT_DEFAULTS.items():
            if command == "run" and flag == "--seed":
                continue  # fixed at init, not an option of run
            if command == "run":
                assert lines[flag].endswith("[default: the ladder's own]"), lines[flag]
            else:
                assert lines[flag].endswith(f"[default: {default}]"), lines[flag]
