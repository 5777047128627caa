"""Each unit takes the second-best field and the ones after it, avoiding the greedy crowd."""

player, units = map(int, input().split())
while True:
    try:
        input()
    except EOFError:
        break
    values = list(map(int, input().split()))
    input()
    best = sorted(range(len(values)), key=lambda i: (-values[i], i))
    for k in range(units):
        print(f"TAKE {best[k + 1]}", flush=True)
