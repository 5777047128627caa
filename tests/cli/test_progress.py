"""``cli.progress``: log lines instead of a bar when the output is not a terminal; the
figures in them, hand-computed; the bar on a terminal."""

from __future__ import annotations

import io

import pytest

from arena.stats import ComparisonStats, HeadToHead
from arena.stats.sprt import SprtParams
from cli.progress import Progress, format_duration, progress_line


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def singles(wins: int, draws: int, losses: int, sprt: SprtParams | None = None) -> ComparisonStats:
    """Stats of unpaired games (the trinomial model): figures that are easy to compute by hand."""
    h = HeadToHead("greedy", "wait")
    for score, n in ((1.0, wins), (0.5, draws), (0.0, losses)):
        for _ in range(n):
            h.add_single(score)
    return h.stats(sprt)


def pairs(*scores: tuple[float, float], sprt: SprtParams | None = None) -> ComparisonStats:
    h = HeadToHead("greedy", "wait")
    for first, second in scores:
        h.add_pair(first, second)
    return h.stats(sprt)


def lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def make(
    stream: io.StringIO,
    clock: FakeClock,
    total: int = 400,
    initial: int = 0,
    *,
    interactive: bool | None = None,
    every_seconds: float = 10.0,
    every_games: int | None = None,
) -> Progress:
    return Progress(
        stream,
        total,
        initial,
        interactive=interactive,
        every_seconds=every_seconds,
        every_games=every_games,
        clock=clock,
    )


# --------------------------------------------------------------------------- when lines appear


def test_stringio_is_not_a_terminal_so_lines_not_a_bar() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock)
    assert not p.interactive and p.bar is None


def test_a_line_only_after_the_interval() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, every_seconds=10.0, every_games=1000)
    for done, t in ((1, 3.0), (2, 6.0), (3, 9.9)):
        clock.now = 1000.0 + t
        p.update(done, 400, None)
    assert lines(stream) == []
    clock.now = 1010.0
    p.update(4, 400, None)
    assert len(lines(stream)) == 1 and lines(stream)[0].startswith("progress: 4/400 games (1%)")
    clock.now = 1019.0  # 9 s after the last line
    p.update(5, 400, None)
    assert len(lines(stream)) == 1
    clock.now = 1020.0
    p.update(6, 400, None)
    assert [line.split(",")[0] for line in lines(stream)] == [
        "progress: 4/400 games (1%)",
        "progress: 6/400 games (1%)",
    ]


def test_a_line_every_n_games() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, every_seconds=1e9, every_games=5)
    for done in range(1, 13):
        clock.now += 0.1
        p.update(done, 400, None)
    assert [line.split(",")[0] for line in lines(stream)] == [
        "progress: 5/400 games (1%)",
        "progress: 10/400 games (2%)",
    ]


def test_default_every_games_is_a_twentieth_of_this_runs_games() -> None:
    stream, clock = io.StringIO(), FakeClock()
    assert make(stream, clock, total=400, initial=100).every_games == 15
    assert make(stream, clock, total=10, initial=0).every_games == 1


def test_the_final_line_always_appears_once() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, total=10, every_seconds=1e9, every_games=1000)
    for done in range(1, 10):
        clock.now += 1.0
        p.update(done, 10, None)
    assert lines(stream) == []
    clock.now += 1.0
    p.update(10, 10, None)
    p.update(10, 10, None)
    p.close()
    assert lines(stream) == ["progress: 10/10 games (100%), 1.0 games/s, took 10s"]


def test_the_final_line_when_sprt_decisions_shrink_the_total() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, total=400, every_seconds=1e9, every_games=1000)
    clock.now += 5.0
    p.update(60, 60, None)
    assert lines(stream) == ["progress: 60/60 games (100%), 12.0 games/s, took 5s"]


