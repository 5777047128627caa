"""How close a bot's answers came to their time limit: each answer's time as a fraction of the
limit applied to it (the game's limit times the time scale), summed up as the share above
:data:`CLOSE_CALL` of the limit, the closest call (the largest fraction), and a histogram over
:data:`EDGES`.

Search bots answer near the limit by design, so a fixed threshold says little: the histogram
shows where the answers fall, answers past the limit (taken within a ``--time-margin``) in the
last bin (for users: docs/timing.md).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["CLOSE_CALL", "EDGES", "BIN_LABELS", "LimitUse", "applied_limit"]

CLOSE_CALL = 0.95
"""An answer above this fraction of its limit is a close call."""
EDGES = (0.5, 0.8, 0.9, CLOSE_CALL, 1.0)
"""The histogram's bin edges, fractions of the limit: bin ``i`` holds the answers above
``EDGES[i - 1]`` and up to ``EDGES[i]``; the last bin, the answers past the limit."""
BIN_LABELS = ("<=50%", "50-80%", "80-90%", "90-95%", "95-100%", ">100%")
"""One label per bin, for tables and CSV headers."""


def applied_limit(limit_ms: int, scale: float) -> float:
    """The limit applied to an answer: the game's ``limit_ms`` times the time scale, an ``int``
    when whole (a replay at ``--time-scale 2`` of a 50 ms limit says 100)."""
    applied = round(limit_ms * scale, 3)
    return int(applied) if applied == int(applied) else applied


@dataclass(frozen=True)
class LimitUse:
    """The answers of a bot (in one game or many) against their limits."""

    histogram: tuple[int, ...] = (0,) * (len(EDGES) + 1)
    """Answers per bin (see :data:`EDGES`)."""
    closest: float | None = None
    """The largest fraction of its limit an answer took (``None`` without answers)."""

    @classmethod
    def of(cls, fractions: Sequence[float]) -> LimitUse:
        """From each answer's time over its limit."""
        bins = [0] * (len(EDGES) + 1)
        for f in fractions:
            bins[bisect.bisect_left(EDGES, f)] += 1
        return cls(tuple(bins), round(max(fractions), 4) if fractions else None)

    @classmethod
    def merge(cls, uses: Iterable[LimitUse]) -> LimitUse:
        """The answers of all ``uses`` together."""
        bins = [0] * (len(EDGES) + 1)
        closest: float | None = None
        for use in uses:
            bins = [a + b for a, b in zip(bins, use.histogram, strict=True)]
            if use.closest is not None:
                closest = use.closest if closest is None else max(closest, use.closest)
        return cls(tuple(bins), closest)

    def to_dict(self) -> dict[str, Any]:
        """``{histogram, closest}`` (what a results database stores)."""
        return {"histogram": list(self.histogram), "closest": self.closest}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LimitUse:
        """The inverse of :meth:`to_dict`."""
        closest = data.get("closest")
        return cls(tuple(int(n) for n in data["histogram"]), None if closest is None else float(closest))

    def summary(self) -> dict[str, Any]:
        """The JSON form shown to users (``arena play --json``, ``arena results --format json``,
        ``arena matches show --format json``): ``above_95``, ``share_above_95``, ``closest``,
        ``past_limit``, ``histogram``."""
        share = self.share_above
        return {
            "above_95": self.above_close_call,
            "share_above_95": None if share is None else round(share, 4),
            "closest": self.closest,
            "past_limit": self.past_limit,
            "histogram": list(self.histogram),
        }

    @staticmethod
    def dumps(use: LimitUse | None) -> str | None:
        """The JSON text of :meth:`to_dict` (``None`` stays ``None``): a database column."""
        return None if use is None else json.dumps(use.to_dict())

    @staticmethod
    def loads(text: str | None) -> LimitUse | None:
        """The inverse of :meth:`dumps`."""
        return None if text is None else LimitUse.from_dict(json.loads(text))

    @property
    def answers(self) -> int:
        return sum(self.histogram)

    @property
    def above_close_call(self) -> int:
        """Answers above :data:`CLOSE_CALL` of their limit (those past it included)."""
        return self.histogram[-2] + self.histogram[-1]

    @property
    def past_limit(self) -> int:
        """Answers past their limit, taken within the time margin."""
        return self.histogram[-1]

    @property
    def share_above(self) -> float | None:
        """:attr:`above_close_call` over all answers (``None`` without answers)."""
        return self.above_close_call / self.answers if self.answers else None

    def describe(self) -> str:
        """``2.5% above 95% of the limit, closest call 97%`` (``no answers`` without any)."""
        if self.closest is None or self.share_above is None:
            return "no answers"
        past = f", {self.past_limit} past it (within the margin)" if self.past_limit else ""
        return f"{self.share_above:.1%} above 95% of the limit, closest call {self.closest:.0%}{past}"

    def bars(self) -> str:
        """A compact histogram: ``<=50% 120 | 50-80% 30 | ...`` (empty bins left out)."""
        return " | ".join(f"{label} {n}" for label, n in zip(BIN_LABELS, self.histogram, strict=True) if n)
