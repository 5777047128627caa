"""Seeds as users write them, on the command line and in YAML (``arena.match.seeds``), and the
settings of a config file that are paths or counts."""

from __future__ import annotations

import sqlite3
import sys
import tracemalloc

import pytest
from click.testing import CliRunner

from arena.match import seeds as seeds_module
from arena.match.seeds import SeedError, parse_seed, parse_seed_list
from arena.tournament.config import ConfigError, config_from_mapping, load_config
from cli.arena import main
from tests.helpers.paths import SHIPPED_BOTS


@pytest.mark.parametrize(
    "text,value", [("-5", -5), ("0x1F", 31), ("1_000", 1000), (" 7 ", 7), (str(2**63 - 1), 2**63 - 1), (12, 12)]
)
def test_a_seed_is_a_python_integer_literal(text, value):
    assert parse_seed(text) == value


@pytest.mark.parametrize("bad", ["017", "1:30", "1e3", "ten", "", 1.5, 5.0, True, None, str(2**63)])
def test_what_is_not_an_integer_seed_is_refused(bad):
    with pytest.raises(SeedError):
        parse_seed(bad)


@pytest.mark.parametrize(
    "yaml_text,cli", [("'0x10'", "16"), ("0x10", "16"), ("'-5'", "-5"), ("-5", "-5"), ("1_000", "1000")]
)
def test_a_yaml_seed_means_what_the_same_text_means_on_the_command_line(tmp_path, yaml_text, cli):
    """Point 17: a seed as a YAML string or number, and as a command-line int, is one map."""
    path = tmp_path / "t.yaml"
    path.write_text(f"game: spring2021\nbots: [greedy, random]\nseed: {yaml_text}\n")
    assert load_config(path).seed == parse_seed(cli)


@pytest.mark.parametrize("yaml_text", ["017", "1:30", "1.5", "true", "[1]"])
def test_a_yaml_seed_that_is_neither_is_refused(tmp_path, yaml_text):
    """Point 17: YAML 1.1 reads 017 as 15 and 1:30 as 90; the command line refuses both, so must
    the config."""
    path = tmp_path / "t.yaml"
    path.write_text(f"game: spring2021\nbots: [greedy, random]\nseed: {yaml_text}\n")
    with pytest.raises(ConfigError, match="seed"):
        load_config(path)
    result = CliRunner().invoke(main, ["play", "--seed", yaml_text.strip("[]")])
    if yaml_text not in ("[1]",):
        assert result.exit_code == 2


@pytest.mark.parametrize(
    "value,seeds",
    [
        ("3..6", (3, 4, 5, 6)),
        ("-2..0", (-2, -1, 0)),
        ("5,9,-1", (5, 9, -1)),
        ("42", (42,)),
        ([1, "0x10"], (1, 16)),
    ],
)
def test_seed_lists(value, seeds):
    assert parse_seed_list(value) == seeds


def test_a_seed_file_has_one_or_more_seeds_per_line_and_comments(tmp_path):
    path = tmp_path / "lost.txt"
    path.write_text("# maps beam lost\n12\n-7, 0x10  # a comment\n\n99\n")
    assert parse_seed_list(str(path)) == (12, -7, 16, 99)
    assert parse_seed_list("lost.txt", base=tmp_path) == (12, -7, 16, 99)


@pytest.mark.parametrize(
    "value,message",
    [
        ("6..3", "empty"),
        ("1..9999999999", "at most"),
        ("1,1", "listed twice"),
        ("abc", "not a seed file"),
        ([], "empty"),
        ("1,x", "not an integer"),
    ],
)
def test_bad_seed_lists_are_refused(value, message):
    with pytest.raises(SeedError, match=message):
        parse_seed_list(value)


BASE = {"game": "spring2021", "bots": ["greedy", "random"]}


def test_an_odd_game_count_is_rounded_up_and_said():
    """Point 8: --games 7 plays 8 games (4 seeds, seats swapped) and says so."""
    config = config_from_mapping({**BASE, "games": 7})
    assert (config.games, config.pairs) == (8, 4)
    assert config.notes == ("games 7 rounded up to 8: each seed is played once per seat (2 games per seed)",)
    assert config_from_mapping({**BASE, "games": 8}).notes == ()


