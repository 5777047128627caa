"""Java's view of text: ``Integer.parseInt`` overflow, ``Integer.valueOf``, ``String.trim()``, UTF-16 lengths.

The official referees parse numbers matched by ``\\d+`` with ``Integer.parseInt`` /
``Integer.valueOf``: a number above 2^31-1 throws, and the generic ``catch (Exception e)`` then
disqualifies the player with ``e.toString()`` as what it "got". Messages after an action are
trimmed with ``String.trim()`` and cut by ``String.length()``, which counts UTF-16 code units.
"""

from __future__ import annotations

import unicodedata

from .base import InvalidCommand

__all__ = ["JAVA_INT_MAX", "JAVA_INT_MIN", "parse_java_int", "java_value_of", "java_trim", "utf16_len", "cut_message"]

JAVA_INT_MAX = 2**31 - 1
JAVA_INT_MIN = -(2**31)
_TRIMMED = "".join(chr(c) for c in range(0x21))


def parse_java_int(digits: str, expected: str) -> int:
    """``Integer.parseInt(digits)`` for ASCII digits; overflow -> :class:`InvalidCommand`."""
    value = int(digits)
    if value > JAVA_INT_MAX:
        raise InvalidCommand(expected, f'java.lang.NumberFormatException: For input string: "{digits}"')
    return value


def java_value_of(text: str) -> int | None:
    """``Integer.valueOf(text)``, or ``None`` where Java throws ``NumberFormatException``.

    Java takes an optional ``+`` or ``-``, then at least one decimal digit, and nothing else (no
    spaces, no underscores); a digit is any character of Unicode category Nd (``Character.digit``
    looks at one UTF-16 unit at a time, so digits beyond the Basic Multilingual Plane are not); the
    value must fit a Java int.
    """
    digits, sign = text, 1
    if text[:1] in ("+", "-"):
        digits, sign = text[1:], -1 if text[0] == "-" else 1
    if not digits:
        return None
    value = 0
    for ch in digits:
        digit = unicodedata.decimal(ch, -1) if ord(ch) <= 0xFFFF else -1
        if digit < 0:
            return None
        value = value * 10 + digit
    value *= sign
    return value if JAVA_INT_MIN <= value <= JAVA_INT_MAX else None


def java_trim(text: str) -> str:
    """``String.trim()``: strips every character up to U+0020 at both ends."""
    return text.strip(_TRIMMED)


def utf16_len(text: str) -> int:
    """``String.length()``: UTF-16 code units."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def cut_message(message: str | None, *, trim: bool, limit: int = 48, keep: int = 46) -> str | None:
    """Optionally ``trim()``, then, if longer than ``limit`` UTF-16 units, keep the first ``keep``
    units and add ``...`` (a surrogate pair cut in half is dropped)."""
    if message is None:
        return None
    trimmed = java_trim(message) if trim else message
    if utf16_len(trimmed) <= limit:
        return trimmed
    head = trimmed.encode("utf-16-le", "surrogatepass")[: 2 * keep].decode("utf-16-le", "ignore")
    return head + "..."
