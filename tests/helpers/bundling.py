"""Running fixture bots the normal way and as bundles, for comparison."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "bundler" / "fixtures"


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_python(args: list[str], cwd: Path, libs: tuple[Path, ...] = (), isolated: bool = False, stdin: str = "") -> Run:
    """Run this interpreter (never writing bytecode next to the fixtures)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    if libs:
        env["PYTHONPATH"] = os.pathsep.join(str(p) for p in libs)
    flags = ["-I"] if isolated else ["-B"]
    done = subprocess.run(
        [sys.executable, *flags, *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    return Run(done.returncode, done.stdout, done.stderr)


def run_bundle(text: str, tmp: Path, stdin: str = "") -> Run:
    """Run a bundle with ``python -I`` from an empty directory."""
    home = tmp / "bundle_home"
    home.mkdir(exist_ok=True)
    path = home / "bundle.py"
    path.write_text(text, encoding="utf-8")
    empty = tmp / "empty_cwd"
    empty.mkdir(exist_ok=True)
    return run_python([str(path)], cwd=empty, isolated=True, stdin=stdin)
