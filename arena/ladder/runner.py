"""Playing a ladder: games chosen one pair at a time where they inform the ranking, played on an
executor, stored game by game.

:class:`LadderRun` never prints: it reports through ``on_event`` (:class:`LadderStarted`,
:class:`LadderGameDone`, :class:`Picked`, and the tournament's :class:`arena.tournament.runner.BotFailed`).
It holds the ladder's run lock (:mod:`arena.store.runlock`: one run per ladder; ``add``,
``retire`` and ``remove`` may be used while it plays, and it sees them before its next pick).

What is played. A new pair is picked when the executor has a slot free for each of its games
(with fewer slots than seats, when all are free), so that a pair's games start together: the
ranking is fitted again over every stored game (:mod:`arena.standings.ranking`) and
:func:`arena.stats.matchmaking.next_pair` chooses two active bots (a bot with fewer than
``min_games`` games first, against opponents spread over the ranking; then the two bots adjacent
in the ranking whose order is least certain and that one more pair informs most). The pick, and
why it was made, is stored before its games are played (``picks``); a pair is both seats of one
map: the ``k``-th pair of two bots is played on seed ``k`` of the ladder's master seed, so every
two bots meet the same maps. N-player games (plugin games with more seats) pick a table instead
(:func:`.tables.next_table`), its seats rotated as in tournaments.

Stopping and resuming. The run ends after ``games`` more games (rounded up to whole pairs), when
the ranking is confident (``until_confident``: every active bot placed, and every two active bots
adjacent in the ranking ordered with probability at least 0.95), when fewer active bots than
seats are left, or on Ctrl-C (the games in progress are dropped). Each game is stored in its own
transaction, once per (comparison, pair, leg): a run killed at any moment (``SIGKILL`` included)
loses only its games in progress, and the next run plays the games missing from the pairs picked
before, once no new bot waits for its placement.
"""

from __future__ import annotations

import dataclasses
import os
import random
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import referee

from ..match import sandbox
from ..match.launch.botspec import BotSpec
from ..match.loop import MatchOptions
from ..match.process.shield import shielded
from ..match.replay import write_text_atomic
from ..match.sandbox import SandboxMode
from ..runner.executor import Executor, ExecutorError, LocalExecutor
from ..runner.failures import FailureWatch
from ..runner.task import GameTask, ReplayPolicy, ScheduledGame
from ..standings.ranking import Played, Ranking, rank
from ..stats.matchmaking import MIN_GAMES, next_pair
from ..store.records import BotState, GameRecord, PickRow, RunnerRow, TournamentStatus
from ..store.results import Store, StoreError
from ..store.runlock import RunLock
from ..tournament.errors import replay_failure
from ..tournament.runner import BotFailed
from ..tournament.schedule import Comparison, pair_seed
from .errors import LadderError
from .stored import Ladder
from .tables import next_table

__all__ = [
    "LadderStarted",
    "Picked",
    "LadderGameDone",
    "RunResult",
    "LadderRun",
    "LadderBusy",
    "MIN_GAMES",
    "CONFIDENCE",
]

CONFIDENCE = 0.95
"""``until_confident``: the probability every two active bots adjacent in the ranking must be
ordered with."""


class LadderBusy(LadderError):
    """Another run is playing this ladder now."""

    def __init__(self, ladder_id: int, runner: RunnerRow | None) -> None:
        who = "another process"
        if runner is not None:
            since = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(runner.since))
            who = f"process {runner.pid} on {runner.host} (since {since})"
        super().__init__(
            f"ladder {ladder_id} is already being run by {who}; stop it (Ctrl-C) or let it end, then run again"
        )


@dataclass(frozen=True)
class LadderStarted:
    ladder_id: int
    stored: int
    """Games already stored."""
    bots: tuple[str, ...]
    """The active bots."""
    unfinished: int
    """Games missing from pairs an earlier run picked, played first."""
    target: int | None
    """Games this run plays at most (``None``: until stopped, or confident)."""
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Picked:
    """A new pair (or table) was chosen."""

    bots: tuple[str, ...]
    comparison: int
    pair: int
    seed: int
    reason: str


