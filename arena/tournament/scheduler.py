"""What a tournament plays next: its :class:`TournamentScheduler` is the runner's scheduler
(:class:`arena.runner.runner.Scheduler`): it finds the tournament to resume or makes it, hands out
the schedule's games in order (:mod:`.dispatcher`), and counts each stored game (:mod:`arena.standings.tracker`),
storing SPRT decisions and dropping the games they make unwanted.

Determinism. Game ``(comparison, pair, leg)`` always gets the same seed and seats, and the
statistics never depend on the order in which games finished: a comparison's SPRT is run on its
pairs in pair order, over the longest run of complete pairs from pair 0, and when it is decided at
pair ``k`` the comparison's figures are those of pairs ``0..k-1`` (games that were already running
are stored but left out). So a resumed run, or a run with another number of workers, reaches the
same numbers as an uninterrupted one, as long as the bots themselves play deterministically.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import referee

from .. import paths
from ..match.launch import botspec
from ..match.launch.botspec import BotSpec
from ..match.limits import TreeLimits, enforcement
from ..match.sandbox import decide
from ..runner.executor import Executor, LocalExecutor
from ..runner.runner import Plan, Runner, RunResult, RunSetup
from ..runner.task import ReplayPolicy, ScheduledGame
from ..standings.tracker import ComparisonTracker, TableTracker, make_tracker
from ..stats import ComparisonStats
from ..stats.sprt import SprtState
from ..store.records import BotRow, GameRecord, TournamentRow, TournamentStatus
from ..store.results import Store
from ..versions.provenance import ArenaFiles, identity, referee_version, same_bot, same_rules
from ..versions.reference import Reference, parse
from ..versions.registry import Version, origin_of
from ..versions.roster import Wanted, enter
from .config import TournamentConfig
from .dispatcher import Dispatcher
from .entries import BotEntry
from .errors import TournamentError
from .resume import SettingsChange, settings_change
from .schedule import Schedule, make_schedule

__all__ = ["Decided", "TournamentScheduler", "bot_spec", "reference_of", "run_tournament", "tournament_setup"]


@dataclass(frozen=True)
class Decided:
    """A comparison's SPRT decided (its later pairs are not played)."""

    comparison: int
    bots: tuple[str, ...]
    state: SprtState
    pairs: int


def bot_spec(entry: BotEntry, game: str) -> BotSpec:
    """How to start a tournament bot: its BOT resolved as ``arena play`` does, plus its
    arguments, environment and data."""
    try:
        spec = botspec.resolve(entry.bot, game, base=None if entry.base is None else Path(entry.base))
    except botspec.BotSpecError as exc:
        raise TournamentError(f"bot {entry.name!r}: {exc}") from None
    return _with_entry(dataclasses.replace(spec, name=entry.name), entry)


def settings_key(config: TournamentConfig) -> str:
    return hashlib.sha256(json.dumps(config.schedule_key(), sort_keys=True).encode()).hexdigest()[:16]


def reference_of(entry: BotEntry) -> Reference | None:
    """The stored version a bot's BOT names (``mybot@3``), or ``None``: a source."""
    return parse(entry.bot, None if entry.base is None else Path(entry.base))


def _schedule(config: TournamentConfig) -> Schedule:
    return make_schedule(
        config.format, [b.name for b in config.bots], config.seed, config.pairs, config.baseline, config.players,
        config.seeds,
    )  # fmt: skip


def _renamed(config: TournamentConfig, names: Mapping[str, str]) -> TournamentConfig:
    """``config`` with its bots (and its baseline) renamed as ``names`` says."""
    if all(old == new for old, new in names.items()):
        return config
    bots = tuple(dataclasses.replace(b, name=names[b.name]) for b in config.bots)
    baseline = None if config.baseline is None else names.get(config.baseline, config.baseline)
    return dataclasses.replace(config, bots=bots, baseline=baseline)


def _with_entry(spec: BotSpec, entry: BotEntry) -> BotSpec:
    """``spec`` with the config's arguments, variables and data (absolute: whatever the bot's
    cwd) after its own."""
    data = tuple(str(p) for p in paths.data_paths(entry.data, entry.base))
    return dataclasses.replace(spec, argv=spec.argv + entry.args, env={**spec.env, **entry.env}, data=spec.data + data)


