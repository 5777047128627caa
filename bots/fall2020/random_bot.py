"""Fall Challenge 2020: a random legal player (no repeats), deterministic for a given ``--seed``.

Each turn it lists the BREWs it can afford, the castable spells whose result fits the inventory
(at most 10 ingredients), the LEARNs whose tax it can pay, and REST when a spell is exhausted, then
picks one of them uniformly (BREW first when one is possible).
"""

import random
import sys
from collections.abc import Sequence


def main() -> None:
    seed = 0
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    while True:
        try:
            count = int(input())
        except EOFError:
            return
        rows = [input().split() for _ in range(count)]
        inv = [int(x) for x in input().split()[:4]]
        input()  # opponent
        print(choose(rows, inv, rng), flush=True)


def choose(rows: Sequence[Sequence[str]], inv: Sequence[int], rng: random.Random) -> str:
    brews: list[str] = []
    moves: list[str] = []
    exhausted = False
    for r in rows:
        action_id, kind = int(r[0]), r[1]
        delta = [int(x) for x in r[2:6]]
        tome_index, castable = int(r[7]), r[9] == "1"
        after = [a + d for a, d in zip(inv, delta)]
        if kind == "BREW" and min(after) >= 0:
            brews.append(f"BREW {action_id}")
        elif kind == "CAST":
            if not castable:
                exhausted = True
            elif min(after) >= 0 and sum(after) <= 10:
                moves.append(f"CAST {action_id}")
        elif kind == "LEARN" and inv[0] >= tome_index:
            moves.append(f"LEARN {action_id}")
    if brews:
        return rng.choice(brews)
    if exhausted:
        moves.append("REST")
    return rng.choice(moves) if moves else "WAIT"


if __name__ == "__main__":
    main()
