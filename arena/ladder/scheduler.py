"""What a ladder plays next: games chosen one pair at a time where they inform the ranking. Its
:class:`LadderScheduler` is the runner's scheduler (:class:`arena.runner.runner.Scheduler`); the
runner holds the ladder's run lock (``add``, ``retire`` and ``remove`` may be used while it plays,
and the scheduler sees them before its next pick), plays, stores and reports.

What is played. A new pair is picked when the executor has a slot free for each of its games
(with fewer slots than seats, when all are free), so that a pair's games start together: the
ranking is fitted again over every stored game (:mod:`arena.standings.ranking`) and
:func:`arena.stats.matchmaking.next_pair` chooses two active bots (a bot with fewer than
``min_games`` games first, against opponents spread over the ranking; then the two bots adjacent
in the ranking whose order is least certain and that one more pair informs most). The pick, and
why it was made, is stored before its games are played (``picks``, reported as :class:`Picked`);
a pair is both seats of one map: the ``k``-th pair of two bots is played on seed ``k`` of the
ladder's master seed, so every two bots meet the same maps. N-player games (plugin games with
more seats) pick a table instead (:func:`.tables.next_table`), its seats rotated as in tournaments.

Stopping and resuming. The run ends after ``games`` more games (rounded up to whole pairs), when
the ranking is confident (``until_confident``: every active bot placed, and every two active bots
adjacent in the ranking ordered with probability at least 0.95), when fewer active bots than
seats are left, or on Ctrl-C (the games in progress are dropped). Each game is stored in its own
transaction, once per (comparison, pair, leg): a run killed at any moment (``SIGKILL`` included)
loses only its games in progress, and the next run plays the games missing from the pairs picked
before, once no new bot waits for its placement.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import referee

from ..match.launch.botspec import BotSpec
from ..runner.executor import Executor
from ..runner.runner import Plan
from ..runner.task import ScheduledGame
from ..standings.ranking import Played, Ranking, rank
from ..stats.matchmaking import MIN_GAMES, next_pair
from ..store.records import BotState, GameRecord, PickRow
from ..store.results import Store
from ..tournament.schedule import Comparison, pair_seed
from .stored import Ladder
from .tables import next_table

__all__ = ["CONFIDENCE", "MIN_GAMES", "LadderStart", "LadderStanding", "Picked", "LadderScheduler"]

CONFIDENCE = 0.95
"""``until_confident``: the probability every two active bots adjacent in the ranking must be
ordered with."""


@dataclass(frozen=True)
class LadderStart:
    """What a ladder's run starts with (:attr:`arena.runner.runner.Started.detail`)."""

    bots: tuple[str, ...]
    """The active bots."""
    unfinished: int
    """Games missing from pairs an earlier run picked, played first."""
    target: int | None
    """Games this run plays at most (``None``: until stopped, or confident)."""


@dataclass(frozen=True)
class LadderStanding:
    """Where a ladder stands after a game (:attr:`arena.runner.runner.GameDone.standing`)."""

    ladder_id: int
    ranking: Ranking
    least_certain: tuple[str, str, float] | None
    """The two active bots adjacent in the ranking whose order is least sure, and P(upper above)."""


@dataclass(frozen=True)
class Picked:
    """A new pair (or table) was chosen."""

    bots: tuple[str, ...]
    comparison: int
    pair: int
    seed: int
    reason: str


