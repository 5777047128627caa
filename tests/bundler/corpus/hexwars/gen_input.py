"""Writes input.txt: a recorded skirmish (both sides play random legal actions here; the bot under
test only reads the positions). Run once: ``python gen_input.py``."""

import random
from pathlib import Path

RADIUS = 4
rng = random.Random(99)
KINDS = {"I": 14, "K": 12, "A": 8, "H": 9}
cells = [
    (q, r)
    for q in range(-RADIUS, RADIUS + 1)
    for r in range(-RADIUS, RADIUS + 1)
    if max(abs(q), abs(r), abs(q + r)) <= RADIUS
]
units = {}
uid = 0
for owner, rows in ((0, (-4, -3)), (1, (4, 3))):
    spots = [c for c in cells if c[1] in rows]
    for kind in "IIKAAH":
        pos = rng.choice([s for s in spots if all(u["pos"] != s for u in units.values())])
        units[uid] = {"owner": owner, "kind": kind, "pos": pos, "hp": KINDS[kind]}
        uid += 1

out = ["0"]
for _ in range(20):
    out.append(str(len(units)))
    out.extend(f"{i} {u['owner']} {u['kind']} {u['pos'][0]} {u['pos'][1]} {u['hp']}" for i, u in sorted(units.items()))
    for owner in (0, 1):  # each side moves two units toward the middle, then a random fight
        for i in rng.sample(sorted(i for i, u in units.items() if u["owner"] == owner), 2):
            q, r = units[i]["pos"]
            step = (q + rng.choice((-1, 0, 1)), r + (1 if owner == 0 else -1))
            taken = {u["pos"] for u in units.values()}
            if max(abs(step[0]), abs(step[1]), abs(step[0] + step[1])) <= RADIUS and step not in taken:
                units[i]["pos"] = step
    for i in sorted(units):
        if i not in units:
            continue
        for j in sorted(units):
            a, b = units[i], units.get(j)
            if b and a["owner"] != b["owner"] and abs(a["pos"][0] - b["pos"][0]) + abs(a["pos"][1] - b["pos"][1]) <= 1:
                b["hp"] -= rng.randint(1, 4)
                if b["hp"] <= 0:
                    del units[j]
                break

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
