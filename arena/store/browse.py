"""Finding what tournaments stored: the tournaments of a results database, the games of one (by
bot, result and status), one game by its id. What ``arena tournaments`` and ``arena matches``
show; every database is opened read-only, and every failure is one line
(:class:`arena.store.results.StoreError`, or :class:`UnknownBot` for a filter naming a bot the
tournament does not have)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.suggest import did_you_mean

from ..errors import ArenaError
from .records import GameRecord, PlayerRecord, TournamentRow
from .results import Store, StoreError

__all__ = [
    "RESULTS",
    "STATUSES",
    "UnknownBot",
    "GameFilter",
    "GameList",
    "result_of",
    "find_games",
    "find_game",
    "stored_game",
    "tournaments",
    "find_tournament",
]

RESULTS = ("win", "loss", "draw")
"""A game's result from one player's side."""
STATUSES = ("ok", "timeout", "crash", "invalid", "memory", "eliminated")
"""How a player's match can end (:class:`arena.match.Verdict` values)."""


class UnknownBot(ArenaError, ValueError):
    """A filter names a bot the tournament does not have (the message lists its bots)."""


@dataclass(frozen=True)
class GameFilter:
    """Which games: those ``bot`` played (``None``: all), with ``result`` from its side (only with
    a bot), where a player (``bot``, if given) ended with ``status``."""

    bot: str | None = None
    result: str | None = None
    status: str | None = None

    def __post_init__(self) -> None:
        if self.result is not None and self.bot is None:
            raise ValueError("a result is a bot's result: name the bot too")

    def wants(self, game: GameRecord) -> bool:
        players = [p for p in game.players if self.bot is None or p.bot == self.bot]
        if not players:
            return False
        if self.status is not None and not any(p.status == self.status for p in players):
            return False
        return self.result is None or any(result_of(game, p) == self.result for p in players)


@dataclass(frozen=True)
class GameList:
    """The games of a tournament a filter chose, by id, and how many it has in all."""

    tournament: TournamentRow
    games: tuple[GameRecord, ...]
    total: int


def result_of(game: GameRecord, player: PlayerRecord) -> str:
    """``win``, ``loss`` or ``draw``: how ``game`` went for ``player`` (a shared first place is a
    draw)."""
    if player.rank > 0:
        return "loss"
    return "draw" if sum(p.rank == 0 for p in game.players) > 1 else "win"


def find_games(db: str | Path, tid: int | None = None, which: GameFilter = GameFilter()) -> GameList:
    """The games of tournament ``tid`` (default: the latest) of ``db`` that ``which`` wants."""
    with Store(db, read_only=True) as store:
        row = find_tournament(store, tid)
        names = {b.name for b in store.bots(row.id)}
        if which.bot is not None and which.bot not in names:
            hint = did_you_mean(which.bot, sorted(names))
            raise UnknownBot(f"no bot {which.bot!r} in tournament {row.id} (bots: {', '.join(sorted(names))}){hint}")
        games = store.games(row.id)
    chosen = tuple(g for g in sorted(games, key=lambda g: g.id or 0) if which.wants(g))
    return GameList(row, chosen, len(games))


def find_game(db: str | Path, game_id: int) -> tuple[TournamentRow, GameRecord]:
    """The stored game ``game_id`` of ``db`` and its tournament."""
    with Store(db, read_only=True) as store:
        return stored_game(store, game_id)


def stored_game(store: Store, game_id: int) -> tuple[TournamentRow, GameRecord]:
    """The stored game ``game_id`` of the open ``store`` and its tournament; :class:`StoreError`
    (one line) when there is none."""
    found = store.game(game_id)
    if found is None:
        raise StoreError(f"{store.path}: no game {game_id} (arena matches list shows the ids)")
    tid, game = found
    row = store.tournament(tid)
    assert row is not None
    return row, game


def tournaments(db: str | Path) -> list[tuple[TournamentRow, int, tuple[str, ...]]]:
    """Every tournament (and ladder) of ``db`` with its games stored and its bots' names, in id
    order."""
    with Store(db, read_only=True) as store:
        return [(t, store.count_games(t.id), tuple(b.name for b in store.bots(t.id))) for t in store.tournaments()]


def find_tournament(store: Store, tid: int | None, *, ladders: bool = True) -> TournamentRow:
    """The tournament ``tid``, or the latest one; without ``ladders``, never a ladder (``arena
    ladder``'s rows: their settings say ``kind: ladder``)."""
    if tid is None and not ladders:
        row = next((t for t in reversed(store.tournaments()) if t.settings.get("kind") != "ladder"), None)
    else:
        row = store.latest() if tid is None else store.tournament(tid)
    if row is not None and not ladders and row.settings.get("kind") == "ladder":
        raise StoreError(
            f"{store.path}: {row.id} is a ladder, not a tournament: see arena ladder show --ladder {row.id}"
        )
    if row is None:
        if tid is None:
            raise StoreError(f"{store.path}: no tournament in this database yet")
        known = ", ".join(str(t.id) for t in store.tournaments()) or "none"
        raise StoreError(f"{store.path}: no tournament {tid} (tournaments: {known})")
    return row
