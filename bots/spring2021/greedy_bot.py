"""Spring Challenge 2021: a simple greedy player.

Each action frame it picks, in order of preference: COMPLETE the tree on the richest cell (from
day 12 on, or when it has 3+ tall trees), GROW the biggest tree it can, plant a SEED while it has
none on the richest free cell, else WAIT. No search: a baseline for the arena.
"""


def main() -> None:
    richness = {}
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
        trees = {}
        for _ in range(int(input())):
            cell, size, mine, dormant = map(int, input().split())
            trees[cell] = (size, mine == 1, dormant == 1)
        actions = [input() for _ in range(int(input()))]
        print(choose(day, richness, trees, actions), flush=True)


def choose(day, richness, trees, actions):
    tall = sum(1 for size, mine, _ in trees.values() if mine and size == 3)
    my_seeds = sum(1 for size, mine, _ in trees.values() if mine and size == 0)
    best = None
    best_key = None
    for action in actions:
        words = action.split()
        kind = words[0]
        if kind == "COMPLETE" and (day >= 12 or tall >= 3):
            key = (0, -richness[int(words[1])])
        elif kind == "GROW" and day < 22:
            key = (1, -trees[int(words[1])][0], -richness[int(words[1])])
        elif kind == "SEED" and my_seeds == 0 and day < 18:
            key = (2, -richness[int(words[2])])
        else:
            continue
        if best_key is None or key < best_key:
            best, best_key = action, key
    return best or "WAIT"


if __name__ == "__main__":
    main()