class TournamentScheduler:
    """The games of ``config``'s schedule (see the module docstring). ``new=True`` starts a fresh
    tournament even when one with the same settings exists; otherwise that one is resumed (or
    extended to more games). ``on_event`` hears its :class:`Decided` events."""

    kind = "tournament"

    def __init__(
        self,
        config: TournamentConfig,
        *,
        new: bool = False,
        on_event: Callable[[object], None] | None = None,
        warnings: Sequence[str] = (),
    ) -> None:
        self.config = config
        self.new = new
        self.on_event = on_event or (lambda event: None)
        self.given_warnings = tuple(warnings)
        """What the run starts by saying first (a Dask cluster's slow workers)."""
        self.sources = {b.name: bot_spec(b, config.game) for b in config.bots if reference_of(b) is None}
        """How each bot given by its source starts from it (the bots naming a stored version aside)."""
        self.specs: dict[str, BotSpec] = dict(self.sources)
        """How each bot starts: once the tournament is opened, from its frozen version."""
        self.versions: dict[str, Version] = {}
        self.schedule = _schedule(config)
        self.referee_version = referee_version(config.game)
        self.sandbox_note = decide(config.sandbox)[1]
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
        self._changed: str | None = None
        """Why the latest tournament of these settings is not resumed: a bot is another version."""

    # -- the tournament -----------------------------------------------------------------------------

    def arena_files(self, store: Store) -> ArenaFiles:
        """The files no bot's hash may open: the database, its side files, the replays."""
        return ArenaFiles.of(store.path, self.config.replays)

    def bot_rows(self, store: Store) -> list[BotRow]:
        """The bots as stored: a bot given by its source with its source hash (noting what the hash
        leaves out), one naming a stored version with that version's; each with its version."""
        avoid = self.arena_files(store)
        rows: list[BotRow] = []
        self._left_out, self._unchecked = [], []
        for b in self.config.bots:
            name, version = b.name, self.versions.get(b.name)
            spec = self.sources.get(name)
            if spec is None:
                assert version is not None
                frozen = self.specs[name]
                rows.append(BotRow(name, frozen.argv, dict(frozen.env), version.hash[:16], (), version=version.id))
                continue
            found = identity(spec, avoid)
            rows.append(dataclasses.replace(found.row, version=None if version is None else version.id))
            self._left_out += [f"bot {name!r}: {item} is left out of its source hash" for item in found.skipped]
            self._unchecked += [f"{name}: {', '.join(found.unchecked)}"] if found.unchecked else []
        return rows

    def _pin(self, store: Store) -> None:
        """Freeze each bot given by its source and read each stored version named (:mod:`arena.versions.roster`):
        the bots then play their versions; one named by a reference alone (``mybot@prev``) is named
        after the version it is (``mybot@1``)."""
        bases = {b.name: None if b.base is None else Path(b.base) for b in self.config.bots}
        wanted = []
        for b in self.config.bots:
            ref = reference_of(b)
            if ref is None:
                wanted.append(Wanted(self.sources[b.name], origin=origin_of(b.bot, bases[b.name])))
            else:
                wanted.append(Wanted(reference=ref, name=None if b.name == b.bot else b.name))
        entrants = enter(store, wanted, self.arena_files(store))
        renamed = {b.name: e.name for b, e in zip(self.config.bots, entrants, strict=True)}
        self.config = _renamed(self.config, renamed)
        self.sources = {renamed[n]: s for n, s in self.sources.items()}
        self.specs = {  # a bot given by its source has the config's arguments in its version already
            e.name: e.spec if reference_of(b) is None else _with_entry(e.spec, b)
            for b, e in zip(self.config.bots, entrants, strict=True)
        }
        self.versions = {e.name: e.version for e in entrants}
        self._left_out += [n for e in entrants for n in e.notes]
        self.schedule = _schedule(self.config)

    def open(self, store: Store) -> tuple[int, bool]:
        """Find the tournament to resume (the newest one of these settings whose bots are these
        versions), or create it: its id, and whether it is resumed."""
        self._store = store
        self._pin(store)
        key = settings_key(self.config)
        rows = self.bot_rows(store)
        existing = None if self.new else self._resumable(store, key, rows)
        if existing is None:
            self.change = None if self.new or self._changed else settings_change(self.config, store.tournaments())
            comparisons = [(c.index, c.bots) for c in self.schedule.comparisons()]
            settings, games = self.config.to_dict(), self.config.games
            return store.create_tournament(key, settings, games, self.referee_version, rows, comparisons), False
        self._same_league(existing.settings.get("league"), existing.id)
        if not same_rules(existing.referee_version, self.config.game):
            raise TournamentError(
                f"the {self.config.game} referee changed since tournament {existing.id} started "
                f"({existing.referee_version} -> {self.referee_version}); pass --new to start a new one"
            )
        for row in rows:  # a tournament stored before versions were: its bots are these versions
            store.set_bot_version(existing.id, row.name, row.version)
        store.update_tournament(
            existing.id, status=TournamentStatus.RUNNING, games_target=self.config.games, settings=self.config.to_dict()
        )
        self.resumed = True
        return existing.id, True

    def _resumable(self, store: Store, key: str, rows: Sequence[BotRow]) -> TournamentRow | None:
        """The newest tournament of these settings whose bots are these versions; when the latest
        one's are not, why (:meth:`warnings`: a new tournament starts, the old one keeps its games)."""
        same = [t for t in reversed(store.tournaments()) if t.key == key]
        for i, row in enumerate(same):
            changed = self._other_versions(store, row.id, rows)
            if not changed:
                return row
            if i == 0:
                self._changed = (
                    f"{'; '.join(changed)}: tournament {row.id} keeps its games, and a new tournament starts for "
                    "these versions"
                )
        return None

    def _other_versions(self, store: Store, tid: int, rows: Sequence[BotRow]) -> list[str]:
        """How the bots of tournament ``tid`` differ from ``rows``: ``bot 'v2' is v2@2 (tournament 3
        played v2@1)``; empty when they are the same versions."""
        stored = {b.name: b for b in store.bots(tid)}
        out = []
        for row in rows:
            old = stored.get(row.name)
            if old is None:
                continue
            if old.version is not None and row.version is not None:
                if old.version == row.version:
                    continue
                then, now = store.version(old.version), self.versions[row.name]
                played = then.name + f"@{then.number}" if then is not None else "another version"
                out.append(
                    f"bot {row.name!r} is {now.label} (tournament {tid} played {played}: its code, or the data its "
                    "config lists under data:, changed)"
                )
            elif not same_bot(old, row, self.sources.get(row.name) or self.specs[row.name], self.arena_files(store)):
                out.append(
                    f"bot {row.name!r} changed since tournament {tid} started (source hash {old.source_hash} -> "
                    f"{row.source_hash}: its code, or the data its config lists under data:)"
                )
        return out

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
        notes = [*self.given_warnings, self.sandbox_note, self.limits_note, self._changed]
        return [n for n in notes if n] + self._left_out + ([self.change.describe()] if self.change is not None else [])

    def notes(self) -> list[str]:
        """What a resume checks of the bots (their code and declared data), and the files named
        on their command lines, which it does not."""
        named = f" ({'; '.join(self._unchecked)})" if self._unchecked else ""
        if self.resumed:
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
        return Plan(done, done + self._dispatcher.remaining(), tuple(self.warnings()), tuple(self.notes()), self.config)

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
        pairs = [t for t in self.trackers if isinstance(t, ComparisonTracker)]
        return max(pairs, key=lambda t: len(t.legs)).stats() if pairs else None

    def ended(self) -> str:
        return "every game of the schedule is played"


def tournament_setup(
    scheduler: TournamentScheduler, store: Store, executor: Callable[[int], Executor] | None = None
) -> RunSetup:
    """How ``scheduler``'s tournament is played into ``store``: its match options, workers,
    replays and failures allowed, on ``executor`` (default: worker processes here)."""
    config = scheduler.config
    return RunSetup(
        game=config.game,
        options=config.match_options(db=store.path),
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
    warnings: Sequence[str] = (),
) -> RunResult:
    """Play ``config`` into ``store`` (resume it, unless ``new``) on ``executor``, starting by
    saying ``warnings``."""
    scheduler = TournamentScheduler(config, new=new, on_event=on_event, warnings=warnings)
    return Runner(scheduler, store, tournament_setup(scheduler, store, executor), on_event).run()