class LadderScheduler:
    """The games of ``ladder`` (see the module docstring). ``spec_of`` makes a bot's
    :class:`BotSpec` from its stored row (its frozen version); ``on_event`` hears :class:`Picked`."""

    kind = "ladder"

    def __init__(
        self,
        ladder: Ladder,
        spec_of: Callable[[str, dict[str, object]], BotSpec],
        *,
        games: int | None = None,
        until_confident: bool = False,
        on_event: Callable[[object], None] | None = None,
        warnings: Sequence[str] = (),
    ) -> None:
        self.ladder = ladder
        self.spec_of = spec_of
        self.players = referee.get(ladder.settings.game).player_count
        self.target = None if games is None else -(-games // self.players) * self.players
        """Games to play: ``games`` rounded up to whole pairs (tables)."""
        self.until_confident = until_confident
        self.on_event = on_event or (lambda event: None)
        self.rng = random.Random()
        self.warnings = tuple(warnings)
        """What the run starts by saying (files found beside a version, ignored)."""
        self._store: Store | None = None
        self._specs: dict[str, BotSpec] = {}
        self._games: dict[tuple[int, int, int], Played] = {}
        self._next_pair: dict[int, int] = {}
        self._queue: list[ScheduledGame] = []
        """The games of the pair being started."""
        self._leftover: list[list[ScheduledGame]] = []
        """The games missing from pairs an earlier run picked, pair by pair."""
        self._ranking: Ranking | None = None
        self._submitted = 0
        self._stuck = False
        """No pair can be picked: fewer active bots than seats."""

    @property
    def store(self) -> Store:
        assert self._store is not None, "the run has not opened the ladder"
        return self._store

    # -- what the run knows --------------------------------------------------------------------------

    def spec(self, name: str) -> BotSpec:
        spec = self._specs.get(name)
        if spec is None:
            row = self.ladder.named(name)
            assert row.frozen is not None, f"ladder bot {name!r} without a frozen version"
            spec = self._specs[name] = self.spec_of(name, row.frozen)
        return spec

    def _active(self) -> list[str]:
        return [b.name for b in self.ladder.in_state(BotState.ACTIVE)]

    def ranking(self) -> Ranking:
        """The ranking over the games stored (fitted again after each new game or change of bots)."""
        if self._ranking is None:
            bots_of = {c.index: c.bots for c in self.ladder.comparisons}
            ranked = [(b.name, b.state) for b in self.ladder.in_state(BotState.ACTIVE, BotState.RETIRED)]
            self._ranking = rank(self._games.values(), ranked, players=self.players, bots_of=bots_of)
        return self._ranking

    def _refresh(self) -> None:
        """Read the bots again (added, retired, removed while the run plays)."""
        before = [(b.name, b.state) for b in self.ladder.bots]
        self.ladder.reload(self.store)
        if [(b.name, b.state) for b in self.ladder.bots] != before:
            self._ranking = None

    # -- the run's start ------------------------------------------------------------------------------

    def open(self, store: Store) -> tuple[int, bool]:
        self._store = store
        return self.ladder.id, True

    def begin(self, store: Store, run_id: int, stored: Sequence[GameRecord]) -> Plan:
        for record in stored:
            self._games[record.key] = Played.of(record)
            self._next_pair[record.comparison] = max(self._next_pair.get(record.comparison, 0), record.pair + 1)
        for pick in store.picks(run_id):
            self._next_pair[pick.comparison] = max(self._next_pair.get(pick.comparison, 0), pick.pair + 1)
        self._leftover = self._unfinished()
        unfinished = sum(len(legs) for legs in self._leftover)
        start = LadderStart(tuple(self._active()), unfinished, self.target)
        return Plan(0, self.target, self.warnings, detail=start)

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
            legs = [g for g in self._pair(c.index, c.bots, pick.pair) if g.key not in self._games]
            if legs:
                out.append(legs)
        return out

    def _pair(self, comparison: int, bots: tuple[str, ...], pair: int) -> list[ScheduledGame]:
        """The games of pair ``pair`` of these bots: one map, every seat."""
        seed = pair_seed(self.ladder.settings.seed, pair)
        seats = Comparison(comparison, bots).seats
        return [ScheduledGame(comparison, pair, leg, seed, seats(leg)) for leg in range(self.players)]

    # -- picking ------------------------------------------------------------------------------------

    def _placing(self) -> bool:
        """Whether an active bot still has fewer than ``min_games`` games (placement comes first)."""
        games = {b.name: b.games for b in self.ranking().bots}
        return any(games.get(name, 0) < MIN_GAMES for name in self._active())

    def _pick(self) -> list[ScheduledGame] | None:
        """Choose the next pair (or table) and note why; ``None`` when fewer active bots than seats."""
        active = self._active()
        if len(active) < self.players:
            return None
        ranking = self.ranking()
        if self.players == 2:
            assert ranking.fit is not None
            pairing = next_pair(ranking.fit, active, self.rng, min_games=MIN_GAMES)
            group: tuple[str, ...] = (pairing.a, pairing.b)
            reason = pairing.reason
        else:
            group, reason = next_table(ranking, active, self.players, self.rng, MIN_GAMES)
        comparison = self.ladder.comparison(self.store, tuple(group))
        pair = self._next_pair.get(comparison.index, 0)
        self._next_pair[comparison.index] = pair + 1
        self.store.add_pick(self.ladder.id, PickRow(comparison.index, pair, reason, time.time()))
        games = self._pair(comparison.index, comparison.bots, pair)
        self.on_event(Picked(comparison.bots, comparison.index, pair, games[0].seed, reason))
        return games

    def next_games(self, free: int, running: int) -> list[ScheduledGame] | None:
        """The games queued first, then new pairs. A new pair starts only when a slot is free for
        each of its games (with fewer slots than seats, when all are free), so a run killed at any
        moment has lost at most its games in progress."""
        out: list[ScheduledGame] = []
        while free > 0 and self._wants_more():
            if not self._queue:
                if free < min(self.players, free + running):
                    break
                self._refresh()
                if self._leftover and not self._placing():
                    self._queue = self._leftover.pop(0)
                else:
                    picked = self._pick()
                    if picked is None:
                        self._stuck = True
                        break
                    self._queue = picked
            out.append(self._queue.pop(0))
            free, running, self._submitted = free - 1, running + 1, self._submitted + 1
        return out if out or (self._wants_more() and not self._stuck) else None

    def _wants_more(self) -> bool:
        """Whether another game should start: below ``games``, and not yet confident."""
        if self.target is not None and self._submitted >= self.target:
            return False
        return not (self.until_confident and self._confident())

    def _confident(self) -> bool:
        active = self._active()
        if len(active) < 2:
            return False
        ranking = self.ranking()
        placed = all(b.games >= MIN_GAMES for b in ranking.bots if b.name in active)
        return placed and ranking.confident(active, CONFIDENCE)

    # -- the games stored -----------------------------------------------------------------------------

    def collected(self, record: GameRecord, pool: Executor) -> None:
        self._games[record.key] = Played.of(record)
        self._ranking = None

    def progress(self, stored: int, played: int) -> tuple[int, int | None]:
        return played, self.target

    def standing(self) -> LadderStanding:
        ranking = self.ranking()
        return LadderStanding(self.ladder.id, ranking, ranking.least_certain(self._active()))

    def ended(self) -> str:
        if self._stuck:
            return f"fewer active bots than the {self.players} seats of a game"
        if self.until_confident and self._confident():
            return f"the ranking is confident (every two active bots next to each other ordered with P >= {CONFIDENCE})"
        if self.target is not None:
            return f"the {self.target} games asked for (--games) are played"
        return "stopped"
