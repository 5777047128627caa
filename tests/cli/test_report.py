"""What ``arena results`` prints on small or degenerate samples, and that its columns line up.

The standings are built by hand as the typed records :func:`arena.standings.tournament.standings`
returns (a comparison is a :class:`PairStanding` around :class:`arena.stats.ComparisonStats`;
infinities are floats there, as computed, and ``None`` in the JSON: both must show the same). The
figures in them are worked out next to each case with z = 1.959964 and
Elo(mu) = -400 log10(1/mu - 1); the expected text is laid out by hand.
"""

from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

import pytest

from arena.match.protocol.latency import LimitUse
from arena.standings.health import BotHealth, Latency
from arena.standings.ranking import Played, Ranking, rank
from arena.standings.tournament import (
    PairStanding,
    Standings,
    SweepRanking,
    SweepVariant,
    TableStandings,
    TournamentInfo,
)
from arena.standings.tracker import TableStanding
from arena.stats import ComparisonStats
from arena.stats.sprt import SprtParams, SprtResult, SprtState
from arena.stats.sweep import SweepPoint
from cli.report import comparison_table, print_standings

LN_03_07 = -0.8472978603872036  # ln(0.3 / 0.7): alpha = beta = 0.3
LN_005_095 = -2.9444389791664403  # ln(0.05 / 0.95): alpha = beta = 0.05
INF = math.inf


def comparison(penta: list[int], wins: int, draws: int, losses: int, **figures: Any) -> PairStanding:
    """A comparison of greedy against random; ``figures`` are the estimate's fields."""
    games = wins + draws + losses
    values: dict[str, Any] = dict.fromkeys(
        ("elo", "elo_ci95", "elo_lo", "elo_hi", "los", "score_se", "score_lo", "score_hi")
    )
    values.update(figures)
    stats = ComparisonStats(
        bots=("greedy", "random"),
        games=games,
        wins=wins,
        draws=draws,
        losses=losses,
        score=(wins + draws / 2) / games if games else None,
        draw_ratio=draws / games if games else None,
        pairs=sum(penta),
        singles=games - 2 * sum(penta),
        penta=(penta[0], penta[1], penta[2], penta[3], penta[4]),
        model="pentanomial" if sum(penta) else ("trinomial" if games else None),
        trinomial=None,
        pentanomial=None,
        **values,
    )
    return PairStanding(index=0, stats=stats, decision=None, decided_at_pair=None, games_stored=games)


def with_stats(c: PairStanding, **changes: Any) -> PairStanding:
    return dataclasses.replace(c, stats=dataclasses.replace(c.stats, **changes))


Z = 1.959963984540054  # Phi^-1(0.975)


