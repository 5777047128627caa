"""Charts drawn on the server as SVG text: nothing to load, nothing that runs in the page. Each
function returns markup built only from numbers and escaped labels."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

__all__ = ["Series", "Band", "line_chart", "interval_bar", "histogram", "heat_colour"]

WIDTH, HEIGHT = 560, 220
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 34


@dataclass(frozen=True)
class Series:
    """A line through ``points`` ((x, y), ``y`` ``None`` where undefined), with an optional band
    (``low``, ``high`` at each x) drawn behind it."""

    label: str
    points: Sequence[tuple[float, float | None]]
    colour: str = "#1f6feb"
    low: Sequence[float | None] | None = None
    high: Sequence[float | None] | None = None


@dataclass(frozen=True)
class Band:
    """A horizontal line across the chart at ``y`` (an SPRT bound, zero Elo)."""

    label: str
    y: float
    colour: str = "#999"


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    span = hi - lo or 1.0
    raw = span / count
    step = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 5, 10):
        if raw <= mult * step:
            step *= mult
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def _num(x: float) -> str:
    return f"{x:.1f}"


def line_chart(
    series: Sequence[Series],
    bands: Sequence[Band] = (),
    *,
    x_label: str = "games",
    y_label: str = "",
    points: Sequence[tuple[float, float, float, float]] = (),
    empty: str = "no games yet",
) -> Markup:
    """A chart of ``series`` over a shared x axis with horizontal ``bands``; ``points`` are
    (x, y, low, high) drawn as dots with error bars (a sweep). An empty chart says so."""
    xs = [x for s in series for x, y in s.points if y is not None] + [p[0] for p in points]
    ys = [y for s in series for _, y in s.points if y is not None]
    for s in series:
        ys += [v for v in (*(s.low or ()), *(s.high or ())) if v is not None]
    ys += [b.y for b in bands] + [v for p in points for v in p[1:]]
    if not xs:
        return Markup(f'<p class="empty">{html.escape(empty)}</p>')
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    pad = (y1 - y0) * 0.08 or 1.0
    y0, y1 = y0 - pad, y1 + pad
    w, h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (x - x0) / (x1 - x0) * w

    def py(y: float) -> float:
        return TOP + (y1 - y) / (y1 - y0) * h

    out = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" xmlns="http://www.w3.org/2000/svg">']
    for t in _ticks(y0, y1):
        out.append(f'<line class="grid" x1="{LEFT}" x2="{LEFT + w}" y1="{_num(py(t))}" y2="{_num(py(t))}"/>')
        out.append(f'<text class="tick" x="{LEFT - 4}" y="{_num(py(t) + 4)}" text-anchor="end">{t:g}</text>')
    for t in _ticks(x0, x1):
        out.append(f'<text class="tick" x="{_num(px(t))}" y="{TOP + h + 14}" text-anchor="middle">{t:g}</text>')
    out.append(
        f'<text class="axis" x="{LEFT + w / 2}" y="{HEIGHT - 4}" text-anchor="middle">{html.escape(x_label)}</text>'
    )
    if y_label:
        out.append(
            f'<text class="axis" transform="translate(12 {TOP + h / 2}) rotate(-90)" text-anchor="middle">'
            f"{html.escape(y_label)}</text>"
        )
    for b in bands:
        out.append(
            f'<line class="band" stroke="{b.colour}" x1="{LEFT}" x2="{LEFT + w}" y1="{_num(py(b.y))}" '
            f'y2="{_num(py(b.y))}"><title>{html.escape(b.label)}</title></line>'
        )
    for s in series:
        if s.low is not None and s.high is not None:
            upper = [(x, hi) for (x, _), hi in zip(s.points, s.high) if hi is not None]
            lower = [(x, lo) for (x, _), lo in zip(s.points, s.low) if lo is not None]
            if upper and lower:
                ring = upper + lower[::-1]
                path = " ".join(f"{_num(px(x))},{_num(py(y))}" for x, y in ring)
                out.append(f'<polygon class="interval" fill="{s.colour}" points="{path}"/>')
        line = " ".join(f"{_num(px(x))},{_num(py(y))}" for x, y in s.points if y is not None)
        title = f"<title>{html.escape(s.label)}</title>"
        out.append(f'<polyline class="line" stroke="{s.colour}" points="{line}">{title}</polyline>')
    for x, y, lo, hi in points:
        out.append(
            f'<line class="errorbar" x1="{_num(px(x))}" x2="{_num(px(x))}" y1="{_num(py(lo))}" y2="{_num(py(hi))}"/>'
        )
        out.append(f'<circle class="dot" cx="{_num(px(x))}" cy="{_num(py(y))}" r="3.5"/>')
    out.append("</svg>")
    return Markup("".join(out))


def interval_bar(value: float | None, low: float | None, high: float | None, scale: float) -> Markup:
    """A small bar of an estimate and its interval on a symmetric scale ``[-scale, scale]`` (ends
    beyond it, or undefined, are drawn to the edge with an arrow)."""
    if value is None:
        return Markup("")
    width, mid = 120.0, 60.0

    def at(x: float | None, edge: float) -> float:
        if x is None or not math.isfinite(x):
            return edge
        return max(0.0, min(width, mid + x / scale * mid))

    lo, hi, v = at(low, 0.0), at(high, width), at(value, mid if value == 0 else (width if value > 0 else 0.0))
    return Markup(
        f'<svg class="ibar" viewBox="0 0 {width:g} 12" width="{width:g}" height="12" xmlns="http://www.w3.org/2000/svg">'
        f'<line class="zero" x1="{mid:g}" x2="{mid:g}" y1="0" y2="12"/>'
        f'<rect class="span" x="{_num(lo)}" y="3" width="{_num(max(hi - lo, 1.0))}" height="6"/>'
        f'<rect class="point" x="{_num(v - 1)}" y="1" width="2" height="10"/></svg>'
    )


def heat_colour(score: float | None) -> str:
    """The background of a cross-table cell: red for 0% through white at 50% to green at 100%."""
    if score is None:
        return "transparent"
    s = max(0.0, min(1.0, score))
    if s < 0.5:
        t = s / 0.5
        return f"rgb(230,{int(120 + 135 * t)},{int(120 + 135 * t)})"
    t = (s - 0.5) / 0.5
    return f"rgb({int(255 - 135 * t)},{int(255 - 35 * t)},{int(255 - 135 * t)})"


def histogram(labels: Sequence[str], counts: Sequence[int]) -> Markup:
    """Small vertical bars, one per bin, each titled with its label and count."""
    width, height, gap = 22, 36, 3
    top = max(counts, default=0) or 1
    out = [
        f'<svg class="hist" viewBox="0 0 {len(counts) * width} {height + 12}" width="{len(counts) * width}" '
        f'height="{height + 12}" xmlns="http://www.w3.org/2000/svg">'
    ]
    for i, (label, n) in enumerate(zip(labels, counts)):
        h = height * n / top
        out.append(
            f'<rect x="{i * width + gap / 2}" y="{_num(height - h)}" width="{width - gap}" height="{_num(h)}">'
            f"<title>{html.escape(label)}: {n}</title></rect>"
        )
        out.append(f'<text x="{i * width + width / 2}" y="{height + 10}" text-anchor="middle">{i + 1}</text>')
    out.append("</svg>")
    return Markup("".join(out))
