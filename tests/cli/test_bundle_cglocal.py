"""``bundle --cg-local``: the bundler as the CG Local application, driven by a scripted
extension (tests/helpers/cglocal.py) that answers as the extension's source defines it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from websockets.exceptions import InvalidStatus

from bundler.cglocal import CGLocalError, _listen, port_from_env
from cli.bundle import main
from tests.helpers.cglocal import BundleProcess, Extension, free_port, ipv6_loopback, open_socket
from tests.helpers.paths import REPO_ROOT

HELPER_V1 = "def greet():\n    return 'hello'\n"
HELPER_V2 = "def greet():\n    return 'changed'\n"
IDE_CODE = "print('typed in the browser')\n"


def bot(tmp_path: Path) -> Path:
    edit(tmp_path / "main.py", "from helper import greet\nprint(greet())\n")
    edit(tmp_path / "helper.py", HELPER_V1)
    return tmp_path


def edit(path: Path, text: str) -> None:
    """Save as an editor does, in one step (the watcher never sees a half-written file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def bundle_output(cwd: Path) -> str:
    """What ``bundle main.py`` prints, run as a user would."""
    code = "import sys; from cli.bundle import main; sys.argv[0] = 'bundle'; main()"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code, "main.py"], cwd=cwd, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def update(code: str, play: bool = False) -> dict[str, object]:
    return {"action": "update-code", "payload": {"code": code, "play": play}}


HANDSHAKE = [
    {"action": "send-details", "payload": {}},
    {"action": "app-ready", "payload": {}},
    {"action": "set-read-only", "payload": {"state": True}},
    {"action": "send-code", "payload": {}},
]


@pytest.fixture
def watching(tmp_path: Path):
    """``bundle main.py --cg-local --watch`` serving on a free port, and that port."""
    bot(tmp_path)
    port = free_port()
    process = BundleProcess(tmp_path, port, "main.py", "--cg-local", "--watch", "--ide-backup", "saved")
    try:
        yield process, port
    finally:
        process.interrupt()


def test_handshake_save_then_one_update_per_edit(tmp_path, watching):
    process, port = watching
    first = bundle_output(tmp_path)
    ide = Extension(port, code=IDE_CODE, backups=tmp_path / "saved")
    assert ide.handshake() == HANDSHAKE
    assert ide.read_only
    assert ide.next() == update(first)
    assert ide.code == first
    assert ide.backups_at_update == [[IDE_CODE]]  # the IDE's own code was saved before the push
    assert "Spring Challenge 2021 (question 8339)" in process.wait_for("connected to the CodinGame IDE")
    assert "(30 characters)" in process.wait_for("saved the IDE's code")
    process.wait_for("sent the bundle to the IDE")

    edit(tmp_path / "helper.py", HELPER_V2)
    second = ide.next()
    assert second == update(bundle_output(tmp_path))
    assert "'changed'" in second["payload"]["code"]  # type: ignore[index]
    assert ide.nothing_within(1.0)  # exactly one update for the edit
    name = next((tmp_path / "saved").iterdir()).name
    assert name.startswith("ide-8339-") and name.endswith(".txt")
    ide.close()


def test_a_broken_or_oversized_bundle_is_not_sent(tmp_path, watching):
    process, port = watching
    ide = Extension(port, code=IDE_CODE)
    ide.handshake()
    good = ide.next()["payload"]["code"]
    edit(tmp_path / "helper.py", "def greet(:\n")
    line = process.wait_for("syntax error")  # (twice, where the save races a rebuild)
    assert line.startswith("bundle: not sent to the IDE (it keeps the last good code): ") and "helper.py" in line
    edit(tmp_path / "helper.py", f"BIG = '{'x' * 100_001}'\n" + HELPER_V1)
    line = process.wait_for("over CodinGame's 100,000 limit")
    assert line.startswith("bundle: not sent to the IDE (it keeps the last good code): ")
    assert ide.nothing_within(0.5)
    assert ide.code == good  # the IDE keeps the last good code
    edit(tmp_path / "helper.py", HELPER_V2)
    assert ide.next() == update(bundle_output(tmp_path))
    ide.close()


def test_a_second_client_is_refused_and_a_closed_tab_awaited_again(tmp_path, watching):
    process, port = watching
    ide = Extension(port, code=IDE_CODE)
    ide.handshake()
    ide.next()
    other = Extension(port, code="other browser")
    assert other.next() == {"action": "already-connected", "payload": {}}
    assert other.closed.wait(10) and other.ws.close_code == 1000
    assert other.nothing_within(0.1)
    process.wait_for("refused a second connection")

    ide.close()
    process.wait_for("the IDE closed the connection (tab closed or CG Local turned off); waiting for it again")
    again = Extension(port, code="new tab")
    assert again.handshake() == HANDSHAKE
    assert again.next() == update(bundle_output(tmp_path))
    again.drop()
    assert "dropped" in process.wait_for("the connection to the IDE")
    assert len(list((tmp_path / "saved").iterdir())) == 2  # each connection's code saved


def test_ctrl_c_closes_the_socket_cleanly(tmp_path, watching):
    process, port = watching
    ide = Extension(port, code=IDE_CODE)
    ide.handshake()
    ide.next()
    assert process.interrupt() == 0
    assert ide.closed.wait(10)
    assert ide.ws.close_code == 1000  # the extension shows no error for 1000
    assert "stopped" in process.stderr() and "Traceback" not in process.stderr()


