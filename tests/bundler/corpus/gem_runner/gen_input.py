"""Writes input.txt: a recorded game of the gem runner (the runner follows a simple policy here;
the bot under test only reads the turns). Run once: ``python gen_input.py``."""

import random
from pathlib import Path

WIDTH, HEIGHT, TURNS = 19, 11, 30
rng = random.Random(2024)

walls = {
    (x, y)
    for x in range(WIDTH)
    for y in range(HEIGHT)
    if x in (0, WIDTH - 1) or y in (0, HEIGHT - 1) or (x % 4 == 2 and y % 3 != 1 and rng.random() < 0.8)
}
free = sorted({(x, y) for x in range(WIDTH) for y in range(HEIGHT)} - walls)
me = free[len(free) // 2]
gems = set(rng.sample([p for p in free if p != me], 22))
monsters = rng.sample([p for p in free if p != me and p not in gems], 3)
energy, score = 40, 0
out = [f"{WIDTH} {HEIGHT}"]


def steps(p):
    x, y = p
    return [q for q in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)) if q not in walls]


for _ in range(TURNS):
    for y in range(HEIGHT):
        row = ""
        for x in range(WIDTH):
            p = (x, y)
            row += "@" if p == me else "#" if p in walls else "M" if p in monsters else "*" if p in gems else "."
        out.append(row)
    out.append(f"{energy} {score}")
    options = steps(me)
    near = [q for q in options if q in gems]
    me = near[0] if near else rng.choice(options)
    if me in gems:
        gems.discard(me)
        score += 10
        energy += 3
    energy -= 1
    monsters = [rng.choice(steps(m)) for m in monsters]

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
