"""One head-to-head comparison: its games and pairs as they come (:class:`HeadToHead`) and
everything the report says about it (:class:`ComparisonStats`), from the first bot's side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .counts import SprtModel
from .elo import EloEstimate, elo_pentanomial, elo_trinomial, finite
from .sprt import SprtParams, SprtResult, sprt_test

__all__ = ["PAIR_BINS", "ComparisonStats", "HeadToHead"]

PAIR_BINS: tuple[str, ...] = ("LL", "LD", "WL+DD", "WD", "WW")
"""Names of the pentanomial bins, lowest pair score first (pair scores 0, 1/4, 1/2, 3/4, 1)."""


@dataclass(frozen=True)
class ComparisonStats:
    """Everything the results report needs about one comparison, from ``bots[0]``'s side.

    ``elo``, ``elo_ci95``, ``elo_lo``, ``elo_hi``, ``los``, ``score_se``, ``score_lo`` and
    ``score_hi`` come from the pentanomial model when there is at least one complete pair
    (``model == "pentanomial"``; unpaired games are then left out of them), from the trinomial
    model otherwise; both estimates are kept in ``trinomial`` and ``pentanomial``. They are
    ``None`` when there are no games. ``elo_ci95`` is the half-width of the 95% interval
    (``(elo_hi - elo_lo) / 2``, as fishtest reports it); the exact, asymmetric interval is
    ``[elo_lo, elo_hi]``.
    """

    bots: tuple[str, str]
    games: int
    wins: int
    draws: int
    losses: int
    score: float | None
    """(wins + draws / 2) / games over all games; ``None`` with no games."""
    draw_ratio: float | None
    """draws / games; ``None`` with no games."""
    pairs: int
    singles: int
    """Games not (yet) part of a complete pair; counted in the trinomial figures only."""
    penta: tuple[int, int, int, int, int]
    """Pair counts (LL, LD, WL+DD, WD, WW)."""
    model: str | None
    """``"pentanomial"``, ``"trinomial"`` or ``None`` (no games)."""
    elo: float | None
    elo_ci95: float | None
    elo_lo: float | None
    elo_hi: float | None
    los: float | None
    score_se: float | None
    score_lo: float | None
    score_hi: float | None
    trinomial: EloEstimate | None = field(repr=False)
    pentanomial: EloEstimate | None = field(repr=False)
    sprt: SprtResult | None = None

    @property
    def estimate(self) -> EloEstimate | None:
        """The estimate the headline figures come from."""
        return self.pentanomial if self.model == SprtModel.PENTANOMIAL else self.trinomial

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (non-finite floats such as an infinite Elo become ``None``)."""
        out: dict[str, Any] = {
            "bots": list(self.bots),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "draw_ratio": self.draw_ratio,
            "pairs": self.pairs,
            "singles": self.singles,
            "penta": list(self.penta),
            "model": self.model,
        }
        for name in ("elo", "elo_ci95", "elo_lo", "elo_hi", "los", "score_se", "score_lo", "score_hi"):
            out[name] = finite(getattr(self, name))
        if self.sprt is not None:
            sprt = self.sprt.to_dict()
            sprt["llr"] = finite(sprt["llr"])
            out["sprt"] = sprt
        return out


_SCORE_HALVES = {0.0: 0, 0.5: 1, 1.0: 2}


def _half_points(score: float) -> int:
    """0, 1 or 2 half-points for a game score of 0, 1/2 or 1."""
    try:
        return _SCORE_HALVES[float(score)]
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"a game score is 0, 0.5 or 1, not {score!r}") from None


class HeadToHead:
    """Accumulates the games of one comparison (``bots[0]`` against ``bots[1]``, scores from
    ``bots[0]``'s side) and summarises them with :meth:`stats`."""

    def __init__(self, bot_a: str = "A", bot_b: str = "B") -> None:
        self.bots: tuple[str, str] = (bot_a, bot_b)
        self._tri = [0, 0, 0]  # losses, draws, wins over all games
        self._penta = [0, 0, 0, 0, 0]
        self._singles = 0

    def add_pair(self, score_first: float, score_second: float) -> None:
        """A complete pair: the same seed played twice with the seats swapped (scores 0, 1/2, 1)."""
        h1, h2 = _half_points(score_first), _half_points(score_second)
        self._tri[h1] += 1
        self._tri[h2] += 1
        self._penta[h1 + h2] += 1

    def add_single(self, score: float) -> None:
        """A game whose pair is incomplete: counted in the trinomial figures only."""
        self._tri[_half_points(score)] += 1
        self._singles += 1

    @property
    def wins(self) -> int:
        return self._tri[2]

    @property
    def draws(self) -> int:
        return self._tri[1]

    @property
    def losses(self) -> int:
        return self._tri[0]

    @property
    def games(self) -> int:
        return sum(self._tri)

    @property
    def pairs(self) -> int:
        return sum(self._penta)

    @property
    def singles(self) -> int:
        return self._singles

    @property
    def penta(self) -> tuple[int, int, int, int, int]:
        p = self._penta
        return (p[0], p[1], p[2], p[3], p[4])

    def sprt(self, params: SprtParams) -> SprtResult:
        """The SPRT on the pair counts or the game counts, as ``params.model`` says."""
        counts: Sequence[int] = self.penta if params.model == SprtModel.PENTANOMIAL else tuple(self._tri)
        return sprt_test(counts, params)

    def stats(self, sprt: SprtParams | None = None) -> ComparisonStats:
        """The summary (see :class:`ComparisonStats`), with the SPRT when ``sprt`` is given."""
        tri = elo_trinomial(self.wins, self.draws, self.losses)
        pen = elo_pentanomial(self.penta)
        chosen = pen if pen is not None else tri
        games = self.games

        def pick(name: str) -> float | None:
            return None if chosen is None else getattr(chosen, name)

        return ComparisonStats(
            bots=self.bots,
            games=games,
            wins=self.wins,
            draws=self.draws,
            losses=self.losses,
            score=(self.wins + 0.5 * self.draws) / games if games else None,
            draw_ratio=self.draws / games if games else None,
            pairs=self.pairs,
            singles=self.singles,
            penta=self.penta,
            model=None if chosen is None else chosen.model,
            elo=pick("elo"),
            elo_ci95=pick("elo_ci95"),
            elo_lo=pick("elo_lo"),
            elo_hi=pick("elo_hi"),
            los=pick("los"),
            score_se=pick("se"),
            score_lo=pick("score_lo"),
            score_hi=pick("score_hi"),
            trinomial=tri,
            pentanomial=pen,
            sprt=None if sprt is None else self.sprt(sprt),
        )