def test_without_watch_pushes_once_with_play_and_exits(tmp_path):
    bot(tmp_path)
    port = free_port()
    process = BundleProcess(tmp_path, port, "main.py", "--cg-local", "--play", "--ide-backup", "saved")
    ide = Extension(port, code=IDE_CODE)
    assert ide.handshake() == HANDSHAKE
    assert ide.next() == update(bundle_output(tmp_path), play=True)
    assert process.finish() == 0
    assert ide.closed.wait(10) and ide.ws.close_code == 1000
    assert "and asked it to play" in process.stderr()
    assert [p.read_text() for p in (tmp_path / "saved").iterdir()] == [IDE_CODE]
    assert process.proc.stdout is not None and process.proc.stdout.read() == ""


def test_without_watch_a_bad_bundle_is_refused_before_any_push(tmp_path):
    edit(tmp_path / "main.py", "import helper\n")
    edit(tmp_path / "helper.py", "def greet(:\n")
    process = BundleProcess(tmp_path, free_port(), "main.py", "--cg-local")
    assert process.finish() == 1
    err = process.stderr()
    assert "syntax error" in err and "nothing was sent to the IDE" in err and "Traceback" not in err


def test_a_web_page_may_not_connect(tmp_path, watching):
    process, port = watching
    with pytest.raises(InvalidStatus) as caught:
        open_socket(port, origin="https://evil.example")
    assert caught.value.response.status_code == 403
    process.wait_for("refused a connection from the web page https://evil.example")


def test_listens_on_loopback_only_ipv4_and_ipv6():
    port = free_port()
    sockets = _listen(port)
    try:
        hosts = {s.getsockname()[0] for s in sockets}
        assert hosts == ({"127.0.0.1", "::1"} if ipv6_loopback() else {"127.0.0.1"})
        with pytest.raises(CGLocalError, match=f"port {port} on 127.0.0.1 is in use"):
            _listen(port)
    finally:
        for s in sockets:
            s.close()


def test_ipv6_loopback_is_served(tmp_path, watching):
    _process, port = watching
    if not ipv6_loopback():
        pytest.skip("no IPv6 loopback here")
    ws = open_socket(port, host="::1")
    assert ws.recv(timeout=10) == '{"action": "send-details", "payload": {}}'
    ws.close()


def test_user_mistakes_are_one_line_errors(tmp_path):
    bot(tmp_path)
    entry = str(tmp_path / "main.py")
    result = CliRunner().invoke(main, [entry, "--play"])
    assert result.exit_code == 2 and "--play is only used with --cg-local" in result.stderr
    result = CliRunner().invoke(main, [entry, "--ide-backup", str(tmp_path / "b")])
    assert result.exit_code == 2 and "--ide-backup is only used with --cg-local" in result.stderr
    result = CliRunner(env={"CGARENA_CG_LOCAL_PORT": "http"}).invoke(main, [entry, "--cg-local"])
    assert result.exit_code == 2 and "CGARENA_CG_LOCAL_PORT='http': not a port number" in result.stderr
    assert port_from_env({}) == 53135 and port_from_env({"CGARENA_CG_LOCAL_PORT": "4000"}) == 4000
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner(env={"CGARENA_CG_LOCAL_PORT": str(port)}).invoke(main, [entry, "--cg-local"])
    assert result.exit_code == 1
    assert f"bundle: error: port {port} on 127.0.0.1 is in use" in result.stderr
    assert "Built" not in result.stderr and result.stdout == ""


def test_without_websockets_says_what_to_install(tmp_path, monkeypatch):
    bot(tmp_path)
    for name in [m for m in sys.modules if m == "websockets" or m.startswith("websockets.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed
    monkeypatch.delitem(sys.modules, "bundler.cglocal")  # imported again, without it
    result = CliRunner().invoke(main, [str(tmp_path / "main.py"), "--cg-local"])
    assert result.exit_code == 2
    assert "--cg-local needs the websockets package: pip install 'cgarena[cglocal]'" in result.stderr
    assert "Traceback" not in result.output and result.stdout == ""


def test_a_bundle_that_fails_verify_is_not_sent(tmp_path):
    """An edit that makes the bundle answer differently from the source bot (it reads its own
    file name) sends nothing; the IDE keeps the verified bundle."""
    source = (REPO_ROOT / "bots" / "spring2021" / "random_bot.py").read_text()
    assert "    seed = 0\n" in source
    edit(tmp_path / "main.py", source)
    port = free_port()
    args = ("main.py", "--cg-local", "--watch", "--verify", "spring2021", "--games", "1", "--sandbox", "off")
    process = BundleProcess(tmp_path, port, *args)
    try:
        ide = Extension(port, code=IDE_CODE)
        ide.handshake()
        good = ide.next()["payload"]["code"]
        differs = "    seed = 0 if sys.argv[0].endswith('main.py') else 1\n"
        edit(tmp_path / "main.py", source.replace("    seed = 0\n", differs))
        line = process.wait_for("not sent to the IDE")
        assert "the bundle differs from the source bot" in line
        assert ide.nothing_within(0.5) and ide.code == good
    finally:
        assert process.interrupt() == 0


def test_when_the_ide_code_cannot_be_saved_nothing_is_sent(tmp_path):
    bot(tmp_path)
    (tmp_path / "taken").write_text("a file where the backup folder should be")
    port = free_port()
    process = BundleProcess(tmp_path, port, "main.py", "--cg-local", "--ide-backup", "taken/backups")
    try:
        ide = Extension(port, code=IDE_CODE)
        assert ide.handshake() == HANDSHAKE
        got = ide.next()
        assert got["action"] == "error" and "could not save the IDE's code" in got["payload"]["message"]
        assert ide.closed.wait(10) and ide.ws.close_code == 1000  # the extension closes on error
        assert ide.code == IDE_CODE
        assert "nothing was sent to the IDE" in process.wait_for("could not save the IDE's code")
    finally:
        process.interrupt()
