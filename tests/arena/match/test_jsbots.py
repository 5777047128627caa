"""#34 point 18: CodinGame JavaScript bots (``readline()``, ``print()``, ``printErr()``) run under
node with the toolkit's prelude, in the sandbox too; a bot that fails to start is quoted by the
first line of its stderr that names an error, not by its last line. Without node these tests
skip with the command that installs it (and fail under CI)."""

from __future__ import annotations

import json
import subprocess

import pytest
from click.testing import CliRunner

from arena.match.launch import jsbot
from arena.match.launch.botspec import BotSpecError, resolve
from arena.match.process.stderrtail import telling_line
from arena.versions import provenance
from cli.arena import main
from tests.helpers.environment import require_program
from tests.helpers.sandboxing import sandbox_mode

__all__ = ["sandbox_mode"]  # a fixture

INSTALL = "apt-get install nodejs (or https://nodejs.org)"

# Spring Challenge 2021, as the statement gives the input: the cells once, then each day the day,
# the nutrients, both players' sun and score (the opponent's waiting flag), the trees and the
# possible actions. WAIT is always legal.
SPRING_JS = """\
const numberOfCells = parseInt(readline());
for (let i = 0; i < numberOfCells; i++) {
    readline();
}
while (true) {
    const day = parseInt(readline());
    const nutrients = parseInt(readline());
    const [sun, score] = readline().split(' ').map(Number);
    const [oppSun, oppScore, oppIsWaiting] = readline().split(' ').map(Number);
    const numberOfTrees = parseInt(readline());
    for (let i = 0; i < numberOfTrees; i++) {
        readline();
    }
    const numberOfPossibleActions = parseInt(readline());
    for (let i = 0; i < numberOfPossibleActions; i++) {
        readline();
    }
    printErr('day', day, 'sun', sun);
    print('WAIT');
}
"""

# Fall Challenge 2020: each turn the actions on the table, then each player's inventory and score.
FALL_JS = """\
while (true) {
    const actionCount = parseInt(readline());
    for (let i = 0; i < actionCount; i++) {
        const inputs = readline().split(' ');
    }
    for (let i = 0; i < 2; i++) {
        const [inv0, inv1, inv2, inv3, score] = readline().split(' ').map(Number);
    }
    print('WAIT');
}
"""


def node() -> str:
    return require_program("node", INSTALL)


@pytest.mark.parametrize(
    ("game", "source", "opponent"), [("spring2021", SPRING_JS, "greedy"), ("fall2020", FALL_JS, "random")]
)
@pytest.mark.parametrize("form", ["path", "command"])
def test_a_codingame_javascript_bot_plays_a_whole_game(
    tmp_path, monkeypatch, game, source, opponent, form, sandbox_mode
):
    """A bare ``index.js`` and ``"node index.js"`` both play a whole game against a shipped bot,
    sandboxed or not: every answer in time and legal, to the game's end."""
    node()
    (tmp_path / "index.js").write_text(source)
    monkeypatch.chdir(tmp_path)
    bot = "index.js" if form == "path" else "node index.js"
    result = CliRunner().invoke(
        main, ["play", game, bot, opponent, "--seed", "2", "--sandbox", sandbox_mode, "--json", "--time-scale", "5"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert [p["status"] for p in data["players"]] == ["ok", "ok"], data["players"]
    assert data["players"][0]["name"] == "index"
    assert data["end_reason"] is not None and data["turns"] > 10


def test_a_javascript_bot_without_the_prelude_is_quoted_by_its_error(tmp_path):
    """The first error line of node's stderr (``ReferenceError: ...``), not its last (``Node.js
    v20...``): here a bot that calls a function nobody defines."""
    node()
    (tmp_path / "bot.js").write_text("const n = parseInt(missingReader());\n")
    result = CliRunner().invoke(main, ["play", "spring2021", f"node {tmp_path / 'bot.js'}", "wait", "--seed", "1"])
    assert result.exit_code == 1
    assert "ReferenceError: missingReader is not defined" in result.output
    assert "Node.js v" not in result.output


def test_the_prelude_reads_lines_and_prints_as_codingame(tmp_path):
    """``print`` joins its arguments with spaces, ``printErr`` writes to stderr, ``readline`` gives
    each line without its end (``\\r\\n`` too), the last one without a line end, then undefined."""
    program = node()
    (tmp_path / "t.js").write_text(
        "const a = readline(); const b = readline(); const c = readline();\n"
        "print(a, b, 3); printErr('to', 'stderr'); print(c); print(readline() === undefined);\n"
    )
    done = subprocess.run(
        [program, "--require", jsbot.PRELUDE, str(tmp_path / "t.js")],
        input="first line\r\nsecond é\nno end",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout == "first line second é 3\nno end\ntrue\n"
    assert done.stderr == "to stderr\n"


def test_node_commands_get_the_prelude_and_a_missing_node_is_named(tmp_path, monkeypatch):
    """``node index.js`` is run with the prelude required first; without node, a bare ``.js`` bot
    is refused in one line that says how to install it."""
    node()
    (tmp_path / "index.js").write_text("")
    spec = resolve("node index.js --x 1", "spring2021", base=tmp_path)
    assert spec.argv[1:] == ("--require", jsbot.PRELUDE, "index.js", "--x", "1")
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    with pytest.raises(BotSpecError, match=r"node, which is not installed: install Node\.js"):
        resolve(str(tmp_path / "index.js"), "spring2021")


@pytest.mark.parametrize(
    ("stderr", "expected"),
    [
        (  # Node.js: where, the line, a caret, then the error; its version last
            "/tmp/x/index.js:1\nconst n = parseInt(readline());\n                   ^\n\n"
            "ReferenceError: readline is not defined\n    at Object.<anonymous> (/tmp/x/index.js:1:20)\n\n"
            "Node.js v20.20.2\n",
            "ReferenceError: readline is not defined",
        ),
        (  # Python: the traceback, then the error
            'Traceback (most recent call last):\n  File "bot.py", line 3, in <module>\n'
            "    raise KeyError('boom')\nKeyError: 'boom'\n",
            "KeyError: 'boom'",
        ),
        (  # a chained Python error after a debug line that looks like one: the error that ended it
            'ValueError seen on day 3, retrying\nTraceback (most recent call last):\n  File "b.py", line 2\n'
            "KeyError: 'a'\n\nDuring handling of the above exception, another exception occurred:\n\n"
            'Traceback (most recent call last):\n  File "b.py", line 4\nRuntimeError: gave up\n',
            "RuntimeError: gave up",
        ),
        ("debug: day 1\nsomething went wrong\n", "something went wrong"),  # no error line: the last
        ("", ""),
    ],
)
def test_the_telling_line_of_a_stderr(stderr, expected):
    assert telling_line(stderr) == expected


def test_a_javascript_bot_is_identified_by_its_script(tmp_path):
    """A tournament hashes the bot's ``index.js`` (with the prelude it runs with), so a changed
    script is a changed bot; the prelude is not taken for the bot's script."""
    node()
    (tmp_path / "index.js").write_text("print('WAIT');\n")
    for text in (str(tmp_path / "index.js"), "node index.js --x 1"):
        spec = resolve(text, "spring2021", base=tmp_path)
        assert tmp_path / "index.js" in provenance.bot_sources(spec)
        assert provenance.unchecked_arguments(spec) == []
