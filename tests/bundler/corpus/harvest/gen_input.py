"""Writes input.txt: a small harvest map and the counts of a recorded game (both players' ants
drift toward resources here; the bot under test only reads the turns). Run once:
``python gen_input.py``."""

import random
from pathlib import Path

rng = random.Random(17)
N = 24
neighbors = [[-1] * 6 for _ in range(N)]
for i in range(N):  # a ring with chords: every cell has 2 to 4 neighbours
    for j in ((i + 1) % N, (i + 5) % N):
        a = neighbors[i].index(-1)
        b = neighbors[j].index(-1)
        neighbors[i][a], neighbors[j][b] = j, i
kinds = [0] * N
amounts = [0] * N
for i in rng.sample(range(2, N), 12):
    kinds[i] = rng.choice((1, 2))
    amounts[i] = rng.randint(5, 40)
my_base, opp_base = 0, N // 2
kinds[my_base] = kinds[opp_base] = 0
amounts[my_base] = amounts[opp_base] = 0
out = [str(N)]
out.extend(f"{kinds[i]} {amounts[i]} {' '.join(map(str, neighbors[i]))}" for i in range(N))
out += ["1", str(my_base), str(opp_base)]
mine = [0] * N
theirs = [0] * N
mine[my_base] = theirs[opp_base] = 10
scores = [0, 0]
for _ in range(18):
    out.append(f"{scores[0]} {scores[1]}")
    out.extend(f"{amounts[i]} {mine[i]} {theirs[i]}" for i in range(N))
    for ants in (mine, theirs):
        src = rng.choice([i for i in range(N) if ants[i]])
        dst = rng.choice([n for n in neighbors[src] if n >= 0])
        moved = max(1, ants[src] // 2)
        ants[src] -= moved
        ants[dst] += moved
    for i in range(N):
        for p, ants in enumerate((mine, theirs)):
            if ants[i] and amounts[i]:
                taken = min(amounts[i], ants[i])
                amounts[i] -= taken
                scores[p] += taken if kinds[i] == 2 else 0
                if kinds[i] == 1:
                    ants[i] += taken // 3

Path(__file__).with_name("input.txt").write_text("\n".join(out) + "\n")
