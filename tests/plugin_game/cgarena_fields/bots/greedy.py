"""Each unit takes the best field left (its k-th unit the k-th best; lowest index among equals)."""

import sys

player, units = map(int, input().split())
while True:
    try:
        input()  # turn
    except EOFError:
        break
    values = list(map(int, input().split()))
    input()  # scores
    best = sorted(range(len(values)), key=lambda i: (-values[i], i))
    for k in range(units):
        print(f"TAKE {best[k]}", flush=True)
    print(f"player {player}: {best[:units]}", file=sys.stderr)