def test_a_seed_list_sets_the_games(tmp_path):
    config = config_from_mapping({**BASE, "seeds": "5,9,11"})
    assert (config.games, config.pairs, config.seeds) == (6, 3, (5, 9, 11))
    with pytest.raises(ConfigError, match="not 'games' and 'seeds'"):
        config_from_mapping({**BASE, "seeds": "5,9", "games": 4})


def test_a_flag_count_replaces_the_files_count(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("game: spring2021\nbots: [greedy, random]\ngames: 40\n")
    assert load_config(path, {"seeds": "1..3"}).games == 6
    path.write_text("game: spring2021\nbots: [greedy, random]\nseeds: 1..3\n")
    assert load_config(path, {"games": 10}).seeds is None


def test_bots_named_and_made_distinct():
    """Point 2: self-play and one file with two argument sets."""
    names = [b.name for b in config_from_mapping({**BASE, "bots": ["greedy", "greedy"]}).bots]
    assert names == ["greedy", "greedy#2"]
    config = config_from_mapping({**BASE, "bots": ["old=bot.py", "new=bot.py --depth 3", "bot.py"]})
    assert [(b.name, b.bot) for b in config.bots] == [("old", "bot.py"), ("new", "bot.py --depth 3"), ("bot", "bot.py")]
    config = config_from_mapping({**BASE, "bots": ["greedy#2=random", "greedy", "greedy"]})
    assert [b.name for b in config.bots] == ["greedy#2", "greedy", "greedy#3"]


def test_relative_paths_in_a_config_are_taken_from_its_directory(tmp_path, monkeypatch):
    """Point 13: bots, db and seed file from the config's folder; the run works from anywhere and
    the database stores absolute commands."""
    project = tmp_path / "project"
    (project / "bots").mkdir(parents=True)
    wait = SHIPPED_BOTS / "spring2021" / "wait_bot.py"
    (project / "bots" / "mine.py").write_text(wait.read_text())
    (project / "maps.txt").write_text("3\n8\n")
    (project / "t.yaml").write_text(
        "game: spring2021\nbots: [bots/mine.py, wait]\nseeds: maps.txt\ndb: out/results.sqlite\n"
        "workers: 1\nparams: {MAX_ROUNDS: 3}\n"
    )
    (project / "out").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["tournament", str(project / "t.yaml"), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert list(elsewhere.iterdir()) == []
    with sqlite3.connect(project / "out" / "results.sqlite") as conn:
        seeds = sorted({s for (s,) in conn.execute("SELECT seed FROM games")})
        commands = [c for (c,) in conn.execute("SELECT command FROM bots ORDER BY name")]
    assert seeds == [3, 8]  # point 12: the listed maps
    assert str(project / "bots" / "mine.py") in commands[0]


def test_a_seed_file_far_too_long_is_refused_without_being_read_whole(tmp_path, monkeypatch):
    """Past the most seeds a list may have (a hundred thousand here, a million by default), the
    file is refused at the first seed too many: what follows is never read (a line of garbage
    there is not seen), and memory stays under what the text and its lines alone took when the
    whole file was read and split first (1.19 GB for ten million lines)."""
    monkeypatch.setattr(seeds_module, "MAX_SEEDS", 100_000)
    path = tmp_path / "seeds.txt"
    with open(path, "w") as f:
        f.write("".join(f"{s}\n" for s in range(150_000)))
        f.write("not a seed\n")
        f.write("".join(f"{s}\n" for s in range(150_000, 200_000)))
    tracemalloc.start()
    try:
        with pytest.raises(SeedError, match=r"more than 100,000 seeds \(at most 100,000\)"):
            parse_seed_list(str(path))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text_and_lines = path.stat().st_size + 200_000 * sys.getsizeof("199999")
    assert peak < text_and_lines / 2, f"{peak / 1e6:.0f} MB at the peak"


def test_a_seed_file_that_is_one_huge_line_is_refused_at_the_line(tmp_path):
    path = tmp_path / "seeds.txt"
    path.write_text("1," * 3_000_000)  # 6 MB without a newline
    with pytest.raises(SeedError, match=r"line 1: over 1,048,576 characters, not a seed file"):
        parse_seed_list(str(path))
