"""``bundle --watch``'s loop (and ``--cg-local --watch``'s): a file saved while a rebuild is
being made is a change, so the newest text is bundled rather than missed until the next save
(on the first build the files are not known before they are read)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bundler.build import BuildOptions
from bundler.cglocal import CGLocalApp
from bundler.cglocal_push import push_watching
from bundler.steps import Built, Changed, Outputs, Watching, watch
from tests.helpers.cglocal import free_port


def _plain(entry: Path, tmp_path: Path) -> Iterator[object]:
    yield from watch(BuildOptions(entry), Outputs(output=tmp_path / "out.py"), poll_s=0.01)


def _cg_local(entry: Path, tmp_path: Path) -> Iterator[object]:
    with CGLocalApp(free_port(), tmp_path / "saved") as app:
        yield from push_watching(BuildOptions(entry), Outputs(cg_local=True), app, poll_s=0.01)


@pytest.mark.parametrize("loop", [_plain, _cg_local], ids=["watch", "cg-local watch"])
def test_a_file_saved_while_the_bundle_is_made_is_rebuilt(
    tmp_path: Path, loop: Callable[[Path, Path], Iterator[object]]
) -> None:
    (tmp_path / "main.py").write_text("from helper import greet\nprint(greet())\n")
    helper = tmp_path / "helper.py"
    helper.write_text("def greet():\n    return 'hello'\n")
    seen: list[object] = []

    def consume() -> None:
        events = loop(tmp_path / "main.py", tmp_path)
        for event in events:
            seen.append(event)
            if isinstance(event, Watching) and len(seen) < 5:
                helper.write_text("def greet():\n    return 'edited'\n")  # the first change
            if isinstance(event, Built) and sum(isinstance(e, Built) for e in seen) == 2:
                # its rebuild has read the files; the loop has not looked at them again yet
                helper.write_text("def greet():\n    return 'saved meanwhile'\n")
            if sum(isinstance(e, Changed) for e in seen) == 2:
                break
        events.close()  # type: ignore[attr-defined]

    thread = threading.Thread(target=consume, daemon=True)
    thread.start()
    thread.join(10)
    changed = [e for e in seen if isinstance(e, Changed)]
    assert len(changed) == 2 and changed[1].names == ("helper.py",)
