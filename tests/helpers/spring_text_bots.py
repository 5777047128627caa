"""Tiny Spring Challenge 2021 bots written by tests: read the input as the statement gives it, answer
one fixed line every turn."""

from __future__ import annotations

from pathlib import Path

SPRING_READER = """\
{imports}cells = int(input())
for _ in range(cells):
    input()
while True:
    for _ in range(4):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()
    print({answer}, flush=True)
"""


def spring_bot_text(answer: str, *, imports: str = "") -> str:
    """The bot's source: ``answer`` is a Python expression (``'"WAIT"'``, or a name ``imports``
    brings)."""
    return SPRING_READER.format(answer=answer, imports=imports)


def write_spring_bot(folder: Path, name: str, answer: str) -> Path:
    """A bot file answering the line ``answer`` every turn."""
    path = folder / name
    path.write_text(spring_bot_text(repr(answer)))
    return path
