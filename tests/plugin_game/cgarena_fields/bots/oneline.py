"""Answers a single line a turn whatever its unit count (as player 0 it never answers in full)."""

player, units = map(int, input().split())
while True:
    try:
        input()
        input()
        input()
    except EOFError:
        break
    print("WAIT", flush=True)
