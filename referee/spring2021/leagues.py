"""The three rule sets of Spring Challenge 2021, one per league level (``Game.init``'s switch).

CodinGame played level 1 in Wood 2, level 2 in Wood 1 and level 3 from Bronze to Legend. The lower
levels take things away from the full game; everything not listed here (costs, scoring, dormancy,
nutrients, the frame cycle, the random shuffles of the possible actions) is the same at every level:

========================  ===================  ===================  ======================
                          level 1 (Wood 2)     level 2 (Wood 1)     level 3 (Bronze+)
========================  ===================  ===================  ======================
days                      1                    6                    ``MAX_ROUNDS`` (24)
holes in the map          none, no draw        none, no draw        ``MAX_EMPTY_CELLS``
shadows                   never                never                yes
starting trees            6 each, tall         4 each, small        2 each, small
placed on                 any cell but the     any cell but the     the outer ring
                          centre               centre
more than ... apart       0                    1                    2
actions offered/accepted  COMPLETE, WAIT       GROW, COMPLETE,      SEED, GROW, COMPLETE,
                                               WAIT                 WAIT
========================  ===================  ===================  ======================

A command a level does not have is not even parsed: ``GROW 3`` in level 1 is invalid input, and
the invalid-input message names what the level expects (:attr:`League.expected`). The summaries of
every level count days with the ``MAX_ROUNDS`` parameter, whatever the level's own number. See
``docs/spring2021-rules.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..javarandom import JavaRandom
from .actions import Action, expected_text, parser_for
from .board import RICHNESS_NULL, Board
from .state import SMALL, TALL

__all__ = ["League", "LEAGUES", "LEAGUE_NAMES", "TOP_LEAGUE", "starting_cells", "has_room", "room_without_holes"]


@dataclass(frozen=True, slots=True)
class League:
    """What one league level plays."""

    level: int
    days: int | None
    """The number of days; ``None``: the ``MAX_ROUNDS`` parameter."""
    grow: bool
    """GROW is offered and parsed."""
    seed: bool
    """SEED is offered and parsed."""
    shadows: bool
    """Trees cast shadows (else every tree but a seed gives its size in sun every day)."""
    holes: bool
    """The map generator draws unusable cells (``MAX_EMPTY_CELLS``); else it draws nothing."""
    starting_trees: int
    """Starting trees per player."""
    starting_size: int
    on_edges: bool
    """Starting trees on the outer ring; else on any cell but the centre."""
    starting_distance: int
    """Once a starting cell is picked, every candidate within this distance of it or of its
    mirror cell is dropped."""

    @property
    def parse(self) -> Callable[[str], Action]:
        """The level's command parser (:func:`.actions.parser_for`)."""
        return parser_for(self.grow, self.seed)

    @property
    def expected(self) -> str:
        """What an invalid-input message says the level expects."""
        return expected_text(self.grow, self.seed)


LEAGUES: dict[int, League] = {
    1: League(
        1,
        days=1,
        grow=False,
        seed=False,
        shadows=False,
        holes=False,
        starting_trees=6,
        starting_size=TALL,
        on_edges=False,
        starting_distance=0,
    ),
    2: League(
        2,
        days=6,
        grow=True,
        seed=False,
        shadows=False,
        holes=False,
        starting_trees=4,
        starting_size=SMALL,
        on_edges=False,
        starting_distance=1,
    ),
    3: League(
        3,
        days=None,
        grow=True,
        seed=True,
        shadows=True,
        holes=True,
        starting_trees=2,
        starting_size=SMALL,
        on_edges=True,
        starting_distance=2,
    ),
}
TOP_LEAGUE = 3

LEAGUE_NAMES: dict[str, int] = {"wood 2": 1, "wood 1": 2, "bronze": 3, "silver": 3, "gold": 3, "legend": 3}
"""CodinGame's leagues of the contest and the level each played."""


_CHECK_ROOM_AFTER = 100
"""Failed tries of the starting cells after which :func:`starting_cells` checks that a try can
succeed at all (a feasible board almost always succeeds in the first few)."""


def _candidates(board: Board, league: League) -> list[int]:
    cells = board.edge_cells() if league.on_edges else range(1, board.size)  # cell 0 is the centre
    return [c for c in cells if board.richness[c] != RICHNESS_NULL]


def starting_cells(board: Board, league: League, random: JavaRandom) -> list[int]:
    """``Game.initStartingTrees``: the starting trees' cells, player 0's and player 1's in turn.

    One try copies the candidates (outer ring or every cell but the centre, holes left out) and,
    ``starting_trees`` times, draws one of those left, takes it and its mirror cell and drops every
    candidate within ``starting_distance`` of either; a try that runs out of candidates is made
    again from the start, drawing on. Where no try can succeed the official referee tries forever:
    here :class:`ValueError`.
    """
    candidates = _candidates(board, league)
    dist, gap, pairs = board.dist, league.starting_distance, league.starting_trees
    failed = 0
    while True:
        available = list(candidates)
        chosen: list[int] = []
        for _ in range(pairs):
            if not available:
                break
            normal = available[random.next_int(len(available))]
            opposite = board.opposite(normal)
            available = [c for c in available if dist[c][normal] > gap and dist[c][opposite] > gap]
            chosen += [normal, opposite]
        if len(chosen) >= 2 * pairs:
            return chosen
        failed += 1
        if failed == _CHECK_ROOM_AFTER and not has_room(board, candidates, pairs, gap):
            raise ValueError("these game parameters leave no room for the starting trees")


def has_room(board: Board, candidates: Sequence[int], pairs: int, gap: int) -> bool:
    """Whether some sequence of draws places ``pairs`` mirror pairs among ``candidates`` (a search
    over every choice, as :func:`starting_cells` would draw them)."""
    if pairs == 0:
        return True
    dist = board.dist
    for normal in candidates:
        opposite = board.opposite(normal)
        rest = [c for c in candidates if dist[c][normal] > gap and dist[c][opposite] > gap]
        if has_room(board, rest, pairs - 1, gap):
            return True
    return False


@cache
def room_without_holes(rings: int, level: int) -> bool:
    """Whether the map of ``rings`` rings without holes has room for the starting trees of a
    league level (the lower leagues make no holes, so this decides for every seed)."""
    league = LEAGUES[level]
    board = Board.standard(rings)
    return has_room(board, _candidates(board, league), league.starting_trees, league.starting_distance)
