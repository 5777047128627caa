"""Line splitting as the engine reads bot output: \\n, \\r and \\r\\n end a line; bounded length."""

from __future__ import annotations

import pytest

from arena.match.lines import LineSplitter

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
    assert splitter.dropped_bytes == 1005 - 8 + 10_000
