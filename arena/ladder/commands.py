"""The ladder commands as library functions: :func:`init_ladder`, :func:`add_bot`,
:func:`run_ladder`, :func:`show_ladder` (and :func:`rating_history`, its ratings over the
games), :func:`set_state` (retire, remove) and :func:`rename_bot`. They never print; every
failure is an :class:`arena.errors.ArenaError` (one line: a :class:`LadderError`, or the error of
the layer that failed, a database that cannot be used say) raised before anything is written.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import referee

from .. import paths
from ..match import sandbox
from ..match.launch import botspec
from ..match.launch.botspec import BotSpec
from ..match.limits.refereetime import RefereeFailure
from ..match.loop import play_match
from ..runner.executor import connect
from ..runner.failures import FAILURES
from ..runner.runner import Runner, RunResult, RunSetup
from ..runner.task import ReplayPolicy
from ..settings import Workers
from ..standings.ranking import Played, Ranking, rank
from ..standings.ratings import RatingPoint
from ..standings.ratings import rating_history as _rating_history
from ..store.records import BotRow, BotState
from ..store.results import Store
from ..store.runlock import RunLock
from ..store.where import parse_where
from ..tournament.schedule import pair_seed
from ..versions.provenance import ArenaFiles, same_rules
from ..versions.reference import parse
from ..versions.registry import Version, origin_of
from ..versions.roster import Wanted, enter
from ..versions.snapshot import FreezeError, Frozen, store_for, strays, verify
from .errors import LadderError
from .scheduler import LadderScheduler
from .settings import LadderSettings, differences, read_settings
from .stored import Ladder, create_ladder, find_ladder, ladders, title

__all__ = [
    "init_ladder",
    "Added",
    "add_bot",
    "LadderOutcome",
    "run_ladder",
    "LadderView",
    "RecentPick",
    "show_ladder",
    "rating_history",
    "set_state",
    "rename_bot",
    "spec_of",
    "bot_specs",
]


def _store(db: str | Path, *, read_only: bool = False, create: bool = True) -> Store:
    if (read_only or not create) and not Path(db).is_file():
        raise LadderError(f"{db}: no results database here: make a ladder with arena ladder init GAME, or pass --db")
    return Store(db, read_only=read_only, create=create)


def init_ladder(db: str | Path, game: str, given: Mapping[str, Any], *, new: bool = False) -> Ladder:
    """Make a ladder of ``game`` in the results database ``db`` with the settings ``given``
    (``league``, ``params``, ``time_scale``, ``memory_limit_mb``, ``sandbox``, ``seed``: raw, as
    typed). A database holds one ladder unless ``new`` asks for another."""
    settings = read_settings(game, given)
    sandbox.decide(settings.sandbox)
    if (reason := paths.unusable(str(db))) is not None:
        raise LadderError(f"--db {db}: {reason}")
    with _store(db) as store:
        existing = ladders(store)
        if existing and not new:
            raise LadderError(
                f"{db} already holds ladder {existing[-1].id} ({existing[-1].settings.get('game')}): add bots to "
                "it (arena ladder add NAME BOT), or pass --new to make another ladder in this database"
            )
        return create_ladder(store, settings)


@dataclass(frozen=True)
class Added:
    """A bot registered: its ladder, its version, what is worth knowing about it."""

    ladder: Ladder
    name: str
    version: Version
    notes: tuple[str, ...]
    same_as: tuple[str, ...] = ()
    """Bots of the ladder registered with this very version."""
    warning: str | None = None
    """Why it is not frozen (a command kept as given), in one line."""


def spec_of(db: str | Path) -> Callable[[str, dict[str, Any]], BotSpec]:
    """How a ladder bot of ``db`` starts: from its frozen version's stored form."""
    store = store_for(db)

    def spec(name: str, frozen: dict[str, Any]) -> BotSpec:
        return Frozen.from_dict(frozen, name, store).spec

    return spec


def _check_name(ladder: Ladder, name: str) -> None:
    base, at, number = name.partition("@")  # a version's label (mybot@2) names a bot too
    if not botspec.is_bot_name(base) or (at and not number.isalnum()):
        raise LadderError(f"{name!r} cannot name a bot: use letters, digits and _.#+- only (or a version: NAME@N)")
    old = ladder.bot(name)
    if old is not None:
        what = "a removed bot (its games are kept)" if old.state == BotState.REMOVED.value else "a bot"
        raise LadderError(
            f"ladder {ladder.id} already has {what} named {name!r}: give the new version another name (v2, "
            f"{name}-2...), or rename the old one first (arena ladder rename {name} OLDNAME)"
        )


