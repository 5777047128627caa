"""A ladder as the results database holds it: a row of ``tournaments`` whose settings say
``kind: ladder`` (:mod:`.settings`), its bots in ``bots`` (with their state and their frozen
version), a comparison per two bots that have met (made when they first meet; the older bot first),
its games in ``games`` like any tournament's, and why each pair of games was chosen in ``picks``.

So ``arena matches list --tournament ID`` (or ``--ladder ID``), ``arena matches show`` and ``arena
view`` find a ladder's games as they find a tournament's, and the store's guarantees hold: each
game is written in its own transaction, once per (comparison, pair, leg)."""

from __future__ import annotations

from dataclasses import dataclass, field

import referee
from referee.suggest import did_you_mean

from ..store.records import BotRow, BotState, ComparisonRow, TournamentRow
from ..store.results import Store
from ..versions.provenance import referee_version
from .errors import LadderError
from .settings import KIND, LadderSettings, is_ladder

__all__ = ["Ladder", "create_ladder", "find_ladder", "ladders", "title"]


@dataclass
class Ladder:
    """A stored ladder: its row, settings, bots (in the order they joined) and comparisons."""

    row: TournamentRow
    settings: LadderSettings
    bots: list[BotRow]
    comparisons: list[ComparisonRow] = field(default_factory=list)

    @property
    def id(self) -> int:
        return self.row.id

    def bot(self, name: str) -> BotRow | None:
        return next((b for b in self.bots if b.name == name), None)

    def named(self, name: str) -> BotRow:
        """The bot ``name``; :class:`LadderError` listing the bots when there is none."""
        found = self.bot(name)
        if found is None:
            known = ", ".join(b.name for b in self.bots) or "none yet"
            hint = did_you_mean(name, [b.name for b in self.bots])
            raise LadderError(f"ladder {self.id} has no bot {name!r} (bots: {known}){hint}")
        return found

    def in_state(self, *states: BotState) -> list[BotRow]:
        wanted = {s.value for s in states}
        return [b for b in self.bots if b.state in wanted]

    def comparison(self, store: Store, group: tuple[str, ...]) -> ComparisonRow:
        """The comparison of these bots (in any order), made (and stored) the first time they meet:
        its bots in the order they joined the ladder."""
        found = next((c for c in self.comparisons if frozenset(c.bots) == frozenset(group)), None)
        if found is not None:
            return found
        joined = {b.name: i for i, b in enumerate(self.bots)}
        bots = tuple(sorted(group, key=lambda name: joined[name]))
        made = ComparisonRow(len(self.comparisons), bots)
        store.add_comparison(self.id, made.index, made.bots)
        self.comparisons.append(made)
        return made

    def reload(self, store: Store) -> None:
        """Read its bots and comparisons again (``add``, ``retire``, ``remove`` may have changed
        them while a run plays)."""
        self.bots = store.bots(self.id)
        self.comparisons = store.comparisons(self.id)


def ladders(store: Store) -> list[TournamentRow]:
    """The ladders of the database, in id order."""
    return [row for row in store.tournaments() if is_ladder(row.settings)]


def find_ladder(store: Store, lid: int | None = None) -> Ladder:
    """Ladder ``lid`` (default: the latest ladder of the database); :class:`LadderError` when
    there is none, or ``lid`` is a tournament."""
    if lid is None:
        found = ladders(store)
        if not found:
            raise LadderError(f"{store.path}: no ladder in this database yet; make one with: arena ladder init GAME")
        row = found[-1]
    else:
        got = store.tournament(lid)
        if got is None or not is_ladder(got.settings):
            known = ", ".join(str(r.id) for r in ladders(store)) or "none"
            what = "a tournament, not a ladder" if got is not None else "not there"
            raise LadderError(f"{store.path}: ladder {lid} is {what} (ladders: {known})")
        row = got
    return Ladder(row, LadderSettings.from_dict(row.settings), store.bots(row.id), store.comparisons(row.id))


def create_ladder(store: Store, settings: LadderSettings) -> Ladder:
    """A new, empty ladder with these settings (and the referee's version of now)."""
    version = referee_version(settings.game)
    tid = store.create_tournament(KIND, settings.to_dict(), 0, version, [], [])
    row = store.tournament(tid)
    assert row is not None
    return Ladder(row, settings, [], [])


def title(ladder: Ladder) -> str:
    """``ladder 1 (spring2021, league 2 (Wood 1))``."""
    rules = referee.get(ladder.settings.game)
    league = rules.league_label(ladder.settings.league or rules.top_league)
    return f"ladder {ladder.id} ({ladder.settings.game}, {league})"
