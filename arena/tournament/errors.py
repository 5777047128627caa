"""What stops a tournament, in one line: :class:`TournamentError` (it cannot run as asked),
:class:`TournamentBusy` (another run plays it), :class:`StorageFailure` (the database or the disk
failed; the games stored before are kept)."""

from __future__ import annotations

import time
from pathlib import Path

from .. import paths
from ..errors import ArenaError
from ..store.records import RunnerRow
from ..store.results import StoreError, explain

__all__ = ["TournamentError", "TournamentBusy", "StorageFailure", "replay_failure"]


class TournamentError(ArenaError):
    """The tournament cannot run as asked (the message says why and what to do)."""


class TournamentBusy(TournamentError):
    """Another run is playing this tournament now (see :mod:`arena.store.runlock`)."""

    def __init__(self, tournament_id: int, runner: RunnerRow | None) -> None:
        who = "another process"
        if runner is not None:
            since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(runner.since))
            who = f"process {runner.pid} on {runner.host} (since {since})"
        super().__init__(
            f"tournament {tournament_id} is already being played by {who}; let that run finish "
            "(or stop it), then run this command again to resume it"
        )
        self.tournament_id = tournament_id
        self.runner = runner


class StorageFailure(TournamentError):
    """The results database, or the disk, failed: the run stopped. The games stored before are
    kept (each was committed on its own) and the tournament is marked interrupted where that
    could still be written. Its text is one line; the command line adds how to resume."""

    def __init__(
        self, error: StoreError, tournament_id: int | None = None, stored: int | None = None, marked: bool = False
    ) -> None:
        text = error.problem
        if tournament_id is not None:
            if stored is None:  # it failed before the games were counted
                kept = f"tournament {tournament_id} stopped"
            else:
                kept = (
                    f"{stored} game{'' if stored == 1 else 's'} of tournament {tournament_id} "
                    f"{'is' if stored == 1 else 'are'} stored"
                )
            status = "it is marked interrupted" if marked else "its status could not be updated"
            text += f"; {kept} and {status}"
        if error.advice:
            text += f"; {error.advice}"
        super().__init__(text)
        self.error = error
        self.tournament_id = tournament_id
        self.stored = stored
        self.marked = marked


def replay_failure(folder: Path, exc: OSError) -> StoreError:
    """The one line for a kept replay that could not be written into ``folder``."""
    if paths.exists(folder) and not paths.is_dir(folder):
        return StoreError(
            f"{folder}: the replays folder was replaced by a file, so no replay can be kept",
            "move that file away (or pass another --replays)",
        )
    if not paths.exists(folder):
        return StoreError(
            f"{folder}: the replays folder was removed, so no replay can be kept (a resume makes it again)"
        )
    return explain(folder, exc)