def _smoke(name: str, spec: BotSpec, settings: LadderSettings, db: str | Path) -> None:
    """A self-play game of the frozen bot on the ladder's first map: refused when it fails."""
    seats = referee.get(settings.game).player_count
    specs = [dataclasses.replace(spec, name=name if i == 0 else f"{name}#{i + 1}") for i in range(seats)]
    seed = pair_seed(settings.seed, 0)
    try:
        result = play_match(settings.game, seed, specs, settings.match_options(db=db))
    except RefereeFailure as exc:
        raise LadderError(f"bot {name!r}: its self-play game could not be played: {exc}") from None
    if result.interrupted:
        raise KeyboardInterrupt
    for player in result.players:
        if player.verdict.value in FAILURES:
            why = player.verdict.value + (f" ({player.message})" if player.message else "")
            tail = player.stderr_tail.strip().splitlines()
            said = f"; its stderr ends: {tail[-1][:200]}" if tail else ""
            raise LadderError(
                f"bot {name!r} is not added: in a self-play game (seed {seed}) its player {player.index} ended with "
                f"{why}{said}; try it with: arena play {settings.game} BOT BOT --seed {seed}"
            )


def add_bot(
    db: str | Path,
    name: str | None,
    bot: str,
    *,
    data: Sequence[str] = (),
    ladder_id: int | None = None,
    smoke: bool = True,
) -> Added:
    """Register ``bot`` as ``name`` on ladder ``ladder_id`` (the latest one): a BOT argument as
    ``arena play`` takes it (relative paths from the working directory), frozen and recorded as a
    version (:mod:`arena.versions.roster`), or a stored version it names
    (``mybot@2``; ``name`` ``None``: named after it); it plays a self-play game first, refused if
    it fails (``smoke``)."""
    with _store(db, create=False) as store:
        ladder = find_ladder(store, ladder_id)
        settings = ladder.settings
        ref = parse(bot)
        if name is not None:
            _check_name(ladder, name)
        if ref is not None:
            wanted = Wanted(reference=ref, name=name)
        else:
            try:
                resolved = botspec.resolve(bot, settings.game)
            except botspec.BotSpecError as exc:
                raise LadderError(f"bot {name or bot!r}: {exc}") from None
            found = tuple(str(p) for p in paths.data_paths(data))
            spec = dataclasses.replace(resolved, name=name or resolved.name, data=found)
            wanted = Wanted(spec, name=name, origin=origin_of(bot))
        (entrant,) = enter(store, [wanted], ArenaFiles.of(db))
        if name is None:
            _check_name(ladder, entrant.name)
        refused = entrant.spec.league_refusal(settings.game, settings.league or referee.get(settings.game).top_league)
        if refused is not None:
            raise LadderError(refused)
        if smoke:
            _smoke(entrant.name, entrant.spec, settings, db)
        version = entrant.version
        files = tuple(str(f.get("name")) for f in version.frozen.get("files") or ())
        store.add_bot(
            ladder.id,
            BotRow(
                entrant.name, tuple(entrant.spec.argv), dict(entrant.spec.env), version.hash, files,
                state=BotState.ACTIVE.value, added=time.time(), frozen=version.frozen, version=version.id,
            ),
        )  # fmt: skip
        same = tuple(b.name for b in ladder.bots if b.source_hash == version.hash)
        ladder.reload(store)
        notes = tuple(n for n in entrant.notes if n != version.warning)
        return Added(ladder, entrant.name, version, notes, same, version.warning)


@dataclass(frozen=True)
class LadderOutcome:
    """A run of a ladder and its ranking after it."""

    run: RunResult
    ranking: Ranking


