"""What a tournament plays next: its :class:`TournamentScheduler` is the runner's scheduler
(:class:`arena.runner.runner.Scheduler`): it finds the tournament to resume or makes it, hands out
the schedule's games in order (:mod:`.dispatcher`), and counts each stored game (:mod:`.tracker`),
storing SPRT decisions and dropping the games they make unwanted.

Determinism. Game ``(comparison, pair, leg)`` always gets the same seed and seats, and the
statistics never depend on the order in which games finished: a comparison's SPRT is run on its
pairs in pair order, over the longest run of complete pairs from pair 0, and when it is decided at
pair ``k`` the comparison's figures are those of pairs ``0..k-1`` (games that were already running
are stored but left out). So a resumed run, or a run with another number of workers, reaches the
same numbers as an uninterrupted one, as long as the bots themselves play deterministically.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import referee

from .. import paths
from ..match.launch import botspec
from ..match.launch.botspec import BotSpec
from ..match.limits import TreeLimits, enforcement
from ..match.loop import MatchOptions
from ..match.sandbox import SandboxUnavailable, decide
from ..runner.executor import Executor, LocalExecutor
from ..runner.runner import Plan, Runner, RunResult, RunSetup
from ..runner.task import ReplayPolicy, ScheduledGame
from ..standings.tracker import ComparisonTracker, TableTracker, make_tracker
from ..stats import ComparisonStats
from ..stats.sprt import SprtState
from ..store.records import BotRow, GameRecord, TournamentStatus
from ..store.results import Store
from ..versions.provenance import ArenaFiles, identity, referee_version, same_bot, same_rules
from .config import TournamentConfig
from .dispatcher import Dispatcher
from .entries import BotEntry
from .errors import TournamentError
from .resume import SettingsChange, settings_change
from .schedule import Schedule, make_schedule

__all__ = ["Decided", "TournamentScheduler", "bot_spec", "settings_key", "run_tournament", "tournament_setup"]


@dataclass(frozen=True)
class Decided:
    """A comparison's SPRT decided (its later pairs are not played)."""

    comparison: int
    bots: tuple[str, ...]
    state: SprtState
    pairs: int


def bot_spec(entry: BotEntry, game: str) -> BotSpec:
    """How to start a tournament bot: its BOT resolved as ``arena play`` does, plus its
    arguments and environment."""
    try:
        spec = botspec.resolve(entry.bot, game, base=None if entry.base is None else Path(entry.base))
    except botspec.BotSpecError as exc:
        raise TournamentError(f"bot {entry.name!r}: {exc}") from None
    env = dict(spec.env)
    env.update(entry.env)
    data = tuple(str(p) for p in paths.data_paths(entry.data, entry.base))  # absolute: whatever the bot's cwd
    return BotSpec(
        name=entry.name, argv=spec.argv + entry.args, cwd=spec.cwd, env=env, data=data, source=spec.source,
        leagues=spec.leagues,
    )  # fmt: skip


def settings_key(config: TournamentConfig) -> str:
    return hashlib.sha256(json.dumps(config.schedule_key(), sort_keys=True).encode()).hexdigest()[:16]


def _leader(trackers: Sequence[ComparisonTracker | TableTracker]) -> ComparisonStats | None:
    pairs = [t for t in trackers if isinstance(t, ComparisonTracker)]
    return max(pairs, key=lambda t: len(t.legs)).stats() if pairs else None


