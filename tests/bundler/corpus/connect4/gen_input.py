"""Writes input.txt: boards of random games, the bot (player 1) to move on each. Run once:
``python gen_input.py`` (needs only the package next to it)."""

import random
from pathlib import Path

from c4bot.board import HEIGHT, WIDTH, Board

rng = random.Random(7)
out = ["1"]
board = Board()
turns = 0
while turns < 16:
    if board.full() or board.wins(1):
        board = Board()
    col = rng.choice(board.legal_moves())  # the opponent (player 0)
    board.play(col, 0)
    if board.wins(0) or board.full():
        board = Board()
        continue
    text = str(board).split("/")
    assert len(text) == HEIGHT and all(len(r) == WIDTH for r in text)
    out.extend(text)
    out.append(str(col))
    turns += 1
    board.play(rng.choice(board.legal_moves()), 1)  # what the bot might have played

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
