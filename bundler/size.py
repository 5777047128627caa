"""Size as CodinGame counts it: UTF-16 code units (a character outside the Basic Multilingual
Plane counts two), with its limits."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMIT", "WARN_AT", "utf16_units", "SizeReport"]

LIMIT = 100_000
"""CodinGame refuses a longer source."""
WARN_AT = 90_000


def utf16_units(text: str) -> int:
    """Length in UTF-16 code units (what the CodinGame editor counts)."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class SizeReport:
    """The bundle's size and each module's share of it."""

    total: int
    modules: tuple[tuple[str, int], ...]
    """(module file, units), in bundle order; the rest (header, loader) is the difference."""

    @classmethod
    def of(cls, text: str, parts: dict[str, str]) -> SizeReport:
        return cls(utf16_units(text), tuple((name, utf16_units(t)) for name, t in parts.items()))

    @property
    def over_limit(self) -> bool:
        return self.total > LIMIT

    @property
    def near_limit(self) -> bool:
        return WARN_AT < self.total <= LIMIT

    def lines(self) -> list[str]:
        """A readable table, biggest modules first."""
        width = max([len(n) for n, _ in self.modules] + [len("total")])
        out = [
            f"{name:<{width}}  {units:>7,}"
            for name, units in sorted(self.modules, key=lambda item: (-item[1], item[0]))
        ]
        other = self.total - sum(u for _, u in self.modules)
        if other:
            out.append(f"{'(header, glue)':<{width}}  {other:>7,}")
        out.append(f"{'total':<{width}}  {self.total:>7,} of {LIMIT:,} ({100 * self.total / LIMIT:.1f}%)")
        return out
