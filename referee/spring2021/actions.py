"""Spring Challenge 2021 commands: parsing a bot's line exactly as the official CommandManager.

The official patterns are case-sensitive, want exactly one space between a command and its
numbers, and are tried in the order WAIT, GROW, COMPLETE, SEED with ``Matcher.matches()``. Numbers
go through ``Integer.parseInt``: a number too large for a Java int matches the pattern but throws,
and the player is disqualified with the exception's text as what it "got".

Java regex classes differ from Python's: ``\\d`` is ASCII only, ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]`` and
``.`` stops at ``\\n``, ``\\r``, ``\\u0085``, ``\\u2028`` and ``\\u2029``; the patterns below spell
those classes out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import InvalidCommand
from ..javatext import cut_message, parse_java_int

__all__ = ["Wait", "Grow", "Complete", "Seed", "Action", "parse", "EXPECTED", "trim_message"]

EXPECTED = "SEED <from> <to> | GROW <idx> | COMPLETE <idx> | WAIT"

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


def _parse_int(digits: str) -> int:
    return parse_java_int(digits, EXPECTED)


def trim_message(message: str | None) -> str | None:
    """The viewer's message: Java ``trim()``, cut to 46 units + ``...`` past 48 (UTF-16 units)."""
    return cut_message(message, trim=True)


_PLAIN: dict[str, Action] = {}
"""Lines already parsed that are exactly a command in its usual spelling (``GROW 5``): no message,
numbers of at most three digits without leading zeros. Bounded: there are about 10**6 of them."""


def parse(line: str) -> Action:
    """Parse one output line; raise :class:`InvalidCommand` (official text) if it does not parse."""
    action = _PLAIN.get(line)
    if action is None:
        action = _parse(line)
        if action.message is None and str(action) == line and all(len(number) <= 3 for number in line.split(" ")[1:]):
            _PLAIN[line] = action
    return action


def _parse(line: str) -> Action:
    m = _WAIT.fullmatch(line)
    if m:
        return Wait(trim_message(m.group("message")))
    m = _GROW.fullmatch(line)
    if m:
        return Grow(_parse_int(m.group("target")), trim_message(m.group("message")))
    m = _COMPLETE.fullmatch(line)
    if m:
        return Complete(_parse_int(m.group("target")), trim_message(m.group("message")))
    m = _SEED.fullmatch(line)
    if m:
        source = _parse_int(m.group("source"))
        target = _parse_int(m.group("target"))
        return Seed(source, target, trim_message(m.group("message")))
    raise InvalidCommand(EXPECTED, line)
