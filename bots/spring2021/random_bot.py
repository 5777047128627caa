"""Spring Challenge 2021: plays a uniformly random action from the referee's possible-action list.

Deterministic for a given ``--seed`` (default 0), so games can be reproduced and bundles verified.
"""

import random
import sys


def main() -> None:
    seed = 0
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    cells = int(input())
    for _ in range(cells):
        input()
    while True:
        try:
            input()  # day
        except EOFError:
            return
        input()  # nutrients
        input()  # my sun and score
        input()  # opponent's sun, score, waiting
        for _ in range(int(input())):
            input()  # trees
        actions = [input() for _ in range(int(input()))]
        print(rng.choice(actions), flush=True)


if __name__ == "__main__":
    main()
