"""Never takes anything: WAIT for each unit, every turn (it is the one eliminated)."""

player, units = map(int, input().split())
while True:
    try:
        input()
        input()
        input()
    except EOFError:
        break
    for _ in range(units):
        print("WAIT", flush=True)