def run_ladder(
    db: str | Path,
    given: Mapping[str, Any],
    *,
    ladder_id: int | None = None,
    workers: Workers | None = None,
    games: int | None = None,
    until_confident: bool = False,
    bundle: Callable[[str], str] | None = None,
    on_event: Callable[[object], None] | None = None,
) -> LadderOutcome:
    """Play ladder ``ladder_id`` (the latest one of ``db``): see :mod:`.scheduler`. The settings
    ``given`` (as :func:`init_ladder` takes them, and the replays this run keeps: ``replays``,
    ``keep``) must be the ladder's: a difference is refused, named. Every active bot's frozen
    version is checked before the first game; ``workers`` says where games are played and how many
    at once (default: one, here; ``bundle``: how a Python bot travels to Dask workers)."""
    workers = workers or Workers(1)
    with _store(db, create=False) as store:
        ladder = find_ladder(store, ladder_id)
        asked = _check_run(ladder, given)
        settings = ladder.settings
        frozen = spec_of(db)

        def make_spec(name: str, version: dict[str, Any]) -> BotSpec:
            return botspec.with_run_options(frozen(name, version), settings.libs, settings.env)

        notes: list[str] = []
        specs = [make_spec(row.name, _checked(row, db, notes)) for row in ladder.in_state(BotState.ACTIVE)]
        factory, cluster = connect(workers.executor, workers.scheduler, workers.local_cluster, specs, bundle)
        try:
            plan = LadderScheduler(
                ladder, make_spec, games=games, until_confident=until_confident, on_event=on_event, warnings=notes
            )
            setup = RunSetup(
                settings.game, asked.match_options(db=db), ladder.row.referee_version, workers.count,
                ReplayPolicy.of(asked, candidate=-1), executor=factory,
            )  # fmt: skip
            run = Runner(plan, store, setup, on_event).run()
            return LadderOutcome(run, plan.ranking())
        finally:
            if cluster is not None:
                cluster.stop(interrupt=True)


def _check_run(ladder: Ladder, given: Mapping[str, Any]) -> LadderSettings:
    """The settings a run asks for: refused when they are not the ladder's, when it is played
    under another referee, or with fewer active bots than a game's seats."""
    asked = read_settings(ladder.settings.game, given, ladder.settings)
    changed = differences(ladder.settings, asked)
    if changed:
        raise LadderError(
            f"{title(ladder)} was made with {'; '.join(changed)}: a ladder's settings are fixed when it is "
            "made, so that all its games compare; run it without these options, or make another ladder "
            "(arena ladder init --new)"
        )
    if not same_rules(ladder.row.referee_version, ladder.settings.game):
        raise LadderError(
            f"the {ladder.settings.game} referee changed since {title(ladder)} was made "
            f"({ladder.row.referee_version}): its games would not compare; make a new ladder"
        )
    active = ladder.in_state(BotState.ACTIVE)
    players = referee.get(ladder.settings.game).player_count
    if len(active) < players:
        raise LadderError(
            f"{title(ladder)} has {len(active)} active bot{'' if len(active) == 1 else 's'}: a game needs "
            f"{players}; add bots with: arena ladder add NAME BOT"
        )
    return asked


def _checked(row: BotRow, db: str | Path, notes: list[str]) -> dict[str, Any]:
    """An active bot's frozen version, checked on disk before the first game (files found beside
    it are noted in ``notes``, and ignored)."""
    assert row.frozen is not None
    frozen = Frozen.from_dict(row.frozen, row.name, store_for(db))
    why = verify(frozen)
    if why is not None:
        raise LadderError(f"{why}, or retire it (arena ladder retire {row.name})")
    notes += [n for n in (strays(frozen),) if n]
    return row.frozen


@dataclass(frozen=True)
class RecentPick:
    """A pair of games the matchmaking chose, and why."""

    bots: tuple[str, ...]
    pair: int
    seed: int
    reason: str
    picked: float
    games: int
    """Its games stored (both seats: 2 in a two-player game)."""


@dataclass(frozen=True)
class LadderView:
    """What ``arena ladder show`` shows."""

    ladder: Ladder
    ranking: Ranking
    stored: int
    """Games stored (all of them, whichever count)."""
    shown: tuple[str, ...]
    """The bots shown (those with at least ``min_games`` counted games)."""
    picks: tuple[RecentPick, ...]
    where: tuple[str, ...]
    facts: tuple[str, ...]
    """The facts the stored games give (what ``--where`` can name)."""


