"""Spring Challenge 2021: a simple greedy player.

Each action frame it picks, in order of preference: COMPLETE the tree on the richest cell (from
day 12 on, or when it has 3+ tall trees), GROW the biggest tree it can (until day 21), plant a
SEED while it has none on the richest free cell (until day 17), else WAIT. No search: a baseline
for the arena. Deterministic: its answer depends only on its input and options.

Options (for parameter sweeps): ``--complete-day D`` (12), ``--tall-trees N`` (3),
``--grow-until D`` (22), ``--seed-until D`` (18): the days are the first on which the rule stops
or starts applying.
"""

import sys
from collections.abc import Iterable, Mapping

OPTIONS = {"complete-day": 12, "tall-trees": 3, "grow-until": 22, "seed-until": 18}


def parse_options(argv: Iterable[str]) -> dict[str, int]:
    options = dict(OPTIONS)
    args = list(argv)
    while args:
        flag = args.pop(0)
        name = flag[2:]
        if not flag.startswith("--") or name not in options or not args:
            raise SystemExit(f"greedy_bot: unknown option {flag!r} (options: {', '.join(OPTIONS)})")
        options[name] = int(args.pop(0))
    return options


def main() -> None:
    options = parse_options(sys.argv[1:])
    richness: dict[int, int] = {}
    for _ in range(int(input())):
        fields = input().split()
        richness[int(fields[0])] = int(fields[1])
    while True:
        try:
            day = int(input())
        except EOFError:
            return
        input()  # nutrients
        input()  # my sun and score
        input()  # opponent
        trees: dict[int, tuple[int, bool, bool]] = {}
        for _ in range(int(input())):
            cell, size, mine, dormant = map(int, input().split())
            trees[cell] = (size, mine == 1, dormant == 1)
        actions = [input() for _ in range(int(input()))]
        print(choose(day, richness, trees, actions, options), flush=True)


def choose(
    day: int,
    richness: Mapping[int, int],
    trees: Mapping[int, tuple[int, bool, bool]],
    actions: Iterable[str],
    options: Mapping[str, int] = OPTIONS,
) -> str:
    tall = sum(1 for size, mine, _ in trees.values() if mine and size == 3)
    my_seeds = sum(1 for size, mine, _ in trees.values() if mine and size == 0)
    best: str | None = None
    best_key: tuple[int, ...] | None = None
    for action in actions:
        words = action.split()
        kind = words[0]
        key: tuple[int, ...]
        if kind == "COMPLETE" and (day >= options["complete-day"] or tall >= options["tall-trees"]):
            key = (0, -richness[int(words[1])])
        elif kind == "GROW" and day < options["grow-until"]:
            key = (1, -trees[int(words[1])][0], -richness[int(words[1])])
        elif kind == "SEED" and my_seeds == 0 and day < options["seed-until"]:
            key = (2, -richness[int(words[2])])
        else:
            continue
        if best_key is None or key < best_key:
            best, best_key = action, key
    return best or "WAIT"


if __name__ == "__main__":
    main()
