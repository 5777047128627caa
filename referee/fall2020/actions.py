"""Fall Challenge 2020 commands: parsing a bot's line exactly as the official CommandManager.

The official patterns are case-insensitive (ASCII only), accept any run of whitespace between the
words, an optional repeat count after ``CAST <id>`` and an optional trailing message, and must
match the whole line (``Matcher.matches()``). Numbers go through ``Integer.valueOf``: a number too
large for a Java int matches the pattern but throws, and the player is disqualified with the
exception's text as what it "got".

Java regex classes differ from Python's: ``\\d`` is ASCII only, ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]`` and
``.`` stops at ``\\n``, ``\\r``, ``\\u0085``, ``\\u2028`` and ``\\u2029``; the patterns spell those out.

Below the top league some commands do not exist: the official parser does not even try their
patterns, so such a line is invalid input (the player is disqualified) and the message names the
league's commands (:func:`parser`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..base import InvalidCommand
from ..javatext import cut_message, parse_java_int
from .leagues import League

__all__ = [
    "Action",
    "REST",
    "CAST",
    "LEARN",
    "BREW",
    "WAIT",
    "EXPECTED",
    "parse",
    "parse_answer",
    "parser",
    "trim_message",
]

REST: Final = "REST"
CAST: Final = "CAST"
LEARN: Final = "LEARN"
BREW: Final = "BREW"
WAIT: Final = "WAIT"

EXPECTED = "BREW <id> | CAST <id> [<repeat>] | LEARN <id> | REST | WAIT"
"""What the official error says was expected with the full rules (levels 3 and 4)."""

_WS = r"[ \t\n\x0b\f\r]"
_ANY = r"[^\n\r\x85\u2028\u2029]"
_MSG = rf"(?:{_WS}+(?P<message>{_ANY}*))?"
_FLAGS = re.IGNORECASE | re.ASCII
# The five official patterns are tried in the order REST, CAST, LEARN, BREW, WAIT; their keywords
# differ, so at most one can match and the keyword (first four letters) selects it.
_PATTERNS: dict[str, re.Pattern[str]] = {
    "REST": re.compile(rf"REST{_MSG}", _FLAGS),
    "CAST": re.compile(rf"CAST{_WS}+(?P<id>[0-9]+)(?:{_WS}+(?P<param>[0-9]+))?{_MSG}", _FLAGS),
    "LEAR": re.compile(rf"LEARN{_WS}+(?P<id>[0-9]+){_MSG}", _FLAGS),
    "BREW": re.compile(rf"BREW{_WS}+(?P<id>[0-9]+){_MSG}", _FLAGS),
    "WAIT": re.compile(rf"WAIT{_MSG}", _FLAGS),
}
_KINDS = {"REST": REST, "CAST": CAST, "LEAR": LEARN, "BREW": BREW, "WAIT": WAIT}


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed command. ``spell_id`` is -1 for REST and WAIT; ``repeats`` is ``None`` unless a
    CAST gave a count (the official default is 1)."""

    kind: str
    spell_id: int = -1
    repeats: int | None = None
    message: str | None = None

    def __str__(self) -> str:
        if self.kind in (REST, WAIT):
            return self.kind
        if self.repeats is not None:
            return f"{self.kind} {self.spell_id} {self.repeats}"
        return f"{self.kind} {self.spell_id}"


def trim_message(message: str | None) -> str | None:
    """The official cut (no trim in this game): past 48 UTF-16 units, the first 46 + ``...``."""
    return cut_message(message, trim=False)


_MEMO: dict[str, Action] = {}
_MEMO_SIZE = 4096


def parse(line: str) -> Action:
    """Parse one output line; raise :class:`InvalidCommand` (official text) if it does not parse.

    Results are memoised (actions are immutable; the same lines recur all the time)."""
    action = _MEMO.get(line)
    if action is None:
        action = _parse(line)
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[line] = action
    return action


def parse_answer(lines: tuple[str, ...]) -> Action:
    """:func:`parse` of a one-line answer (the engine gives answers as tuples of lines)."""
    action = _MEMO.get(lines[0])
    return action if action is not None else parse(lines[0])


def parser(league: League) -> Callable[[tuple[str, ...]], Action]:
    """:func:`parse_answer` for a league level: with the full rules that very function, below
    them one that refuses the commands the level does not have (a memo of its own)."""
    if league.spells and league.tome:
        return parse_answer
    kinds = league.commands
    keys = frozenset(key for key, kind in _KINDS.items() if kind in kinds)
    expected = league.expected
    memo: dict[str, Action] = {}

    def parse_league_answer(lines: tuple[str, ...]) -> Action:
        line = lines[0]
        action = memo.get(line)
        if action is None:
            action = _parse(line, keys, expected)
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[line] = action
        return action

    return parse_league_answer


def _parse(line: str, keys: frozenset[str] | None = None, expected: str = EXPECTED) -> Action:
    """One line; ``keys``: the keywords (first four letters) of the commands that exist, all if
    ``None``; ``expected``: the wording of the invalid-input message."""
    key = line[:4].upper()
    pattern = _PATTERNS.get(key)
    m = pattern.fullmatch(line) if pattern is not None and (keys is None or key in keys) else None
    if m is None:
        raise InvalidCommand(expected, line)
    kind = _KINDS[key]
    message = m.group("message")
    if message is not None:
        message = trim_message(message)
    if kind is REST or kind is WAIT:
        return Action(kind, message=message)
    spell_id = parse_java_int(m.group("id"), expected)
    repeats = None
    if kind is CAST:
        param = m.group("param")
        if param is not None:
            repeats = parse_java_int(param, expected)
    return Action(kind, spell_id, repeats, message)
