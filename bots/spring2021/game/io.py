"""Reading the exact CodinGame input of Spring Challenge 2021 and writing actions.

First input: the number of cells, then one line per cell: ``index richness n0 n1 n2 n3 n4 n5``.
Every turn: ``day``, ``nutrients``, ``sun score``, ``oppSun oppScore oppIsWaiting``, the number
of trees, one line per tree ``cell size isMine isDormant``, the number of possible actions and one
line per action (the bots recompute their own, so these lines are read and kept for checks, and to
see whether the league has SEED: :func:`lacks_seed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import Board
from .hashing import tree_key
from .state import COMPLETE, GROW, SEED, WAIT, State, legal_actions

__all__ = ["Turn", "read_board", "read_turn", "parse_turn", "format_action", "parse_action", "lacks_seed", "play"]


@dataclass(frozen=True)
class Turn:
    """One turn's input: the state, whether the opponent is asleep, and the offered actions."""

    state: State
    opponent_waiting: bool
    offered: tuple[str, ...]


def read_board(readline: Callable[[], str]) -> Board:
    """The first input block."""
    count = int(readline())
    richness = [0] * count
    neighbours: list[list[int]] = [[] for _ in range(count)]
    for _ in range(count):
        fields = [int(x) for x in readline().split()]
        richness[fields[0]] = fields[1]
        neighbours[fields[0]] = fields[2:8]
    return Board(richness, neighbours)


def read_turn(readline: Callable[[], str], board: Board) -> Turn:
    """One turn's lines (``readline`` raises ``EOFError`` when the game is over)."""
    head = [readline() for _ in range(4)]
    count = int(readline())
    trees = [readline() for _ in range(count)]
    offered = tuple(readline() for _ in range(int(readline())))
    return parse_turn(head + [str(count)] + trees + [str(len(offered))] + list(offered), board)


def parse_turn(lines: list[str], board: Board) -> Turn:
    """A turn from its input lines (as the referee sends them)."""
    day = int(lines[0])
    nutrients = int(lines[1])
    sun, score = (int(x) for x in lines[2].split())
    opp_sun, opp_score, opp_waiting = (int(x) for x in lines[3].split())
    count = int(lines[4])
    sizes = [0, 0, 0, 0]
    mine = dormant = 0
    bit_of = board.bit_of
    for line in lines[5 : 5 + count]:
        cell, size, is_mine, is_dormant = (int(x) for x in line.split())
        b = 1 << bit_of[cell]
        sizes[size] |= b
        if is_mine:
            mine |= b
            if is_dormant:
                dormant |= b
    offered = tuple(lines[6 + count : 6 + count + int(lines[5 + count])])
    key = tree_key(sizes[0], sizes[1], sizes[2], sizes[3], dormant)
    state = State(
        sizes[0], sizes[1], sizes[2], sizes[3], mine, dormant, sun, score, opp_sun, opp_score, nutrients, day, key
    )
    return Turn(state, bool(opp_waiting), offered)


def lacks_seed(turn: Turn, board: Board) -> bool:
    """Whether the turn shows a league without SEED (CodinGame's two Wood leagues): the rules
    would let us plant a seed, yet the referee offers none. In the full game the offered list is
    every legal action, so this never holds there."""
    if any(text.startswith("SEED ") for text in turn.offered):
        return False
    return any(a & 3 == SEED for a in legal_actions(turn.state, board))


def format_action(a: int, board: Board) -> str:
    """The command for action int ``a``."""
    kind = a & 3
    if kind == WAIT:
        return "WAIT"
    cell_of = board.cell_of
    source = cell_of[(a >> 2) & 255]
    if kind == GROW:
        return f"GROW {source}"
    if kind == COMPLETE:
        return f"COMPLETE {source}"
    return f"SEED {source} {cell_of[(a >> 10) & 255]}"


def parse_action(text: str, board: Board) -> int:
    """The action int of a command (the inverse of :func:`format_action`)."""
    words = text.split()
    bit_of = board.bit_of
    if words[0] == "WAIT":
        return WAIT
    if words[0] == "GROW":
        return GROW | bit_of[int(words[1])] << 2
    if words[0] == "COMPLETE":
        return COMPLETE | bit_of[int(words[1])] << 2
    if words[0] == "SEED":
        return SEED | bit_of[int(words[1])] << 2 | bit_of[int(words[2])] << 10
    raise ValueError(f"unknown action {text!r}")


def play(
    setup: Callable[[Board], Callable[[Turn], str]], start_turn: Callable[[], None], readline: Callable[[], str]
) -> None:
    """A bot's whole game: read the board, build the bot's turn function with ``setup(board)``,
    then for each turn call ``start_turn()`` as soon as its first line arrives (the clock runs
    from there), read the rest, print the answer. Returns at the end of the input."""

    def read() -> str:
        line = readline()
        if not line:
            raise EOFError
        return line

    board = read_board(read)
    decide = setup(board)
    while True:
        try:
            first = read()
        except EOFError:
            return
        start_turn()
        pending = [first]
        turn = read_turn(lambda: pending.pop() if pending else read(), board)  # noqa: B023 (called now)
        print(decide(turn), flush=True)
