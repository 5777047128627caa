"""The game input of Spring Challenge 2021, as the test bots of this folder read it.

The bots run as scripts (``python faulty.py ...``) and import this module from their own folder,
the one folder of the repository a sandboxed bot sees: a copy of a bot needs this file beside it.
"""


def read_frame(first):
    """Read one turn's input; the first turn's starts with the board's cells."""
    if first:
        for _ in range(int(input())):
            input()
    for _ in range(4):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()


def turns():
    """Yield 1, 2, 3...: the number of the answer due, each time a turn's input has been read;
    stop when the input ends."""
    turn = 0
    while True:
        try:
            read_frame(turn == 0)
        except EOFError:
            return
        turn += 1
        yield turn
