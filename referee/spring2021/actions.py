"""Spring Challenge 2021 commands: parsing a bot's line exactly as the official CommandManager.

The official patterns are case-sensitive, want exactly one space between a command and its
numbers, and are tried in the order WAIT, GROW, COMPLETE, SEED with ``Matcher.matches()``. Numbers
go through ``Integer.parseInt``: a number too large for a Java int matches the pattern but throws,
and the player is disqualified with the exception's text as what it "got".

The lower leagues do not try the patterns of the commands they do not have (GROW in league 1,
SEED in leagues 1 and 2): such a line is invalid input, whatever its numbers, and the message
names only the commands of the league (:func:`expected_text`, ``Game.getExpected``).

Java regex classes differ from Python's: ``\\d`` is ASCII only, ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]`` and
``.`` stops at ``\\n``, ``\\r``, ``\\u0085``, ``\\u2028`` and ``\\u2029``; the patterns below spell
those classes out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..base import InvalidCommand
from ..javatext import cut_message, parse_java_int

__all__ = [
    "Wait",
    "Grow",
    "Complete",
    "Seed",
    "Action",
    "parse",
    "parser_for",
    "EXPECTED",
    "expected_text",
    "trim_message",
]

EXPECTED = "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT"
"""What the invalid-input message of the full game (league 3) says it expects."""


def expected_text(grow: bool, seed: bool) -> str:
    """``Game.getExpected``: the commands a league parses, as its invalid-input message lists them
    (a league with SEED but without GROW does not exist; it would get the full text)."""
    if not grow and not seed:
        return "COMPLETE <idx> | WAIT"
    if grow and not seed:
        return "GROW <idx> | COMPLETE <idx> | WAIT"
    return EXPECTED


_WS = r"[ \t\n\x0b\f\r]"
_ANY = r"[^\n\r\x85\u2028\u2029]"
_MSG = rf"(?:{_WS}+(?P<message>{_ANY}*))?"
_WAIT = re.compile(rf"WAIT{_MSG}")
_GROW = re.compile(rf"GROW (?P<target>[0-9]+){_MSG}")
_COMPLETE = re.compile(rf"COMPLETE (?P<target>[0-9]+){_MSG}")
_SEED = re.compile(rf"SEED (?P<source>[0-9]+) (?P<target>[0-9]+){_MSG}")


@dataclass(frozen=True, slots=True)
class Wait:
    message: str | None = None

    def __str__(self) -> str:
        return "WAIT"


@dataclass(frozen=True, slots=True)
class Grow:
    cell: int
    message: str | None = None

    def __str__(self) -> str:
        return f"GROW {self.cell}"


@dataclass(frozen=True, slots=True)
class Complete:
    cell: int
    message: str | None = None

    def __str__(self) -> str:
        return f"COMPLETE {self.cell}"


@dataclass(frozen=True, slots=True)
class Seed:
    source: int
    target: int
    message: str | None = None

    def __str__(self) -> str:
        return f"SEED {self.source} {self.target}"


Action = Wait | Grow | Complete | Seed


def trim_message(message: str | None) -> str | None:
    """The viewer's message: Java ``trim()``, cut to 46 units + ``...`` past 48 (UTF-16 units)."""
    return cut_message(message, trim=True)


_PLAIN: dict[str, Action] = {}
"""Lines already parsed by :func:`parse` that are exactly a command in its usual spelling
(``GROW 5``): no message, numbers of at most three digits without leading zeros. Bounded: there are
about 10**6 of them."""


def _plain(action: Action, line: str) -> bool:
    """Whether ``line`` is ``action`` in its usual spelling (see :data:`_PLAIN`)."""
    return action.message is None and str(action) == line and all(len(n) <= 3 for n in line.split(" ")[1:])


def parse(line: str) -> Action:
    """Parse one output line by the full game's rules (league 3); raise :class:`InvalidCommand`
    (official text) if it does not parse."""
    action = _PLAIN.get(line)
    if action is None:
        action = _parse(line, True, True, EXPECTED)
        if action.message is None and str(action) == line and all(len(n) <= 3 for n in line.split(" ")[1:]):
            _PLAIN[line] = action  # the test of _plain, written out: a call a line would show
    return action


@cache
def parser_for(grow: bool, seed: bool) -> Callable[[str], Action]:
    """The parser of a league that has GROW and SEED or not: :func:`parse` for the full game, else
    one made once and kept (its cache of plain lines serves every game of that league)."""
    if grow and seed:
        return parse
    expected = expected_text(grow, seed)
    plain: dict[str, Action] = {}

    def parse_in_league(line: str) -> Action:
        action = plain.get(line)
        if action is None:
            action = _parse(line, grow, seed, expected)
            if _plain(action, line):
                plain[line] = action
        return action

    return parse_in_league


def _parse(line: str, grow: bool, seed: bool, expected: str) -> Action:
    m = _WAIT.fullmatch(line)
    if m:
        return Wait(trim_message(m.group("message")))
    if grow:
        m = _GROW.fullmatch(line)
        if m:
            return Grow(parse_java_int(m.group("target"), expected), trim_message(m.group("message")))
    m = _COMPLETE.fullmatch(line)
    if m:
        return Complete(parse_java_int(m.group("target"), expected), trim_message(m.group("message")))
    if seed:
        m = _SEED.fullmatch(line)
        if m:
            source = parse_java_int(m.group("source"), expected)
            target = parse_java_int(m.group("target"), expected)
            return Seed(source, target, trim_message(m.group("message")))
    raise InvalidCommand(expected, line)
