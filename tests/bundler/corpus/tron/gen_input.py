"""Writes input.txt: a recorded three-player light-cycle game (every cycle follows a simple policy
here; the bot under test, player 0, only reads the positions). Run once: ``python gen_input.py``."""

import random
from pathlib import Path

W, H = 20, 12
rng = random.Random(3)
starts = [(2, 2), (17, 9), (10, 6)]
walls = {}
heads = list(starts)
alive = [True, True, True]
for p, h in enumerate(heads):
    walls[h] = p
out = []
moves = ((0, -1), (1, 0), (0, 1), (-1, 0))


def room(c, taken):
    return sum(
        1 for dx, dy in moves if 0 <= c[0] + dx < W and 0 <= c[1] + dy < H and (c[0] + dx, c[1] + dy) not in taken
    )


for _ in range(32):
    out.append(f"{len(heads)} 0")
    for p, (s, h) in enumerate(zip(starts, heads)):
        out.append(f"{s[0]} {s[1]} {h[0]} {h[1]}" if alive[p] else "-1 -1 -1 -1")
    for p in range(len(heads)):
        if not alive[p]:
            continue
        x, y = heads[p]
        options = [
            (x + dx, y + dy)
            for dx, dy in moves
            if 0 <= x + dx < W and 0 <= y + dy < H and (x + dx, y + dy) not in walls
        ]
        if not options:
            alive[p] = False
            walls = {c: o for c, o in walls.items() if o != p}
            continue
        options.sort(key=lambda c, taken=walls: -room(c, taken))
        heads[p] = options[0] if rng.random() < 0.7 else rng.choice(options)
        walls[heads[p]] = p

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
