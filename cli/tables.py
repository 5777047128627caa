"""Text tables: rows of cells laid out in columns, the one way every command prints a table.

A table is a list of :class:`Column` specs (title, alignment, minimum width) and rows of text
cells; :func:`render` lays out the header and the rows with the same widths (each column as wide
as its widest cell, title included), so they stay in line whatever the values. Columns are two
blanks apart and no line ends in blanks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["SEP", "Column", "widths", "render_row", "render"]

SEP = "  "
"""Between two columns."""


@dataclass(frozen=True)
class Column:
    """One column of a table: its title, alignment (``"<"`` or ``">"``) and minimum width."""

    title: str
    align: str = ">"
    width: int = 0


def widths(columns: Sequence[Column], rows: Sequence[Sequence[str]], *, titles: bool = True) -> list[int]:
    """Each column's width: the widest of its minimum, its title (unless ``titles`` is false: a
    table without a header) and its cells."""
    return [
        max(col.width, len(col.title) if titles else 0, *(len(row[i]) for row in rows)) for i, col in enumerate(columns)
    ]


def render_row(columns: Sequence[Column], cells: Sequence[str], sizes: Sequence[int], indent: str = "") -> str:
    """One line: each cell padded to its column's width and alignment (no trailing blanks)."""
    parts = [format(cell, f"{col.align}{size}") for col, cell, size in zip(columns, cells, sizes)]
    return (indent + SEP.join(parts)).rstrip()


def render(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], indent: str = "", *, header: bool = True
) -> list[str]:
    """The header line (unless ``header`` is false) and one line per row, all with the same widths."""
    sizes = widths(columns, rows, titles=header)
    lines = [render_row(columns, row, sizes, indent) for row in rows]
    return [render_row(columns, [c.title for c in columns], sizes, indent), *lines] if header else lines