def test_close_writes_the_last_unwritten_state() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, every_seconds=1e9, every_games=1000)
    clock.now += 4.0
    p.update(8, 400, None)
    assert lines(stream) == []
    p.close()
    p.close()
    assert lines(stream) == ["progress: 8/400 games (2%), 2.0 games/s, ETA 3m16s"]


def test_close_without_updates_writes_nothing() -> None:
    stream, clock = io.StringIO(), FakeClock()
    make(stream, clock).close()
    assert stream.getvalue() == ""


def test_write_is_a_plain_line() -> None:
    stream, other, clock = io.StringIO(), io.StringIO(), FakeClock()
    p = make(stream, clock)
    p.write("greedy vs wait: SPRT H1 accepted after 40 pairs")
    p.write("elsewhere", file=other)
    assert lines(stream) == ["greedy vs wait: SPRT H1 accepted after 40 pairs"]
    assert lines(other) == ["elsewhere"]


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="every_games"):
        make(io.StringIO(), FakeClock(), every_games=0)
    with pytest.raises(ValueError, match="every_seconds"):
        make(io.StringIO(), FakeClock(), every_seconds=-1.0)


# --------------------------------------------------------------------------- what the lines say


def test_the_line_hand_computed() -> None:
    # 50 wins, 10 draws, 60 losses: score (50 + 10/2) / 120 = 45.83%; Elo -400 log10(1/mu - 1)
    # = -29.02. Variance (50 * 0.5417^2 + 10 * 0.0417^2 + 60 * 0.4583^2) / 120 = 0.22743, SE
    # sqrt(0.22743 / 120) = 0.04354, score interval 0.4583 -+ 1.96 SE = [0.37301, 0.54366], Elo
    # interval [-90.22, +30.42], half-width 60.32. The trinomial SPRT bounds with alpha = beta =
    # 0.05 are ln(0.05 / 0.95) = -2.944 and +2.944.
    st = singles(50, 10, 60, SprtParams(model="trinomial"))
    assert st.sprt is not None
    llr = f"{st.sprt.llr:.2f}"
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, every_seconds=1e9, every_games=120)
    clock.now += 57.0  # 120 games in 57 s: 2.105 games/s; 280 left: 133 s
    p.update(120, 400, st)
    assert lines(stream) == [
        f"progress: 120/400 games (30%), greedy vs wait 50-10-60 (W-D-L), score 45.8%, Elo -29 ±60, "
        f"SPRT continue (LLR {llr} [-2.94, 2.94]), 2.1 games/s, ETA 2m13s"
    ]


def test_no_sprt_part_without_an_sprt() -> None:
    line = progress_line(120, 400, singles(50, 10, 60), played=120, elapsed=57.0)
    assert "greedy vs wait 50-10-60 (W-D-L), score 45.8%, Elo -29 ±60, 2.1 games/s" in line
    assert "SPRT" not in line


def test_decided_sprt_and_zero_width_interval() -> None:
    # Every pair WD: each pair scores 3/4 with no spread, so Elo = 400 log10(3) = +190.8; the normal
    # interval has no width, Wilson's (n = 300) is [0.698050, 0.795632] (by hand: centre
    # (0.75 + z^2/600) / (1 + z^2/300) = 0.746841, half-width 0.048791), Elo [+145.58, +236.12]: ±45.
    st = pairs(*[(1.0, 0.5)] * 300, sprt=SprtParams())
    assert st.sprt is not None and st.sprt.state.decided
    line = progress_line(600, 600, st, played=600, elapsed=100.0)
    assert "greedy vs wait 300-300-0 (W-D-L), score 75.0%, Elo +191 ±45, SPRT H1 accepted (LLR " in line
    assert line.endswith(", 6.0 games/s, took 1m40s")


