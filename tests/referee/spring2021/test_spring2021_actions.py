"""Parsing bot output exactly as the official CommandManager (case-sensitive, single spaces)."""

from __future__ import annotations

import pytest

from referee.base import InvalidCommand
from referee.spring2021.actions import Complete, Grow, Seed, Wait, parse

VALID = [
    ("WAIT", Wait()),
    ("WAIT hello", Wait("hello")),
    ("WAIT\tgg", Wait("gg")),
    ("WAIT ", Wait("")),
    ("GROW 5", Grow(5)),
    ("GROW 05", Grow(5)),
    ("GROW 5 msg", Grow(5, "msg")),
    ("GROW 5   spaced  ", Grow(5, "spaced")),
    ("COMPLETE 0", Complete(0)),
    ("SEED 1 2", Seed(1, 2)),
    ("SEED 1 2 x y", Seed(1, 2, "x y")),
    ("GROW 2147483647", Grow(2147483647)),
    ("WAIT " + "a" * 60, Wait("a" * 46 + "...")),
    ("WAIT " + "b" * 48, Wait("b" * 48)),
]


@pytest.mark.parametrize("line,action", VALID, ids=[v[0][:20] for v in VALID])
def test_valid_lines(line, action):
    assert parse(line) == action


INVALID = [
    "",
    "JUMP 3",
    "GROW",
    "grow 5",
    "Wait",
    "SEED 1",
    "SEED  1 2",
    "GROW  5",
    "COMPLETE -1",
    "GROW +5",
    "WAITING",
    " WAIT",
    "GROW 5x",
    "GROW ５",  # a full-width digit is not \d in Java
    "WAIT\u2028x",  # Java's '.' stops at a line separator
]


@pytest.mark.parametrize("line", INVALID, ids=[repr(v) for v in INVALID])
def test_invalid_lines_disqualify_with_the_official_text(line):
    with pytest.raises(InvalidCommand) as info:
        parse(line)
    assert str(info.value) == (
        f"Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT but got '{line}'"
    )


@pytest.mark.parametrize(
    "line,digits",
    [
        ("GROW 99999999999", "99999999999"),
        ("SEED 2147483648 1", "2147483648"),
        ("COMPLETE 4294967296 msg", "4294967296"),
    ],
)
def test_numbers_beyond_a_java_int_report_the_java_exception(line, digits):
    with pytest.raises(InvalidCommand) as info:
        parse(line)
    assert info.value.got == f'java.lang.NumberFormatException: For input string: "{digits}"'


def test_message_length_counts_utf16_units_like_java():
    emoji = "\U0001f600"  # two UTF-16 units
    assert parse("WAIT " + emoji * 24).message == emoji * 24  # 48 units: kept
    assert parse("WAIT " + emoji * 25).message == emoji * 23 + "..."  # 50 units: cut to 46


def test_parsing_a_line_again_gives_what_the_official_patterns_give() -> None:
    """Lines seen before are answered from a table; the answer must still be the official
    parse (written out here by hand), whether or not the line was seen, and lines with messages,
    odd spacing or leading zeros must never be taken from the table for another line."""
    cases = {
        "WAIT": Wait(),
        "GROW 5": Grow(5),
        "GROW 05": Grow(5),
        "COMPLETE 0": Complete(0),
        "SEED 12 30": Seed(12, 30),
        "SEED 012 30": Seed(12, 30),
        "GROW 5 hi": Grow(5, "hi"),
        "WAIT  zz ": Wait("zz"),
        "GROW 1234": Grow(1234),
    }
    for _ in range(3):
        for line, expected in cases.items():
            assert parse(line) == expected, line
    for bad in ("GROW  5", "grow 5", "GROW 5\u2028", "SEED 1", "GROW -1"):
        for _ in range(2):
            with pytest.raises(InvalidCommand):
                parse(bad)
