"""Writes input.txt: turns of a brewing game (the inventory follows a simple policy here; the bot
under test only reads the turns). Run once: ``python gen_input.py``."""

import random
from pathlib import Path

rng = random.Random(31)
spells = {
    78: (2, 0, 0, 0),
    79: (-1, 1, 0, 0),
    80: (0, -1, 1, 0),
    81: (0, 0, -1, 1),
    90: (-2, 0, 1, 0),
    91: (1, 1, -1, 0),
}
orders: dict[int, tuple[tuple[int, ...], int]] = {}
next_order = 40
inventory = [3, 0, 0, 0]
score = 0
exhausted: set[int] = set()
out = []


def new_order():
    global next_order
    need = [0, 0, 0, 0]
    for _ in range(rng.randint(2, 5)):
        need[rng.randint(0, 3)] -= 1
    price = sum((t + 1) * -n for t, n in enumerate(need)) + rng.randint(0, 3)
    orders[next_order] = (tuple(need), price)
    next_order += 1


for _ in range(5):
    new_order()
for _ in range(22):
    lines = [f"{uid} BREW {' '.join(map(str, need))} {price} 0" for uid, (need, price) in sorted(orders.items())]
    lines += [f"{uid} CAST {' '.join(map(str, d))} 0 {int(uid not in exhausted)}" for uid, d in sorted(spells.items())]
    out.append(str(len(lines)))
    out.extend(lines)
    out.append(f"{' '.join(map(str, inventory))} {score}")
    ready = [uid for uid, (need, _) in orders.items() if all(a + d >= 0 for a, d in zip(inventory, need))]
    if ready:
        uid = ready[0]
        need, price = orders.pop(uid)
        inventory = [a + d for a, d in zip(inventory, need)]
        score += price
        new_order()
        continue
    castable = [
        uid
        for uid, d in spells.items()
        if uid not in exhausted and all(a + x >= 0 for a, x in zip(inventory, d)) and sum(inventory) + sum(d) <= 10
    ]
    if castable:
        uid = rng.choice(castable)
        inventory = [a + x for a, x in zip(inventory, spells[uid])]
        exhausted.add(uid)
    else:
        exhausted.clear()

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
