"""A Dask cluster on the loopback interface for the tests: a real ``dask scheduler`` and
``dask worker`` processes, each in a process group of its own, started and stopped by the test
(or the session) that makes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path


class Cluster:
    """A scheduler and its workers, each in a process group of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.file = folder / "scheduler.json"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []

    def _start(self, *args: str, log: str) -> subprocess.Popen[bytes]:
        # not /tmp/dask-scratch-space, nor the shipped bundles in /tmp/cgarena-bundles-UID
        env = {**os.environ, "DASK_TEMPORARY_DIRECTORY": str(self.folder), "TMPDIR": str(self.folder)}
        with open(self.folder / log, "wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "dask", *args],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                cwd=self.folder,
                env=env,
            )
        self.procs.append(proc)
        return proc

    def start(self, workers: int) -> str:
        self._start(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--dashboard-address",
            "127.0.0.1:0",
            "--scheduler-file",
            str(self.file),
            log="scheduler.log",
        )
        end = time.monotonic() + 60
        while not self.file.exists() or not self.file.read_text().strip():
            assert time.monotonic() < end, (self.folder / "scheduler.log").read_text()
            time.sleep(0.1)
        for i in range(workers):
            self.workers.append(
                self._start(
                    "worker",
                    "--scheduler-file",
                    str(self.file),
                    "--host",
                    "127.0.0.1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--no-nanny",
                    "--local-directory",
                    str(self.folder),
                    log=f"worker{i}.log",
                )
            )
        return str(json.loads(self.file.read_text())["address"])

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(10)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    self.kill(proc)


def running(folder: Path, workers: int = 2) -> Iterator[tuple[Cluster, str]]:
    """A cluster of ``workers`` one-thread workers on the loopback interface, for a fixture to
    yield (its scheduler's address with it) and stop."""
    made = Cluster(folder)
    try:
        address = made.start(workers=workers)
        assert address.startswith("tcp://127.0.0.1:"), address
        yield made, address
    finally:
        made.stop()
