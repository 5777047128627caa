"""Line splitting as the engine reads bot output: \\n, \\r and \\r\\n end a line; bounded length."""

from __future__ import annotations

import pytest

from arena.match.protocol.lines import LineSplitter

CASES = [
    # chunks fed, EOF?, expected lines
    pytest.param([b"WAIT\n"], False, ["WAIT"], id="newline"),
    pytest.param([b"WAIT\r"], False, ["WAIT"], id="carriage-return"),
    pytest.param([b"WAIT\r\nGROW 1\n"], False, ["WAIT", "GROW 1"], id="crlf-is-one-end"),
    pytest.param([b"WAIT\r", b"\nGROW 1\n"], False, ["WAIT", "GROW 1"], id="crlf-split-across-reads"),
    pytest.param([b"WAIT\r\rX\n"], False, ["WAIT", "", "X"], id="two-cr-make-an-empty-line"),
    pytest.param([b"\n\n"], False, ["", ""], id="empty-lines"),
    pytest.param([b"WA", b"IT", b"\n"], False, ["WAIT"], id="split-line"),
    pytest.param(
        [b"WAIT\nGROW 2\nSEED 1 2\n"], False, ["WAIT", "GROW 2", "SEED 1 2"], id="several-lines-stay-buffered"
    ),
    pytest.param([b"WAIT"], False, [], id="partial-line-is-not-a-line"),
    pytest.param([b"WAIT"], True, ["WAIT"], id="partial-line-at-eof-is-a-line"),
    pytest.param([b"\xc3\xa9t\xc3\xa9\n"], False, ["été"], id="utf8"),
    pytest.param([b"\xff\n"], False, ["\ufffd"], id="bad-utf8-is-replaced"),
]


@pytest.mark.parametrize("chunks,eof,expected", CASES)
def test_line_rules(chunks, eof, expected):
    splitter = LineSplitter()
    for chunk in chunks:
        splitter.feed(chunk)
    if eof:
        splitter.feed_eof()
    got = []
    while (line := splitter.pop()) is not None:
        got.append(line)
    assert got == expected


def test_long_lines_keep_a_bounded_prefix():
    splitter = LineSplitter(max_line_bytes=8)
    splitter.feed(b"WAIT " + b"x" * 1000)
    splitter.feed(b"y" * 10_000 + b"\nGROW 1\n")
    assert splitter.pop() == "WAIT xxx"
    assert splitter.pop() == "GROW 1"


def reference_lines(data: bytes, cap: int) -> list[str]:
    """A second, plain implementation of the rules: the whole stream split at once on \\r\\n, \\r
    and \\n, each line cut to ``cap`` bytes, a last line without its end left out."""
    lines, start, i = [], 0, 0
    while i < len(data):
        if data[i] in b"\r\n":
            lines.append(data[start:i][:cap].decode("utf-8", errors="replace"))
            i += 2 if data[i : i + 2] == b"\r\n" else 1
            start = i
        else:
            i += 1
    return lines


def test_any_cutting_of_a_stream_gives_the_lines_of_the_whole_stream() -> None:
    """Streams of answers (whole lines, \\r, \\r\\n, long lines, bad UTF-8) cut into reads at
    random places, the reads that are whole lines included, against the stream split at once."""
    import random

    rng = random.Random(38)
    pieces = [b"WAIT", b"GROW 12", b"", b"\xc3\xa9", b"\xff", b"x" * 40, b"SEED 1 2 msg"]
    for _ in range(500):
        cap = rng.choice([8, 16, 64, 1 << 20])
        data = b"".join(
            rng.choice(pieces) + rng.choice([b"\n", b"\n", b"\r", b"\r\n"]) for _ in range(rng.randint(1, 8))
        )
        cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randint(0, 4)))) if len(data) > 1 else []
        splitter = LineSplitter(max_line_bytes=cap)
        for a, b in zip([0, *cuts], [*cuts, len(data)]):
            splitter.feed(data[a:b])
        got = []
        while (line := splitter.pop()) is not None:
            got.append(line)
        assert got == reference_lines(data, cap), (data, cuts, cap)
