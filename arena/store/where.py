"""``arena ladder show --where``: which stored games count, by the facts the referee gave about
how each started (:meth:`referee.Referee.metadata`: Spring 2021's ``holes``, ``richness`` and
``rich_cells``, Fall 2020's ``first_orders`` and ``orders_value``).

A condition is ``NAME OP VALUE`` with ``OP`` one of ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``
(numbers compared as numbers, texts as texts) or ``~`` (the fact, a comma-separated list, holds
the value: ``first_orders~76``). Several conditions must all hold. A game stored without facts
(by a release before them) matches no condition."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ArenaError

__all__ = ["WhereError", "Condition", "parse_condition", "parse_where", "matches"]


def _has(fact: object, value: object) -> bool:
    return str(value) in str(fact).split(",")


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "<=": operator.le,
    ">=": operator.ge,
    "!=": operator.ne,
    "=": operator.eq,
    "<": operator.lt,
    ">": operator.gt,
    "~": _has,
}
_SHAPE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|!=|==|=|<|>|~)\s*(.*?)\s*$")


class WhereError(ArenaError, ValueError):
    """A condition that cannot be read, or names a fact the game does not give (one line)."""


@dataclass(frozen=True)
class Condition:
    """``name op value``, as given."""

    name: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.name}{self.op}{self.value}"

    def holds(self, facts: Mapping[str, int | str] | None) -> bool:
        """Whether a game with these facts meets the condition (never, without the fact)."""
        if not facts or self.name not in facts:
            return False
        fact = facts[self.name]
        if self.op == "~":
            return _OPS["~"](fact, self.value)
        value: int | float | str = self.value
        if isinstance(fact, (int, float)):
            try:
                value = float(self.value)
            except ValueError:
                return False
        elif self.op not in ("=", "!="):
            return False
        return _OPS[self.op](fact, value)


def parse_condition(text: str, known: Iterable[str] | None = None) -> Condition:
    """A condition from its text; ``known``: the facts its game gives (a name not among them is
    refused, with the list)."""
    found = _SHAPE.fullmatch(text)
    if found is None or not found.group(3):
        raise WhereError(
            f"--where {text!r}: expected NAME OP VALUE, with OP one of =, !=, <, <=, >, >= or ~ (holds the item), "
            "as holes>=2 or first_orders~76"
        )
    name, op, value = found.groups()
    names = sorted(known) if known is not None else None
    if names is not None and name not in names:
        facts = ", ".join(names) if names else "none"
        raise WhereError(f"--where {text!r}: the games do not give {name!r} (facts known: {facts})")
    return Condition(name, "=" if op == "==" else op, value)


def parse_where(texts: Sequence[str], known: Iterable[str] | None = None) -> tuple[Condition, ...]:
    names = None if known is None else list(known)
    return tuple(parse_condition(t, names) for t in texts)


def matches(conditions: Sequence[Condition], facts: Mapping[str, int | str] | None) -> bool:
    """Whether a game with ``facts`` meets every condition."""
    return all(c.holds(facts) for c in conditions)