def show_ladder(
    db: str | Path,
    *,
    ladder_id: int | None = None,
    min_games: int = 0,
    where: Sequence[str] = (),
    recent: int = 10,
) -> LadderView:
    """The ranking of ladder ``ladder_id`` (the latest of ``db``, opened read-only) over its games
    whose start matches ``where`` (:mod:`arena.store.where`), with the ``recent`` latest picks."""
    with _store(db, read_only=True) as store:
        ladder = find_ladder(store, ladder_id)
        records = store.games(ladder.id)
        picks = store.picks(ladder.id, recent)
    played = [Played.of(r) for r in records]
    facts = sorted({k for p in played for k in (p.meta or {})})
    conditions = parse_where(where, facts)
    ranked = [(b.name, b.state) for b in ladder.in_state(BotState.ACTIVE, BotState.RETIRED)]
    players = referee.get(ladder.settings.game).player_count
    bots_of = {c.index: c.bots for c in ladder.comparisons}
    ranking = rank(played, ranked, players=players, bots_of=bots_of, where=conditions)
    shown = tuple(b.name for b in ranking.bots if b.games >= min_games)
    done = Counter((p.comparison, p.pair) for p in played)
    recent_picks = tuple(
        RecentPick(
            bots_of.get(pick.comparison, ()),
            pick.pair,
            pair_seed(ladder.settings.seed, pick.pair),
            pick.reason,
            pick.picked,
            done[pick.comparison, pick.pair],
        )
        for pick in picks
    )
    return LadderView(
        ladder, ranking, len(records), shown, recent_picks, tuple(str(c) for c in conditions), tuple(facts)
    )


def rating_history(db: str | Path, ladder_id: int | None = None, points: int = 20) -> list[RatingPoint]:
    """The ratings of ladder ``ladder_id`` (the latest of ``db``, opened read-only) after each
    ``len(games) / points`` games, in the order they were stored
    (:func:`arena.standings.ratings.rating_history`)."""
    with _store(db, read_only=True) as store:
        ladder = find_ladder(store, ladder_id)
        records = sorted(store.games(ladder.id), key=lambda g: g.id or 0)
    return _rating_history(
        [Played.of(r) for r in records],
        [(b.name, b.state) for b in ladder.in_state(BotState.ACTIVE, BotState.RETIRED)],
        players=referee.get(ladder.settings.game).player_count,
        bots_of={c.index: c.bots for c in ladder.comparisons},
        points=points,
    )


def set_state(db: str | Path, name: str, state: BotState, *, ladder_id: int | None = None) -> Ladder:
    """Retire a bot (out of matchmaking, still ranked), remove it (out of the ranking; its games
    are kept), or make it active again."""
    with _store(db, create=False) as store:
        ladder = find_ladder(store, ladder_id)
        if ladder.named(name).state == state.value:
            raise LadderError(f"bot {name!r} of {title(ladder)} is {state.value} already")
        store.set_bot_state(ladder.id, name, state)
        ladder.reload(store)
        return ladder


def rename_bot(db: str | Path, old: str, new: str, *, ladder_id: int | None = None) -> Ladder:
    """Rename a bot everywhere in its ladder (its games included). Refused while a run plays it."""
    with _store(db, create=False) as store:
        try:
            ladder = find_ladder(store, ladder_id)
            ladder.named(old)
            _check_name(ladder, new)
            with RunLock(store.path) as lock:  # no run may store a game under the old name meanwhile
                with lock.choosing():
                    if not lock.acquire(ladder.id):
                        raise LadderError(
                            f"{title(ladder)} is being run now: stop that run (Ctrl-C), rename, then run it again"
                        )
                store.rename_bot(ladder.id, old, new)
            ladder.reload(store)
            return ladder
        except OSError as exc:
            raise LadderError(f"{store.path}: cannot lock the ladder ({exc.strerror or exc})") from None


def bot_specs(db: str | Path, ladder_id: int) -> dict[str, BotSpec]:
    """How each bot of ladder ``ladder_id`` starts (its frozen version; the command stored with it
    when its snapshot is gone), by name: to play one of its games again."""
    with _store(db, read_only=True) as store:
        ladder = find_ladder(store, ladder_id)
    snapshots = store_for(db)
    out = {}
    for row in ladder.bots:
        out[row.name] = BotSpec(name=row.name, argv=row.command, env=row.env)
        for where in (snapshots, None):  # as it plays now; else as it was frozen
            try:
                out[row.name] = Frozen.from_dict(row.frozen or {}, row.name, where).spec
                break
            except FreezeError:
                continue
    return out