def elo_of(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


def draws_half(n: int) -> float:
    """Half-width of Wilson's interval at a score of 1/2 over n samples: z / (2 sqrt(n + z^2))."""
    return Z / (2 * math.sqrt(n + Z * Z))


# One pair, both games won: mu = 1, SE 0, Elo +inf; Wilson's lower end n / (n + z^2) =
# 1 / 4.841459 = 0.206549, Elo -233.80: shown "> -233.8"; exact LOS 1 - 2^-2 = 75%.
ALL_WINS_2 = comparison(
    [0, 0, 0, 0, 1], 2, 0, 0, elo=INF, elo_ci95=INF, elo_lo=elo_of(1 / (1 + Z * Z)), elo_hi=INF, los=0.75,
    score_se=0.0, score_lo=1 / (1 + Z * Z), score_hi=1.0,
)  # fmt: skip
# Two pairs lost: mu = 0, SE 0, Elo -inf; Wilson's upper end z^2 / (2 + z^2) = 0.657620, Elo
# +113.39: shown "< +113.4"; exact LOS 2^-3 = 12.5%.
ALL_LOSSES_4 = comparison(
    [2, 0, 0, 0, 0], 0, 0, 4, elo=-INF, elo_ci95=INF, elo_lo=-INF, elo_hi=elo_of(Z * Z / (2 + Z * Z)), los=0.125,
    score_se=0.0, score_lo=0.0, score_hi=Z * Z / (2 + Z * Z),
)  # fmt: skip
# Two pairs of draws: mu = 1/2, variance 0: Elo(1/2) = -0.0; Wilson's 1/2 -+ 0.405469, Elo
# -+392.52; LOS 1/2.
ALL_DRAWS_4 = comparison(
    [0, 0, 2, 0, 0], 0, 4, 0, elo=-0.0, elo_ci95=elo_of(0.5 + draws_half(2)), elo_lo=-elo_of(0.5 + draws_half(2)),
    elo_hi=elo_of(0.5 + draws_half(2)), los=0.5, score_se=0.0, score_lo=0.5 - draws_half(2),
    score_hi=0.5 + draws_half(2),
)  # fmt: skip
# One pair won once by each side (two games): one sample, variance 0: Wilson's 1/2 -+ 0.445378,
# Elo -+495.30.
ONE_PAIR_WL = comparison(
    [0, 0, 1, 0, 0], 1, 0, 1, elo=-0.0, elo_ci95=elo_of(0.5 + draws_half(1)), elo_lo=-elo_of(0.5 + draws_half(1)),
    elo_hi=elo_of(0.5 + draws_half(1)), los=0.5, score_se=0.0, score_lo=0.5 - draws_half(1),
    score_hi=0.5 + draws_half(1),
)  # fmt: skip
# No game yet.
NO_GAMES = comparison([0, 0, 0, 0, 0], 0, 0, 0)
# Pairs LL and WW: mu = 1/2, variance 1/4, SE = sqrt(1/4 / 2) = 0.35355; mu -+ z SE = 0.5 -+ 0.69296
# leaves [0, 1], so the interval is Wilson's: 1/2 -+ 0.405469, Elo -+392.52; LOS Phi(0) = 1/2.
SPLIT_PAIRS = comparison(
    [1, 0, 0, 0, 1], 2, 0, 2, elo=-0.0, elo_ci95=elo_of(0.5 + draws_half(2)), elo_lo=-elo_of(0.5 + draws_half(2)),
    elo_hi=elo_of(0.5 + draws_half(2)), los=0.5, score_se=0.3535533905932738, score_lo=0.5 - draws_half(2),
    score_hi=0.5 + draws_half(2),
)  # fmt: skip
# Pairs LD, WL, WD (scores 1/4, 1/2, 3/4): mu = 1/2, variance (1/16 + 0 + 1/16) / 3 = 1/24,
# SE = sqrt(1/24 / 3) = 0.117851, z SE = 0.230984: [0.269016, 0.730984], Elo -+173.652, half-width
# 173.652; LOS Phi(0) = 1/2.
FINITE = comparison(
    [0, 1, 1, 1, 0],
    2,
    2,
    2,
    elo=-0.0,
    elo_ci95=173.65187822476236,
    elo_lo=-173.6518782247623,
    elo_hi=173.65187822476238,
    los=0.5,
    score_se=0.11785113019775792,
    score_lo=0.2690160292750537,
    score_hi=0.7309839707249464,
)


def sprt(state: str, llr: float, samples: int, bound: float, model: str = "pentanomial") -> SprtResult:
    alpha = 0.3 if bound == LN_03_07 else 0.05
    params = SprtParams(0.0, 5.0, alpha, alpha, model)
    return SprtResult(llr, bound, -bound, SprtState(state), params, samples)


def bot(name: str, games: int, latency: Latency | None = None, **extra: Any) -> BotHealth:
    values: dict[str, Any] = {
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "timeouts": 0,
        "crashes": 0,
        "invalid": 0,
        "refused": 0,
        "limit_use": LimitUse(),
    }
    values.update(extra)
    latency = latency or Latency(0.25, 14.04, 28.9)
    return BotHealth(name=name, games=games, answers=10 * games, latency=latency, source_hash="x", **values)


NO_RANKING = Ranking((), {}, 0, "bradley-terry (maximum likelihood, Elo scale)")
"""The ranking of no game: its section is not printed."""


def ranked(pairs: list[tuple[float, float]]) -> Ranking:
    """The ranking of greedy and random over pairs of games, greedy's scores (the seats swapped
    in the second game of each pair), by the ranking of the library (its figures are checked
    against a second fit in the tests of :mod:`arena.standings`)."""
    games = []
    for pair, scores in enumerate(pairs):
        for leg, score in enumerate(scores):
            seats, ranks = ("greedy", "random"), (int(score < 0.5), int(score > 0.5))
            games.append(Played(0, pair, leg, seats if leg == 0 else seats[::-1], ranks if leg == 0 else ranks[::-1]))
    return rank(games, [("greedy", "active"), ("random", "active")], bots_of={0: ("greedy", "random")})


def data(comparisons: list[Any], bots: list[BotHealth], stored: int, players: int = 2, **extra: Any) -> Standings:
    info = TournamentInfo(3, "finished", "spring2021", "gauntlet", stored, 4, "v", 0.0, 0.0, {}, players)
    extra.setdefault("ranking", NO_RANKING)
    return Standings(tournament=info, comparisons=tuple(comparisons), bots=tuple(bots), **extra)


def report(capsys: pytest.CaptureFixture[str], d: Standings) -> list[str]:
    print_standings(d)
    return capsys.readouterr().out.splitlines()


CELL = re.compile(r"\S+(?: \S+)*")  # cells are apart by two blanks or more; a cell holds single blanks


def spans(line: str) -> list[tuple[int, int]]:
    return [m.span() for m in CELL.finditer(line)]


def assert_in_line(header: str, rows: list[str], aligns: str) -> None:
    """Each row has a cell under each title: left-aligned columns start where their title starts,
    right-aligned ones end where their title ends."""
    titles = spans(header)
    assert len(titles) == len(aligns), header
    for row in rows:
        cells = spans(row)
        assert len(cells) == len(titles), (header, row)
        for (ts, te), (cs, ce), align in zip(titles, cells, aligns):
            if align == "<":
                assert cs == ts, (header, row)
            else:
                assert ce == te, (header, row)


def cells(line: str) -> list[str]:
    return [m.group() for m in CELL.finditer(line)]


# --------------------------------------------------------------------------- the comparison line

# comparison, games, W-D-L, score, Elo, 95%, LOS, penta
COMPARISON_ALIGNS = "<><>><><"


@pytest.mark.parametrize(
    "c,score,elo,ci,los",
    [
        pytest.param(ALL_WINS_2, "100.0%", "> -233.8", "n/a", "75.0%", id="100%-after-2-games"),
        pytest.param(ALL_LOSSES_4, "0.0%", "< +113.4", "n/a", "12.5%", id="0%"),
        pytest.param(
            with_stats(ALL_LOSSES_4, elo=None, elo_ci95=None), "0.0%", "< +113.4", "n/a", "12.5%", id="0%-as-in-json"
        ),
        pytest.param(ALL_DRAWS_4, "50.0%", "+0.0", "±392.5", "50.0%", id="all-draws"),
        pytest.param(ONE_PAIR_WL, "50.0%", "+0.0", "±495.3", "50.0%", id="one-pair-split"),
        pytest.param(NO_GAMES, "n/a", "n/a", "n/a", "n/a", id="no-games"),
        pytest.param(SPLIT_PAIRS, "50.0%", "+0.0", "±392.5", "50.0%", id="interval-clamped"),
        pytest.param(FINITE, "50.0%", "+0.0", "±173.7", "50.0%", id="finite"),
    ],
)
def test_edge_figures_are_bounds_never_inf(c: PairStanding, score: str, elo: str, ci: str, los: str) -> None:
    """Issue #34 point 12: a 100% (0%) score shows its Elo as the interval's finite end, no
    interval is ever ``±inf``, the LOS of a sample without spread is a number (exact)."""
    line = comparison_table([c])[1]
    games, wdl = str(c.stats.games), f"{c.stats.wins}-{c.stats.draws}-{c.stats.losses}"
    penta = "[" + ", ".join(map(str, c.stats.penta)) + "]"
    assert cells(line) == ["greedy vs random", games, wdl, score, elo, ci, los, penta]
    assert "±-" not in line and "± 0.0" not in line and "±0.0" not in line and "-0.0" not in line
    assert "inf" not in line


def test_the_table_of_degenerate_cases_is_in_line(capsys: pytest.CaptureFixture[str]) -> None:
    comps = [ALL_WINS_2, ALL_LOSSES_4, ALL_DRAWS_4, NO_GAMES, FINITE]
    lines = report(capsys, data(comps, [bot("greedy", 12), bot("random", 12)], 12))
    assert lines[0] == "tournament 3 (finished): spring2021, gauntlet, 12 games stored"
    header, rows = lines[1], lines[2:7]
    assert cells(header) == ["comparison", "games", "W-D-L", "score", "Elo", "95%", "LOS", "penta"]
    assert_in_line(header, rows, COMPARISON_ALIGNS)
    assert lines[7] == ""
    # laid out by hand: widths 16 (the names), 5, 5, 6, 8 ("> -233.8"), 6 ("±173.7"), 6, 15
    assert rows[0] == "greedy vs random      2  2-0-0  100.0%  > -233.8  n/a      75.0%  [0, 0, 0, 0, 1]"
    assert rows[3] == "greedy vs random      0  0-0-0     n/a       n/a  n/a        n/a  [0, 0, 0, 0, 0]"
    assert rows[4] == "greedy vs random      6  2-2-2   50.0%      +0.0  ±173.7   50.0%  [0, 1, 1, 1, 0]"


# --------------------------------------------------------------------------- SPRT wording, counts


def test_sprt_is_worded_as_the_state_describes_itself() -> None:
    assert [s.describe() for s in SprtState] == ["continue", "H0 accepted", "H1 accepted"]
    running = with_stats(FINITE, sprt=sprt("continue", 0.31, 3, LN_005_095))
    assert cells(comparison_table([running])[1])[-1] == "continue after 3 pairs, LLR 0.31 [-2.94, 2.94]"
    # the trinomial test counts games: 6 games of complete pairs are 3 pairs
    trinomial = with_stats(FINITE, sprt=sprt("continue", 0.31, 6, LN_005_095, model="trinomial"))
    assert cells(comparison_table([trinomial])[1])[-1] == "continue after 3 pairs, LLR 0.31 [-2.94, 2.94]"
    one = with_stats(ALL_WINS_2, sprt=sprt("continue", 0.03, 1, LN_005_095))
    assert cells(comparison_table([one])[1])[-1] == "continue after 1 pair, LLR 0.03 [-2.94, 2.94]"
    assert "running" not in comparison_table([running])[1]


def test_a_decided_sprt_with_games_after_it_says_which_games_count(capsys: pytest.CaptureFixture[str]) -> None:
    # greedy won both pairs; the SPRT (alpha = beta = 0.3, bounds -+0.847) accepted H1 on 2 pairs,
    # and a fifth game, already running, was stored but is not counted.
    # Two WW pairs: Wilson's lower end 2 / (2 + z^2) = 0.342380, Elo -113.39; LOS 1 - 2^-3.
    won = comparison(
        [0, 0, 0, 0, 2], 4, 0, 0, elo=INF, elo_ci95=INF, elo_lo=elo_of(2 / (2 + Z * Z)), elo_hi=INF, los=0.875,
        score_se=0.0, score_lo=2 / (2 + Z * Z), score_hi=1.0,
    )  # fmt: skip
    decided = dataclasses.replace(
        with_stats(won, sprt=sprt("H1", 1.2, 2, LN_03_07)), decision="H1", decided_at_pair=2, games_stored=5
    )
    ranking = ranked([(1, 1), (1, 1)])  # the counted games only
    lines = report(capsys, data([decided], [bot("greedy", 5), bot("random", 5, refused=2)], 5, ranking=ranking))
    assert lines[0] == (
        "tournament 3 (finished): spring2021, gauntlet, 4 counted of 5 games stored "
        "(games played after an SPRT decision are not counted)"
    )
    assert lines[1] == (
        "comparison        counted  stored  W-D-L   score       Elo  95%        LOS  penta            SPRT"
    )
    assert lines[2] == (
        "greedy vs random        4       5  4-0-0  100.0%  > -113.4  n/a      87.5%  [0, 0, 0, 0, 2]  "
        "H1 accepted after 2 pairs, LLR 1.20 [-0.85, 0.85]"
    )
    assert lines[3] == ""
    assert lines[4] == "bots, over all 5 stored games:"
    assert lines[5].split()[:9] == [
        "bot",
        "games",
        "timeouts",
        "crashes",
        "invalid",
        "refused",
        "overloaded",
        ">95%",
        "limit",
    ]
    assert cells(lines[6])[:7] == ["greedy", "5", "0", "0", "0", "0", "0"]
    assert cells(lines[7])[:7] == ["random", "5", "0", "0", "0", "2", "0"]
    assert lines[8] == ""
    assert lines[9] == "ranking (Bradley-Terry, Elo scale, counted games only):"
    # two won pairs, by the second fit (tests.helpers.bradley_terry): greedy +234.94 Elo, interval
    # [-59.90, +529.77], P(above random) 0.9408; random the mirror image
    assert lines[10:13] == [
        "rank  bot     rating  95% interval  games   score  P(above next)",
        "   1  greedy    +235  [-60, +530]       4  100.0%           0.94",
        "   2  random    -235  [-530, +60]       4    0.0%",
    ]
    assert len(lines) == 13


def test_counts_agree_when_every_game_counts(capsys: pytest.CaptureFixture[str]) -> None:
    running = with_stats(FINITE, sprt=sprt("continue", 0.31, 3, LN_005_095))
    lines = report(
        capsys,
        data(
            [running],
            [bot("greedy", 6), bot("random", 6)],
            6,
            ranking=ranked([(0, 0.5), (1, 0), (1, 0.5)]),
        ),
    )
    assert lines[0].endswith(", 6 games stored")
    assert cells(lines[1])[1] == "games" and cells(lines[2])[1] == "6"
    assert "stored" not in lines[1] and "counted" not in "\n".join(lines)
    assert lines[4].startswith("bot ")
    assert "ranking (Bradley-Terry, Elo scale):" in lines


# --------------------------------------------------------------------------- other tables


def test_bot_table_is_in_line_with_refused_and_undefined_latency(capsys: pytest.CaptureFixture[str]) -> None:
    silent = bot("a-bot-with-a-long-name-indeed", 0, latency=Latency(None, None, None))
    # 200 answers, 3 + 1 of them above 95% of their limit (one past it, within a margin): 2.0%
    use = LimitUse((150, 30, 10, 6, 3, 1), 1.02)
    greedy = bot("greedy", 123, timeouts=12, refused=7, overloaded_timeouts=4, limit_use=use)
    lines = report(capsys, data([NO_GAMES], [greedy, silent], 0))
    header, rows = lines[4], lines[5:7]
    assert cells(header) == [
        "bot",
        "games",
        "timeouts",
        "crashes",
        "invalid",
        "refused",
        "overloaded",
        ">95% limit",
        "closest",
        "latency ms median / p99 / max",
    ]
    assert_in_line(header, rows, "<>>>>>>>><")
    assert cells(rows[0]) == ["greedy", "123", "12", "0", "0", "7", "4", "2.0% (1 past)", "102%", "0.2 / 14.0 / 28.9"]
    assert cells(rows[1])[-3:] == ["n/a", "n/a", "n/a"]
    assert lines[7] == "answers by share of their time limit:"
    assert lines[8] == "  greedy  <=50% 150 | 50-80% 30 | 80-90% 10 | 90-95% 6 | 95-100% 3 | >100% 1"
    assert lines[9] == (
        "4 timeouts in an overloaded window (the machine, not the bot: not counted as failures): "
        "run fewer workers or use --time-scale"
    )


def test_n_player_tables_are_in_line(capsys: pytest.CaptureFixture[str]) -> None:
    rows = (
        TableStanding(bot="a", games=1, firsts=1, mean_rank=1.0, mean_score=12.0),
        TableStanding(bot="b", games=1, firsts=0, mean_rank=2.5, mean_score=3.25),
        TableStanding(bot="c", games=0, firsts=0, mean_rank=None, mean_score=None),
    )
    table = TableStandings(index=0, bots=("a", "b", "c"), games_stored=1, rows=rows)
    d = data(
        [table],
        [
            bot("a", 1, eliminated=0, mean_rank=1.0),
            bot("b", 1, eliminated=1, mean_rank=2.5),
            bot("c", 0, eliminated=0, mean_rank=None),
        ],
        1,
        players=3,
    )
    lines = report(capsys, d)
    assert lines[0] == "tournament 3 (finished): spring2021, gauntlet, 1 game stored"
    assert lines[1] == "table 0: a, b, c (1 game)"
    assert_in_line(lines[2], lines[3:6], "<>>>>")
    assert lines[2] == "  bot  games  firsts  mean rank  mean score"
    assert lines[4] == "  b        1       0       2.50         3.2"
    assert lines[5] == "  c        0       0        n/a         n/a"
    assert_in_line(lines[7], lines[8:11], "<>>>>>>>>>><")
    assert cells(lines[7])[9:11] == ["elim.", "mean rank"]
    assert cells(lines[10])[9:11] == ["0", "n/a"]


def test_sweep_ranking_is_in_line_with_undefined_figures(capsys: pytest.CaptureFixture[str]) -> None:
    def point(rank: int, variant: str, games: int, sprt_state: str | None, **fig: Any) -> SweepVariant:
        figures: dict[str, Any] = dict.fromkeys(("score", "score_lo", "score_hi", "elo", "elo_ci95", "los"))
        figures.update(fig)
        return SweepVariant(rank, {}, SweepPoint(variant, None, games, sprt_state=sprt_state, **figures))

    ranking = [
        # standings() gives a sweep point's infinities as floats (None in the JSON); one WW pair
        point(
            1,
            "g[day=18]",
            2,
            "H1",
            score=1.0,
            score_lo=1 / (1 + Z * Z),
            score_hi=1.0,
            elo=math.inf,
            elo_ci95=math.inf,
            los=0.75,
        ),
        point(
            2,
            "g[day=12]",
            6,
            "continue",
            score=0.5,
            score_lo=0.2690160292750537,
            score_hi=0.7309839707249464,
            elo=-0.0,
            elo_ci95=173.65187822476236,
            los=0.5,
        ),
        point(
            3,
            "g[day=9]",
            4,
            "H0",
            score=0.5,
            score_lo=0.5 - draws_half(2),
            score_hi=0.5 + draws_half(2),
            elo=-0.0,
            elo_ci95=elo_of(0.5 + draws_half(2)),
            los=0.5,
        ),
        point(4, "g[day=6]", 0, None),
    ]
    grid = {"day": ["6", "9", "12", "18"]}
    sweep = SweepRanking(bot="g", grid=grid, parameter="day", baseline="base", ranking=tuple(ranking))
    lines = report(capsys, data([NO_GAMES], [bot("g", 0)], 0, sweep=sweep))
    at = lines.index("sweep of g against base, best first:")
    header, rows = lines[at + 1], lines[at + 2 : at + 6]
    assert cells(header) == ["variant", "games", "score", "score 95%", "Elo", "95%", "SPRT"]
    assert_in_line(header, rows[:3], "<>><><<")  # the last has no SPRT cell
    assert cells(rows[0]) == ["1. g[day=18]", "2", "100.0%", "[20.7, 100.0]%", "> -233.8", "n/a", "H1 accepted"]
    assert cells(rows[1]) == ["2. g[day=12]", "6", "50.0%", "[26.9, 73.1]%", "+0.0", "±173.7", "continue"]
    assert cells(rows[2]) == ["3. g[day=9]", "4", "50.0%", "[9.5, 90.5]%", "+0.0", "±392.5", "H0 accepted"]
    assert cells(rows[3]) == ["4. g[day=6]", "0", "n/a", "n/a", "n/a", "n/a"]
    assert rows[0].startswith("  1. g[day=18]")
