"""Writes input.txt: positions of random games, the bot (O, player 2) to move in each.
Run once: ``python gen_input.py``."""

import random
from pathlib import Path

from game import State, to_row_col

rng = random.Random(5)
out = ["2"]
state = State()
turns = 0
while turns < 20:
    if state.over():
        state = State()
    moves = state.legal_moves()
    move = rng.choice(moves)
    state.play(move)  # the opponent (X)
    if state.over():
        continue
    if state.ply < 30:  # record the middle game, where small boards are won and lost
        state.play(rng.choice(state.legal_moves()))
        continue
    r, c = to_row_col(move)
    out.append(f"{r} {c}")
    marks = {0: ".", 1: "X", 2: "O"}
    grid = [["."] * 9 for _ in range(9)]
    for m, v in enumerate(state.cells):
        rr, cc = to_row_col(m)
        grid[rr][cc] = marks[v]
    out.extend("".join(row) for row in grid)
    valid = state.legal_moves()
    out.append(str(len(valid)))
    out.extend("{} {}".format(*to_row_col(m)) for m in valid)
    turns += 1
    state.play(rng.choice(valid))  # what the bot might have played

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
