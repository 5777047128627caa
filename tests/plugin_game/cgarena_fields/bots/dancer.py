"""Plays WAIT twice, then answers a line that does not parse (disqualified on turn 3)."""

player, units = map(int, input().split())
turn = 0
while True:
    try:
        input()
        input()
        input()
    except EOFError:
        break
    turn += 1
    for _ in range(units):
        print("WAIT" if turn < 3 else "DANCE", flush=True)