@dataclass(frozen=True)
class LadderGameDone:
    record: GameRecord
    played: int
    """Games this run has stored."""
    stored: int
    """Games of the ladder stored."""
    target: int | None
    ranking: Ranking
    least_certain: tuple[str, str, float] | None
    """The two active bots adjacent in the ranking whose order is least sure, and P(upper above)."""


@dataclass
class RunResult:
    ladder_id: int
    played: int = 0
    interrupted: bool = False
    ended: str = ""
    """Why the run ended, in words (``200 games played``, ``the ranking is confident``...)."""
    ranking: Ranking | None = None


class LadderRun:
    """Plays ``ladder`` into ``store``: see the module docstring. ``spec_of`` makes a bot's
    :class:`BotSpec` from its stored row (its frozen version); ``executor`` makes the place where
    games are played, given how many to play at once (default: local worker processes)."""

    def __init__(
        self,
        ladder: Ladder,
        store: Store,
        spec_of: Callable[[str, dict[str, object]], BotSpec],
        *,
        workers: int = 1,
        games: int | None = None,
        until_confident: bool = False,
        replays: ReplayPolicy | None = None,
        on_event: Callable[[object], None] | None = None,
        executor: Callable[[int], Executor] | None = None,
        rng: random.Random | None = None,
        min_games: int = MIN_GAMES,
    ) -> None:
        self.ladder = ladder
        self.store = store
        self.spec_of = spec_of
        self.workers = workers
        self.players = referee.get(ladder.settings.game).player_count
        self.target = None if games is None else -(-games // self.players) * self.players
        """Games to play: ``games`` rounded up to whole pairs (tables)."""
        self.until_confident = until_confident
        self.replays = replays
        self.on_event = on_event or (lambda event: None)
        self.executor = executor or LocalExecutor
        self.rng = rng or random.Random()
        self.min_games = min_games
        self.sandboxed, self.sandbox_note = _sandbox(ladder.settings.sandbox)
        self._specs: dict[str, BotSpec] = {}
        self._games: dict[tuple[int, int, int], Played] = {}
        self._next_pair: dict[int, int] = {}
        self._queue: list[ScheduledGame] = []
        """The games of the pair being started."""
        self._leftover: list[list[ScheduledGame]] = []
        """The games missing from pairs an earlier run picked, pair by pair."""
        self._ranking: Ranking | None = None

    # -- what the run knows --------------------------------------------------------------------------

    def _spec(self, name: str) -> BotSpec:
        spec = self._specs.get(name)
        if spec is None:
            row = self.ladder.named(name)
            assert row.frozen is not None, f"ladder bot {name!r} without a frozen version"
            spec = self._specs[name] = self.spec_of(name, row.frozen)
        return spec

    def _ranked(self) -> list[tuple[str, str]]:
        return [(b.name, b.state) for b in self.ladder.in_state(BotState.ACTIVE, BotState.RETIRED)]

    def _active(self) -> list[str]:
        return [b.name for b in self.ladder.in_state(BotState.ACTIVE)]

    def ranking(self) -> Ranking:
        """The ranking over the games stored (fitted again after each new game or change of bots)."""
        if self._ranking is None:
            bots_of = {c.index: c.bots for c in self.ladder.comparisons}
            self._ranking = rank(self._games.values(), self._ranked(), players=self.players, bots_of=bots_of)
        return self._ranking

    def _refresh(self) -> None:
        """Read the bots again (added, retired, removed while the run plays)."""
        before = [(b.name, b.state) for b in self.ladder.bots]
        self.ladder.reload(self.store)
        if [(b.name, b.state) for b in self.ladder.bots] != before:
            self._ranking = None

    # -- picking -----------------------------------------------------------------------------------

    def _unfinished(self) -> list[list[ScheduledGame]]:
        """The games missing from pairs picked by an earlier run (killed, or stopped), whose bots
        are all still active, pair by pair: played once no new bot waits for its placement."""
        comparisons = {c.index: c for c in self.ladder.comparisons}
        active = set(self._active())
        out = []
        for pick in sorted(self.store.picks(self.ladder.id), key=lambda p: (p.picked, p.comparison, p.pair)):
            c = comparisons.get(pick.comparison)
            if c is None or not set(c.bots) <= active:
                continue
            seed = self._seed(pick.pair)
            legs = [
                ScheduledGame(c.index, pick.pair, leg, seed, Comparison(c.index, c.bots).seats(leg))
                for leg in range(self.players)
                if (c.index, pick.pair, leg) not in self._games
            ]
            if legs:
                out.append(legs)
        return out

    def _placing(self) -> bool:
        """Whether an active bot still has fewer than ``min_games`` games (placement comes first)."""
        games = {b.name: b.games for b in self.ranking().bots}
        return any(games.get(name, 0) < self.min_games for name in self._active())

    def _seed(self, pair: int) -> int:
        return pair_seed(self.ladder.settings.seed, pair)

    def _pick(self) -> list[ScheduledGame] | None:
        """Choose the next pair (or table) and note why; ``None`` when fewer active bots than seats."""
        active = self._active()
        if len(active) < self.players:
            return None
        ranking = self.ranking()
        if self.players == 2:
            assert ranking.fit is not None
            pairing = next_pair(ranking.fit, active, self.rng, min_games=self.min_games)
            group: tuple[str, ...] = (pairing.a, pairing.b)
            reason = pairing.reason
        else:
            group, reason = next_table(ranking, active, self.players, self.rng, self.min_games)
        comparison = self.ladder.comparison(self.store, tuple(group))
        pair = self._next_pair.get(comparison.index, 0)
        self._next_pair[comparison.index] = pair + 1
        self.store.add_pick(self.ladder.id, PickRow(comparison.index, pair, reason, time.time()))
        seed = self._seed(pair)
        self.on_event(Picked(comparison.bots, comparison.index, pair, seed, reason))
        return [
            ScheduledGame(comparison.index, pair, leg, seed, Comparison(comparison.index, comparison.bots).seats(leg))
            for leg in range(self.players)
        ]

    # -- the run -------------------------------------------------------------------------------------

    def run(self) -> RunResult:
        """Play (see the module docstring). Raises :class:`LadderBusy` when another run plays
        this ladder, :class:`LadderError` when the games cannot be played, and
        :class:`arena.store.results.StoreError` when the database fails."""
        try:
            lock = RunLock(self.store.path)
        except OSError as exc:
            raise LadderError(f"{self.store.path}: cannot lock the ladder ({exc.strerror or exc})") from None
        with lock:
            with lock.choosing():
                if not lock.acquire(self.ladder.id):
                    raise LadderBusy(self.ladder.id, self.store.runner(self.ladder.id))
                self.store.set_runner(
                    self.ladder.id, RunnerRow(pid=os.getpid(), host=socket.gethostname(), since=time.time())
                )
            try:
                return self._play()
            finally:
                try:
                    self.store.set_runner(self.ladder.id, None)
                except StoreError:
                    pass

    def _begin(self) -> FailureWatch:
        lid = self.ladder.id
        self.store.update_tournament(lid, status=TournamentStatus.RUNNING)
        stored = self.store.games(lid)
        for record in stored:
            self._games[record.key] = Played.of(record)
            self._next_pair[record.comparison] = max(self._next_pair.get(record.comparison, 0), record.pair + 1)
        for pick in self.store.picks(lid):
            self._next_pair[pick.comparison] = max(self._next_pair.get(pick.comparison, 0), pick.pair + 1)
        if self.replays is not None:
            Path(self.replays.folder).mkdir(exist_ok=True)
        self._leftover = self._unfinished()
        warnings = tuple(w for w in (self.sandbox_note, *self._cores_warning()) if w)
        unfinished = sum(len(legs) for legs in self._leftover)
        self.on_event(LadderStarted(lid, len(stored), tuple(self._active()), unfinished, self.target, warnings))
        return FailureWatch(1.0, 0, stored)

    def _cores_warning(self) -> list[str]:
        cores = os.cpu_count() or 1
        if self.workers > cores:
            return [f"{self.workers} workers on {cores} cores: bots are timed in wall-clock time and will be starved"]
        return []

    def _options(self) -> MatchOptions:
        s = self.ladder.settings
        hidden = [str(self.store.path.resolve()), f"{self.store.path.resolve()}.lock"]
        if self.replays is not None:
            hidden.append(self.replays.folder)
        return MatchOptions(
            time_scale=s.time_scale,
            memory_limit_mb=s.memory_limit_mb,
            params=s.game_params() or None,
            sandbox=SandboxMode.ON if self.sandboxed else SandboxMode.OFF,
            hide=tuple(hidden),
        )

    def _fill(self, pool: Executor, options: MatchOptions, submitted: int) -> tuple[int, bool]:
        """Start games in the free slots: the games queued first, then new pairs. A new pair
        starts only when a slot is free for each of its games (with fewer slots than seats, when
        all are free), so a run killed at any moment has lost at most its games in progress.
        Returns the games submitted so far, and whether no pair can be picked any more."""
        version = self.ladder.row.referee_version
        while self._wants_more(submitted):
            free = pool.free_slots()
            if free == 0:
                break
            if not self._queue:
                if free < min(self.players, free + pool.running()):
                    break
                self._refresh()
                if self._leftover and not self._placing():
                    self._queue = self._leftover.pop(0)
                else:
                    picked = self._pick()
                    if picked is None:
                        return submitted, True
                    self._queue = picked
            game = self._queue.pop(0)
            specs = tuple(self._spec(name) for name in game.seats)
            pool.submit(GameTask(game, self.ladder.settings.game, specs, options, version, self.replays))
            submitted += 1
        return submitted, False

    def _play(self) -> RunResult:
        result = RunResult(self.ladder.id)
        watch = self._begin()
        options = self._options()
        pool: Executor | None = None
        submitted = 0
        try:
            pool = self.executor(max(1, self.workers))
            while True:
                submitted, stuck = self._fill(pool, options, submitted)
                if pool.running() == 0:
                    if stuck:
                        result.ended = f"fewer active bots than the {self.players} seats of a game"
                    break
                for _task, record in pool.results(timeout=1.0):
                    if record is not None:
                        self._collect(record, result, watch)
            if not result.ended:
                result.ended = self._why_ended()
            self.store.update_tournament(self.ladder.id, status=TournamentStatus.FINISHED)
        except ExecutorError as exc:
            raise LadderError(str(exc)) from None
        except KeyboardInterrupt:
            result.interrupted = True
            result.ended = "interrupted"
            with shielded(redeliver=False):
                if pool is not None:
                    pool.stop(interrupt=True)
                    pool = None
                self.store.update_tournament(self.ladder.id, status=TournamentStatus.INTERRUPTED)
        finally:
            if pool is not None:
                with shielded():
                    pool.stop(interrupt=True)
        result.ranking = self.ranking()
        return result

    def _wants_more(self, submitted: int) -> bool:
        """Whether another game should start: below ``games``, and not yet confident."""
        if self.target is not None and submitted >= self.target:
            return False
        return not (self.until_confident and self._confident())

    def _confident(self) -> bool:
        active = self._active()
        if len(active) < 2:
            return False
        ranking = self.ranking()
        placed = all(b.games >= self.min_games for b in ranking.bots if b.name in active)
        return placed and ranking.confident(active, CONFIDENCE)

    def _why_ended(self) -> str:
        if self.until_confident and self._confident():
            return f"the ranking is confident (every two active bots next to each other ordered with P >= {CONFIDENCE})"
        if self.target is not None:
            return f"the {self.target} games asked for (--games) are played"
        return "stopped"

    def _keep_replay(self, game_id: int, record: GameRecord) -> str:
        assert self.replays is not None and record.replay_text is not None
        path = self.replays.path(game_id, record.seed)
        try:
            write_text_atomic(path, record.replay_text)
        except OSError as exc:
            raise replay_failure(Path(self.replays.folder), exc) from None
        return str(path)

    def _collect(self, record: GameRecord, result: RunResult, watch: FailureWatch) -> None:
        game_id = self.store.record_game(self.ladder.id, record, self._keep_replay)
        record = dataclasses.replace(record, replay_text=None, id=game_id)
        if game_id is None:  # stored already (never by this run: it plays each game once)
            return
        result.played += 1
        self._games[record.key] = Played.of(record)
        self._ranking = None
        for failure in watch.add(record):
            self.on_event(BotFailed(failure))
        ranking = self.ranking()
        self.on_event(
            LadderGameDone(
                record,
                result.played,
                len(self._games),
                self.target,
                ranking,
                ranking.least_certain(self._active()),
            )
        )


def _sandbox(mode: str) -> tuple[bool, str | None]:
    try:
        return sandbox.decide(mode)
    except sandbox.SandboxUnavailable as exc:
        raise LadderError(str(exc)) from None
