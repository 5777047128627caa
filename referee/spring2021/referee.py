"""The Spring Challenge 2021 referee: the official frame machine on top of :mod:`.rules`.

Each engine turn is one frame: GATHERING (sun income; nobody is executed), then ACTIONS frames
(every active player that is not asleep gets the state and answers with one action) until every
player is asleep, then SUN_MOVE (next day), and so on for 24 days. The ``league`` parameter picks
the rules of a league level (:mod:`.leagues`: 1 and 2 are the Wood leagues, 3 the full game and
the default); ``docs/spring2021-rules.md`` tells what is reproduced and from where.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from operator import itemgetter
from typing import Any, ClassVar

from ..base import LEAGUE, EndReason, ParameterError
from ..engine import EngineReferee
from ..javarandom import JavaRandom
from ..javatext import JAVA_INT_MAX, JAVA_INT_MIN, java_value_of
from . import rules
from .actions import Action
from .board import Board, geometry
from .leagues import LEAGUE_NAMES, LEAGUES, TOP_LEAGUE, League, room_without_holes, starting_cells
from .shuffle import shuffle_each
from .state import FrameType, SpringState

__all__ = ["Spring2021Referee", "PARAMETERS"]

# Game parameters (Config.java) and their defaults. STARTING_SUN and STARTING_NUTRIENTS_LUSH are
# read by the official referee after the players and the game were built, so they have no effect;
# the lower leagues fix their own number of days and make no holes (see _parse_params).
PARAMETERS: dict[str, int] = {
    "STARTING_SUN": 0,
    "MAP_RING_COUNT": 3,
    "STARTING_NUTRIENTS_LUSH": 20,
    "MAX_ROUNDS": 24,
    "MAX_EMPTY_CELLS": 10,
}
STARTING_SUN = 0
STARTING_NUTRIENTS = 20
MAP_RINGS = range(2, 7)
"""The ring counts played here: with fewer the official referee never finishes placing the
starting trees; more are not supported."""

_KNOWN_ACTIONS: dict[Callable[[str], Action], dict[str, Action]] = {}
"""By parser (one per league's set of commands): answer lines that parsed to an action without a
message (see ``EngineReferee._parse_known``; actions are immutable and the same lines come back
game after game)."""

# The frame types as plain globals: attribute look-ups on an Enum class are slow in Python 3.11.
_GATHERING, _ACTIONS, _SUN_MOVE = FrameType.GATHERING, FrameType.ACTIONS, FrameType.SUN_MOVE

# Summary lines made for every ACTIONS frame: _GROWING[player][cell], _WAITING[player].
_GROWING = [[f"${p} is growing a tree on cell {c}" for c in range(200)] for p in range(2)]
_WAITING = [f"${p} is waiting" for p in range(2)]

# Input lines for one tree as players 0 and 1 see it: _TREE_LINES[cell][size][owner][dormant]
# (a tree's owner is 0 or 1; a player's line says 1 when the tree is theirs); _PICK[player] takes
# the player's line of the pair.
_TREE_LINES = [
    [[[(f"{c} {s} {1 - o} {d}", f"{c} {s} {o} {d}") for d in (0, 1)] for o in (0, 1)] for s in range(4)]
    for c in range(200)
]
_PICK = (itemgetter(0), itemgetter(1))


_Board = tuple[
    int,
    int,
    list[int],
    list[int],
    list[bool],
    list[int],
    list[int],
    list[bool],
    list[int],
    list[tuple[tuple[str, str, str], list[tuple[str, str]], tuple[str, str]]],
]
"""A copy of what the input lines show: day, nutrients, sun, score, waiting, size, owner, dormant,
and the cells with a tree, ascending; then an empty list where the first player to read the lines
leaves what both players' lines share: the day, nutrients and tree count lines, the trees' lines
for both players (pairs, by tree), and each player's ``sun score`` (its own line, and the start of
its opponent's)."""


def _format_frame(player: int, board: _Board, offered: list[str]) -> tuple[str, ...]:
    """The input lines of one ACTIONS frame for ``player`` (see ``Spring2021Referee._begin_turn``)."""
    day, nutrients, sun, score, waiting, size, owner, dormant, cells, made = board
    if not made:  # the first player to read: what both players' lines share
        # One pass over the trees; the tables are handed to the comprehension as its own local
        # names (through the one-item tuple it starts from): names of the function around it
        # would be read through cells, more slowly.
        pairs = [
            t[c][s[c]][o[c]][d[c]] for t, s, o, d, trees in ((_TREE_LINES, size, owner, dormant, cells),) for c in trees
        ]
        suns = (f"{sun[0]} {score[0]}", f"{sun[1]} {score[1]}")
        made.append(((str(day), str(nutrients), str(len(cells))), pairs, suns))
    (day_line, nutrients_line, count_line), pairs, suns = made[0]
    other = 1 - player
    return (
        day_line,
        nutrients_line,
        suns[player],
        suns[other] + (" 1" if waiting[other] else " 0"),
        count_line,
        *map(_PICK[player], pairs),
        str(len(offered)),
        *offered,
    )


def _parse_params(params: Mapping[str, Any] | None, league: League) -> dict[str, int]:
    """The game parameters as ``Config.load`` reads them: each value through ``Integer.valueOf``,
    and one it cannot read leaves the default (the official referee ignores it without a word).
    Unknown names are refused (the official ignores them too, but here they are typing errors),
    and so are values with which the official referee would never start the game."""
    values = dict(PARAMETERS)
    for key, raw in (params or {}).items():
        if key in ("seed", LEAGUE):
            continue
        if key not in PARAMETERS:
            known = ", ".join(PARAMETERS)
            raise ParameterError(f"unknown spring2021 parameter {key!r}; known: {known}")
        value = java_value_of(str(raw))
        if value is not None:
            values[key] = value
    rings = values["MAP_RING_COUNT"]
    if rings not in MAP_RINGS:
        raise ParameterError(
            f"spring2021 parameter MAP_RING_COUNT must be between {MAP_RINGS[0]} and {MAP_RINGS[-1]}, got {rings}"
        )
    if not league.holes and not room_without_holes(rings, league.level):  # the official tries forever
        raise ParameterError(
            f"spring2021 league {league.level} has no room for its starting trees on a map of MAP_RING_COUNT {rings}"
        )
    if league.holes:  # the lower leagues never read MAX_EMPTY_CELLS
        empty = values["MAX_EMPTY_CELLS"]
        if empty < 0:  # Random.nextInt(MAX_EMPTY_CELLS + 1) throws: the game is never set up
            raise ParameterError("spring2021 parameter MAX_EMPTY_CELLS must be at least 0")
        cells = geometry(rings).size
        if empty > cells:  # the map generator would look forever for more holes than cells
            raise ParameterError(
                f"spring2021 parameter MAX_EMPTY_CELLS must be at most {cells}: the map of MAP_RING_COUNT "
                f"{rings} has {cells} cells"
            )
    return values


class Spring2021Referee(EngineReferee):
    """Spring Challenge 2021 ("Photosynthesis"), at any of its three league levels (the ``league``
    parameter: ``1`` or ``wood 2``, ``2`` or ``wood 1``, ``3`` or ``bronze`` and above, the default).
    ``league`` is the level played, ``league_play`` its :class:`.leagues.League`."""

    name = "spring2021"
    aliases = ("photosynthesis",)
    title = "Spring Challenge 2021"
    first_turn_time_ms = 1000
    turn_time_ms = 100
    max_turns = 1 << 62  # the referee raises the engine's limit every turn

    top_league = TOP_LEAGUE
    league_names = LEAGUE_NAMES
    league_rules: ClassVar[Mapping[int, str]] = {
        1: "one day, six tall trees each anywhere but the centre, no holes, no shadows; COMPLETE and WAIT only",
        2: "six days, four small trees each anywhere but the centre, no holes, no shadows; no SEED",
    }

    def __init__(self, seed: int, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(seed)
        league = LEAGUES[self.league_level(params)]
        self.league = league.level
        self.league_play = league
        self.params = _parse_params(params, league)
        self._parse = league.parse
        self._known = _KNOWN_ACTIONS.setdefault(self._parse, {})
        self._possible = (
            rules.possible_actions
            if league.grow and league.seed
            else partial(rules.league_actions, grow=league.grow, seed=league.seed)
        )
        self._random = JavaRandom(self.seed)
        rings = self.params["MAP_RING_COUNT"]
        if league.holes:
            board = Board.generate(self._random, rings, self.params["MAX_EMPTY_CELLS"])
        else:  # no draw at all: the random sequence starts with the starting trees
            board = Board.standard(rings)
        state = SpringState.empty(board)
        state.max_rounds = self.params["MAX_ROUNDS"] if league.days is None else league.days
        state.nutrients = STARTING_NUTRIENTS
        state.sun = [STARTING_SUN, STARTING_SUN]
        self.state = state
        self.scores = state.score  # the engine's scores are the game's scores
        self._place_starting_trees()
        self._census: rules.Census | None = None  # the trees as last counted or kept up to date
        self._census_size: list[int] = []  # the sizes it counted
        self._census_owner: list[int] = []  # and the owners
        if league.shadows:
            rules.compute_shadows(state, self._frame_census())
        self.frame = _GATHERING  # type of the frame being played
        self._next_frame = _GATHERING
        self._actions_offered: dict[int, list[str]] = {}
        self._tree_bonus = [0, 0]
        # The summary lines count days with the parameter (Config.MAX_ROUNDS), which the lower
        # leagues do not play by: league 1 shows "Round 0/23" and announces a day 1 that never comes.
        self._config_rounds = config_rounds = self.params["MAX_ROUNDS"]
        self._last_day = config_rounds - 1 if config_rounds != JAVA_INT_MIN else JAVA_INT_MAX  # Java int arithmetic
        self._round: tuple[int, str] = (-1, "")  # day, its summary line
        for p in range(self.player_count):
            self._send(p, board.global_info_lines)  # the board never changes: formatted if read

    # -- set-up ----------------------------------------------------------------------------------

    def _place_starting_trees(self) -> None:
        """Game.initStartingTrees (:func:`.leagues.starting_cells`)."""
        league = self.league_play
        try:
            cells = starting_cells(self.state.board, league, self._random)
        except ValueError as exc:
            raise ParameterError(str(exc)) from None
        for i, cell in enumerate(cells):
            self.state.size[cell] = league.starting_size
            self.state.owner[cell] = i % 2
            self.state.dormant[cell] = False

    # -- engine hooks ----------------------------------------------------------------------------

    def _begin_turn(self) -> list[int]:
        self.frame = frame = self._next_frame
        self._frame_phase = frame._value_  # the report's phase (``.value`` is a Python-level property)
        if frame is not _ACTIONS:
            return []
        state = self.state
        active, waiting = self.active, state.waiting
        players = []
        if active[0] and not waiting[0]:  # the two players, written out (player_count is 2)
            players.append(0)
        if active[1] and not waiting[1]:
            players.append(1)
        self._actions_offered = offers = {}
        if players:
            known = self._census  # self._frame_census(), written out
            if known is None or state.size != self._census_size or state.owner != self._census_owner:
                known = self._frame_census()
            # One copy of the board for the input lines of both players (made only if read); the
            # sizes and owners the census was checked against are such a copy already, and the
            # census lists the tree cells.
            size, owner = self._census_size, self._census_owner
            board: _Board = (
                state.day,
                state.nutrients,
                state.sun[:],
                state.score[:],
                waiting[:],
                size,
                owner,
                state.dormant[:],
                known.cells[:],
                [],
            )
            # Game.getCurrentFrameInfoFor, for each player: state lines then the shuffled possible
            # actions. The actions are listed and shuffled now (the shuffles draw from the game's
            # random); the lines are formatted from ``board`` only if they are read. (Written out
            # here, as self._send is: one call less per player.)
            pending, possible, random = self._pending, self._possible, self._random
            for p in players:
                completes, grows, seeds = possible(state, p, known)
                shuffle_each((completes, grows, seeds), random)
                offered = offers[p] = ["WAIT", *completes, *grows, *seeds]
                pending[p].append(partial(_format_frame, p, board, offered))
        return players

    def _resolve(self, outputs: dict[int, tuple[str, ...] | None]) -> None:
        state = self.state
        frame = self.frame
        say = self._summary.append  # self._say, without a call of a Python method per line
        if frame is _GATHERING:
            say(self._round_line())
            given = rules.gather(state, self._frame_census())
            for p, g in enumerate(given):
                if g > 0:
                    say(f"${p} has collected {g} sun points")
            self._next_frame = _ACTIONS
        elif frame is _ACTIONS:
            actions = self._parse_known(outputs, self._parse, True, self._known)
            round_line = self._round
            say(round_line[1] if round_line[0] == state.day else self._round_line())
            # self._frame_census() and self._keep_census(), written out (one call less each).
            known = self._census
            if known is None or state.size != self._census_size or state.owner != self._census_owner:
                known = rules.census(state)
            result = rules.resolve_actions(state, actions, known)  # brings the census up to date
            self._census = known
            self._census_size = state.size[:]
            self._census_owner = state.owner[:]
            self._report_actions(result)
            if all(state.waiting):
                self._next_frame = _SUN_MOVE
        else:
            say(f"Round {state.day} ends")
            if state.day + 1 < self._config_rounds:
                say(f"The sun is now pointing towards direction {(state.day + 1) % 6}")
                say(f"Round {state.day + 1} starts")
            rules.sun_move(state, self._frame_census(), self.league_play.shadows)
            self._next_frame = _GATHERING

        if self.active.count(True) <= 1:
            self._end_game(EndReason.PLAYER_DEACTIVATED)
        elif state.day >= state.max_rounds:
            self._end_game(EndReason.MAX_ROUNDS)

    def _frame_census(self) -> rules.Census:
        """The trees of the state as it is: the census kept from the last frame, brought up to
        date by :func:`rules.resolve_actions`, unless the trees were changed from outside (``state`` is
        public), in which case it is made anew."""
        state = self.state
        known = self._census
        if known is None or state.size != self._census_size or state.owner != self._census_owner:
            known = rules.census(state)
            self._keep_census(known)
        return known

    def _keep_census(self, known: rules.Census) -> None:
        # The copies are compared with the state and given to input lines, never changed.
        self._census = known
        self._census_size = self.state.size[:]
        self._census_owner = self.state.owner[:]

    def _round_line(self) -> str:
        """``Round day/last``, made once a day (the summary of every frame starts with it)."""
        day = self.state.day
        if self._round[0] != day:
            self._round = day, f"Round {day}/{self._last_day}"
        return self._round[1]

    def _report_actions(self, result: rules.ActionsResult) -> None:
        say = self._summary.append  # self._say, without a call of a Python method per line
        for event in result.events:
            # Tested on ``event[0]`` itself, so that the type checker narrows ``event``.
            p = event[1]
            if event[0] == "grow":
                say(_GROWING[p][event[2]])
            elif event[0] == "seed":
                say(f"${p} is planting a seed on cell {event[2]} from cell {event[3]}")
            elif event[0] == "wait":
                say(_WAITING[p])
            else:
                say(f"${p}: {event[2]}")
                self._error(p, event[2])
        if result.conflict is not None:
            say(f"Seed conflict on cell {result.conflict}")
        for p, cell, points in result.completed:
            say(f"${p} is ending their tree life on cell {cell}, scoring {points} points")

    def _on_end(self) -> None:
        self._tree_bonus = rules.end_scoring(self.state, self.active)

    def _end_texts(self) -> tuple[str, ...]:
        return tuple(
            f"{self.scores[p] - b} points and {b} trees" if b > 0 else "" for p, b in enumerate(self._tree_bonus)
        )

    # -- input -----------------------------------------------------------------------------------

    # -- extras ----------------------------------------------------------------------------------

    def metadata(self) -> dict[str, int | str]:
        """The map: ``holes`` (cells of richness 0, made by the holes of league 3), ``richness``
        (the sum of every cell's richness: 63 on a map without holes) and ``rich_cells`` (cells
        of richness 3 left). Read from the board, which never changes."""
        richness = self.state.board.richness
        return {
            "holes": richness.count(0),
            "richness": sum(richness),
            "rich_cells": richness.count(3),
        }

    def legal_actions(self, player: int) -> list[str]:
        """The actions offered to ``player`` this frame (official order), or, when the player is
        not executed this frame, the unshuffled list the rules would offer."""
        if self._requests is None:  # (``requests()`` has nothing to do otherwise)
            self.requests()
        offered = self._actions_offered.get(player)
        if offered is not None:
            return list(offered)
        possible = self._possible
        completes, grows, seeds = possible(self.state, player)
        return ["WAIT", *completes, *grows, *seeds]

    @classmethod
    def progress(cls, snapshot: Mapping[str, Any]) -> str | None:
        """One line per finished day: scores and sun."""
        if snapshot.get("frame") != _SUN_MOVE.value:
            return None
        players = snapshot["players"]
        return (
            f"day {snapshot['day'] - 1:2} done  scores {players[0]['score']}-{players[1]['score']}"
            f"  sun {players[0]['sun']}-{players[1]['sun']}  nutrients {snapshot['nutrients']}"
        )

    def _snapshot(self) -> dict[str, Any]:
        state = self.state
        return {
            "game": self.name,
            "frame": self.frame.value,
            "day": state.day,
            "max_rounds": state.max_rounds,
            "nutrients": state.nutrients,
            "sun_direction": state.sun_direction,
            "richness": list(state.board.richness),
            "trees": [
                {"cell": c, "size": state.size[c], "owner": state.owner[c], "dormant": state.dormant[c]}
                for c in state.tree_cells()
            ],
            "shadows": list(state.shadows),
            "players": [
                {
                    "sun": state.sun[p],
                    "score": state.score[p],
                    "waiting": state.waiting[p],
                    "active": self.active[p],
                }
                for p in range(self.player_count)
            ],
        }