class TournamentScheduler:
    """The games of ``config``'s schedule (see the module docstring). ``new=True`` starts a fresh
    tournament even when one with the same settings exists; otherwise that one is resumed (or
    extended to more games). ``on_event`` hears its :class:`Decided` events."""

    kind = "tournament"

    def __init__(
        self, config: TournamentConfig, *, new: bool = False, on_event: Callable[[object], None] | None = None
    ) -> None:
        self.config = config
        self.new = new
        self.on_event = on_event or (lambda event: None)
        self.specs = {b.name: bot_spec(b, config.game) for b in config.bots}
        self.schedule: Schedule = make_schedule(
            config.format, [b.name for b in config.bots], config.seed, config.pairs, config.baseline,
            config.players, config.seeds,
        )  # fmt: skip
        self.referee_version = referee_version(config.game)
        try:
            self.sandboxed, self.sandbox_note = decide(config.sandbox)
        except SandboxUnavailable as exc:
            raise TournamentError(str(exc)) from None
        self.limits_note = enforcement.limits_note(TreeLimits(config.memory_limit_mb))
        self.change: SettingsChange | None = None
        """How a new tournament's settings differ from the latest one of the same bots."""
        self._left_out: list[str] = []
        """Files of the bots' code or data left out of their hashes, in words."""
        self._unchecked: list[str] = []
        """Per bot, its arguments that name files (:meth:`notes`)."""
        self.trackers: list[ComparisonTracker | TableTracker] = []
        self._dispatcher: Dispatcher | None = None
        self._store: Store | None = None
        self._run_id = 0
        self.resumed = False

    # -- the tournament -----------------------------------------------------------------------------

    def arena_files(self, store: Store) -> ArenaFiles:
        """The files no bot's hash may open: the database, its side files, the replays."""
        return ArenaFiles.of(store.path, self.config.replays)

    def bot_rows(self, store: Store) -> list[BotRow]:
        """The bots as stored (their hashes), noting what the hashes leave out."""
        avoid = self.arena_files(store)
        rows: list[BotRow] = []
        self._left_out, self._unchecked = [], []
        for name, spec in self.specs.items():
            found = identity(spec, avoid)
            rows.append(found.row)
            self._left_out += [f"bot {name!r}: {item} is left out of its source hash" for item in found.skipped]
            self._unchecked += [f"{name}: {', '.join(found.unchecked)}"] if found.unchecked else []
        return rows

    def open(self, store: Store) -> tuple[int, bool]:
        """Find the tournament to resume, or create it: its id, and whether it is resumed."""
        self._store = store
        key = settings_key(self.config)
        rows = self.bot_rows(store)
        existing = None if self.new else store.latest(key)
        if existing is None:
            self.change = None if self.new else settings_change(self.config, store.tournaments())
            comparisons = [(c.index, c.bots) for c in self.schedule.comparisons()]
            config = self.config
            return store.create_tournament(
                key, config.to_dict(), config.games, self.referee_version, rows, comparisons
            ), False
        stored = {b.name: b for b in store.bots(existing.id)}
        for row in rows:
            old = stored.get(row.name)
            if old is not None and not same_bot(old, row, self.specs[row.name], self.arena_files(store)):
                raise TournamentError(
                    f"bot {row.name!r} changed since tournament {existing.id} started (source hash "
                    f"{old.source_hash} -> {row.source_hash}: its code, or the data its config lists "
                    "under data:); restore it, or pass --new to start a new tournament"
                )
        self._same_league(existing.settings.get("league"), existing.id)
        if not same_rules(existing.referee_version, self.config.game):
            raise TournamentError(
                f"the {self.config.game} referee changed since tournament {existing.id} started "
                f"({existing.referee_version} -> {self.referee_version}); pass --new to start a new one"
            )
        store.update_tournament(
            existing.id, status=TournamentStatus.RUNNING, games_target=self.config.games, settings=self.config.to_dict()
        )
        self.resumed = True
        return existing.id, True

    def _same_league(self, stored: int | None, tid: int) -> None:
        league = self.config.league
        if stored != league:
            rules = referee.get(self.config.game)
            raise TournamentError(
                f"tournament {tid} is played at {rules.league_label(stored or rules.top_league)}, "
                f"this run asks for {rules.league_label(league or rules.top_league)}; run it at that league to "
                "resume it, or pass --new to start a new tournament"
            )

    def warnings(self) -> list[str]:
        notes = [self.sandbox_note, self.limits_note]
        return [n for n in notes if n] + self._left_out + ([self.change.describe()] if self.change is not None else [])

    def notes(self, resumed: bool) -> list[str]:
        """What a resume checks of the bots (their code and declared data), and the files named
        on their command lines, which it does not."""
        named = f" ({'; '.join(self._unchecked)})" if self._unchecked else ""
        if resumed:
            return [
                "resumed with the bots' code and declared data (data:) unchanged; other files they read are not "
                f"checked{named}: list those under data: in a config to have a change refused"
            ]
        if named:
            return [
                f"files named on the bots' command lines are not part of their hashes{named}: a change to them "
                "will not stop a resume; list those a bot reads under data: in a config to have them checked"
            ]
        return []

    # -- the games ------------------------------------------------------------------------------------

    def begin(self, store: Store, run_id: int, stored: Sequence[GameRecord]) -> Plan:
        """Count the stored games (their decisions stored again), and what is left to play."""
        self._run_id = run_id
        self.trackers = [make_tracker(c.index, c.bots, self.config.sprt) for c in self.schedule.comparisons()]
        for record in stored:
            if record.comparison < len(self.trackers):
                self.trackers[record.comparison].add(record)
        for t in self.trackers:
            if t.decision is not None:
                store.set_decision(run_id, t.index, t.decision.value, t.decided_at or 0)
        self._dispatcher = Dispatcher(self.schedule, self.trackers, store.game_keys(run_id))
        done = len(self._dispatcher.done)
        notes = tuple(self.notes(self.resumed))
        return Plan(done, done + self._dispatcher.remaining(), tuple(self.warnings()), notes)

    def spec(self, name: str) -> BotSpec:
        return self.specs[name]

    def next_games(self, free: int, running: int) -> list[ScheduledGame] | None:
        assert self._dispatcher is not None
        games: list[ScheduledGame] = []
        for _ in range(free):
            game = self._dispatcher.next_game()
            if game is None:
                return games or None
            games.append(game)
        return games

    def collected(self, record: GameRecord, pool: Executor) -> None:
        """Count a stored game: an SPRT decision is stored, its later pairs dropped."""
        assert self._dispatcher is not None and self._store is not None
        decided = self._dispatcher.finished(record)
        if decided is None:
            return
        assert decided.decision is not None and decided.decided_at is not None
        self._store.set_decision(self._run_id, decided.index, decided.decision.value, decided.decided_at)
        pool.cancel(decided.index, decided.decided_at)  # its later pairs: not counted, not wanted
        self.on_event(Decided(decided.index, decided.bots, decided.decision, decided.decided_at))

    def progress(self, stored: int, played: int) -> tuple[int, int | None]:
        assert self._dispatcher is not None
        return stored, max(stored, stored + self._dispatcher.remaining())

    def standing(self) -> ComparisonStats | None:
        """The two-bot comparison with the most games (for the progress); ``None`` in an N-player game."""
        return _leader(self.trackers)

    def ended(self) -> str:
        return "every game of the schedule is played"

    def match_options(self, store: Store) -> MatchOptions:
        """How every game is played: the limits, the sandbox, the files hidden from the bots."""
        return self.config.match_options((str(store.path.resolve()), f"{store.path.resolve()}.lock"))


def tournament_setup(
    scheduler: TournamentScheduler, store: Store, executor: Callable[[int], Executor] | None = None
) -> RunSetup:
    """How ``scheduler``'s tournament is played into ``store``: its match options, workers,
    replays and failures allowed, on ``executor`` (default: worker processes here)."""
    config = scheduler.config
    return RunSetup(
        game=config.game,
        options=scheduler.match_options(store),
        referee_version=scheduler.referee_version,
        workers=config.workers,
        replays=ReplayPolicy.of(config),
        max_failures=config.max_failures,
        executor=executor or LocalExecutor,
    )


def run_tournament(
    config: TournamentConfig,
    store: Store,
    *,
    new: bool = False,
    on_event: Callable[[object], None] | None = None,
    executor: Callable[[int], Executor] | None = None,
) -> RunResult:
    """Play ``config`` into ``store`` (resume it, unless ``new``) on ``executor``."""
    scheduler = TournamentScheduler(config, new=new, on_event=on_event)
    return Runner(scheduler, store, tournament_setup(scheduler, store, executor), on_event).run()
