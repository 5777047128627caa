"""The Spring frame's shuffles (``shuffle_each``) against the JVM's vectors and against
``Collections.shuffle`` written plainly over ``nextInt``, draw by draw, rejections included."""

from __future__ import annotations

import gzip
import json
import random

import pytest

from referee.javarandom import JavaRandom
from referee.spring2021.shuffle import shuffle_each
from tests.helpers.paths import PARITY


def _plain_shuffle(items: list[int], rnd: JavaRandom) -> None:
    """``Collections.shuffle(list, rnd)``: for i = size..2, swap(i - 1, nextInt(i))."""
    for i in range(len(items), 1, -1):
        j = rnd.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]


def _state_before(bits31: int) -> int:
    """The generator state whose next draw's ``next(31)`` is ``bits31`` (the LCG run backwards)."""
    modulus = 1 << 48
    return ((bits31 << 17) - 0xB) * pow(0x5DEECE66D, -1, modulus) % modulus


def test_consecutive_shuffles_match_the_jvm() -> None:
    vectors = json.loads(gzip.decompress((PARITY / "java_random_vectors.json.gz").read_bytes()))
    checked = 0
    for v in vectors:
        expected = v["shuffles_consecutive"]
        lists = tuple(list(range(len(e))) for e in expected)
        shuffle_each(lists, JavaRandom(int(v["seed"])))  # one call: the state carries over
        assert list(lists) == expected, v["seed"]
        checked += sum(len(e) > 1 for e in expected)
    assert checked >= 10


@pytest.mark.parametrize("bound", [3, 5, 6, 7, 12, 100, 255])
def test_a_rejected_draw_is_drawn_again(bound: int) -> None:
    # The first draw of shuffling ``bound`` items is nextInt(bound), which rejects next(31) from
    # the last multiple of ``bound`` below 2**31 upwards: both sides of that edge, and the top.
    edge = (1 << 31) // bound * bound
    for bits in (edge - 1, edge, (1 << 31) - 1):
        rnd, ref = JavaRandom(0), JavaRandom(0)
        rnd._state = ref._state = _state_before(bits)
        lists = ([7], list(range(bound)), [])
        expected = list(range(bound))
        shuffle_each(lists, rnd)
        _plain_shuffle(expected, ref)
        assert lists == ([7], expected, []) and rnd._state == ref._state
    rnd, counted = JavaRandom(0), JavaRandom(0)
    rnd._state = counted._state = _state_before((1 << 31) - 1)
    shuffle_each((list(range(bound)),), rnd)
    for _ in range(bound):  # bound - 1 draws, one of them drawn twice
        counted.next(31)
    assert rnd._state == counted._state


def test_any_lengths_and_seeds_match_the_plain_shuffle() -> None:
    picks = random.Random(2021)
    lengths = [0, 1, 2, 3, 4, 8, 16, 31, 32, 33, 64, 100, 256, 257, 300, 1100]
    for trial in range(60):
        seed = picks.randrange(-(1 << 63), 1 << 63)
        sizes = [picks.choice(lengths) for _ in range(3)] if trial else lengths
        lists = tuple(list(range(n)) for n in sizes)
        expected = [list(range(n)) for n in sizes]
        rnd, ref = JavaRandom(seed), JavaRandom(seed)
        shuffle_each(lists, rnd)
        for items in expected:
            _plain_shuffle(items, ref)
        assert list(lists) == expected, (seed, sizes)
        assert rnd._state == ref._state
