"""Lines as Python counts them (issue #15, point 12): only \\n, \\r\\n and \\r end a line."""

from __future__ import annotations

import ast

from bundler.strip import strip_comments
from bundler.textedit import Positions, source_lines


def test_source_lines_split_only_where_python_does():
    text = "a = 1  # \x0c\x0b\x1c\x85\u2028\nb = '\x0c'\r\nc = 3\rd = 4"
    assert source_lines(text) == ["a = 1  # \x0c\x0b\x1c\x85\u2028\n", "b = '\x0c'\r\n", "c = 3\r", "d = 4"]
    assert "".join(source_lines(text)) == text
    assert source_lines("") == [] and source_lines("x\n") == ["x\n"]


def test_positions_after_a_form_feed_line_find_the_node():
    text = "import util\n\x0c\n# two \x0b\nY = util.X + 1\n"
    tree = ast.parse(text)
    node = tree.body[1].value.left  # util.X
    start, end = Positions(text).span(node)
    assert text[start:end] == "util.X"


def test_strip_comments_keeps_lines_that_hold_a_form_feed():
    text = "x = 1  # one\n\x0c\n# only a comment \x1c\ny = '\x0b'  # two\n"
    assert strip_comments(text) == "x = 1\n\x0c\ny = '\x0b'\n"