@pytest.mark.parametrize(
    ("score", "text"),
    [
        # issue #34 point 12: 3 pairs all won, Wilson's lower end 3 / (3 + z^2) = 0.438503, Elo -42.95
        (1.0, "greedy vs wait 6-0-0 (W-D-L), score 100.0%, Elo > -43, "),
        (0.0, "greedy vs wait 0-0-6 (W-D-L), score 0.0%, Elo < +43, "),
    ],
)
def test_infinite_elo(score: float, text: str) -> None:
    st = pairs(*[(score, score)] * 3)
    line = progress_line(6, 10, st, played=6, elapsed=3.0)
    assert line == f"progress: 6/10 games (60%), {text}2.0 games/s, ETA 2s"


def test_a_bounded_interval_and_never_a_negative_zero() -> None:
    # One WW pair and one DD pair: mean 3/4, the normal interval's top end passes a score of 1, so
    # it is Wilson's (n = 2): [0.197866, 0.973324] by hand, Elo [-243.15, +624.86], half-width 434.0.
    st = pairs((1.0, 1.0), (0.5, 0.5))
    assert "Elo +191 ±434," in progress_line(4, 10, st, played=4, elapsed=2.0)
    even = pairs((0.5, 0.5), (1.0, 0.0))  # Elo -0.0, zero spread: Wilson's 1/2 -+ 0.405469, ±392.5
    text = progress_line(4, 10, even, played=4, elapsed=2.0)
    assert "Elo +0 ±393," in text and "-0" not in text


def test_the_elo_names_its_pairs_when_it_counts_fewer_games_than_the_score() -> None:
    # Issue #34 point 12: 4-0-1 as two WW pairs and a lost single game: the score counts 5 games
    # (80%), the Elo the 2 complete pairs (100%: bounded below by 2 / (2 + z^2) = 0.342380, -113.4).
    h = HeadToHead("greedy", "wait")
    h.add_pair(1.0, 1.0)
    h.add_pair(1.0, 1.0)
    h.add_single(0.0)
    line = progress_line(5, 10, h.stats(), played=5, elapsed=5.0)
    assert "greedy vs wait 4-0-1 (W-D-L), score 80.0%, Elo > -113 over 2 pairs, " in line
    assert "inf" not in line


def test_eta_counts_only_this_runs_games() -> None:
    # Resumed with 300 of 400 stored: 20 games in 10 s is 2 games/s, 80 left: 40 s.
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, total=400, initial=300, every_games=1)
    clock.now += 10.0
    p.update(320, 400, None)
    assert lines(stream) == ["progress: 320/400 games (80%), 2.0 games/s, ETA 40s"]


def test_eta_unknown_before_the_first_game() -> None:
    assert progress_line(300, 400, None, played=0, elapsed=5.0) == "progress: 300/400 games (75%), ETA ?"
    assert progress_line(0, 0, None, played=0, elapsed=0.0) == "progress: 0/0 games, took 0s"


def test_slow_rates_keep_two_digits() -> None:
    assert "0.033 games/s" in progress_line(1, 400, None, played=1, elapsed=30.0)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.4, "0s"),
        (45.0, "45s"),
        (59.6, "1m00s"),
        (133.0, "2m13s"),
        (3725.0, "1h02m"),
        (3 * 86400 + 4 * 3600 + 59, "3d04h"),
        (float("inf"), "?"),
    ],
)
def test_format_duration(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


# --------------------------------------------------------------------------- the bar


def test_interactive_draws_a_tqdm_bar() -> None:
    stream, clock = io.StringIO(), FakeClock()
    p = make(stream, clock, total=8, interactive=True)
    assert p.bar is not None
    st = pairs((1.0, 0.5), (1.0, 0.0))
    for done in range(1, 5):
        p.update(done, 8, st)
    p.write("a message")
    p.update(8, 8, st)
    p.close()
    out = stream.getvalue()
    assert "a message\n" in out
    assert "|" in out and "game" in out and "8/8" in out
    assert "greedy vs wait: 62.5%" in out
    assert "progress:" not in out


def test_isatty_decides() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    p = Progress(Tty(), 10, 0)
    assert p.interactive and p.bar is not None
    p.close()
