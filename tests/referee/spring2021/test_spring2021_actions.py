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
        "Invalid Input: Expected SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT "
        f"but got '{line}'"
    )


@pytest.mark.parametrize(
    "line,digits",
    [("GROW 99999999999", "99999999999"), ("SEED 2147483648 1", "2147483648"),
     ("COMPLETE 4294967296 msg", "4294967296")],
)
def test_numbers_beyond_a_java_int_report_the_java_exception(line, digits):
    with pytest.raises(InvalidCommand) as info:
        parse(line)
    assert info.value.got == f'java.lang.NumberFormatException: For input string: "{digits}"'


def test_message_length_counts_utf16_units_like_java():
    emoji = "\U0001F600"  # two UTF-16 units
    assert parse("WAIT " + emoji * 24).message == emoji * 24  # 48 units: kept
    assert parse("WAIT " + emoji * 25).message == emoji * 23 + "..."  # 50 units: cut to 46
