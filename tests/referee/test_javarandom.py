"""java.util.Random and Collections.shuffle against values produced by the JVM."""

from __future__ import annotations

import gzip
import json

import pytest

from referee.javarandom import JavaRandom, check_java_long, java_shuffle
from tests.helpers.paths import PARITY


@pytest.fixture(scope="module")
def vectors() -> list[dict]:
    path = PARITY / "java_random_vectors.json.gz"
    vectors: list[dict] = json.loads(gzip.decompress(path.read_bytes()))
    return vectors


def test_vectors_cover_negative_and_extreme_seeds(vectors: list[dict]) -> None:
    seeds = {int(v["seed"]) for v in vectors}
    assert -(2**63) in seeds and 2**63 - 1 in seeds and any(s < 0 for s in seeds)


def test_next_int_bounded(vectors: list[dict]) -> None:
    checked = 0
    for v in vectors:
        for bound, expected in v["nextInt"].items():
            rnd = JavaRandom(int(v["seed"]))
            assert [rnd.next_int(int(bound)) for _ in expected] == expected, (v["seed"], bound)
            checked += 1
    assert checked >= 100


def test_next_int_unbounded_is_signed(vectors: list[dict]) -> None:
    for v in vectors:
        rnd = JavaRandom(int(v["seed"]))
        expected = v["nextInt_unbounded"]
        assert [rnd.next_int() for _ in expected] == expected, v["seed"]
    assert any(x < 0 for v in vectors for x in v["nextInt_unbounded"])


def test_consecutive_shuffles(vectors: list[dict]) -> None:
    for v in vectors:
        rnd = JavaRandom(int(v["seed"]))
        for expected in v["shuffles_consecutive"]:
            items = list(range(len(expected)))
            java_shuffle(items, rnd)
            assert items == expected, (v["seed"], len(expected))


def test_only_48_bits_of_the_seed_matter() -> None:
    a, b = JavaRandom(42), JavaRandom(42 + 2**48)
    assert [a.next_int(1000) for _ in range(20)] == [b.next_int(1000) for _ in range(20)]
    c = JavaRandom(43)
    assert [JavaRandom(42).next_int(1000) for _ in range(1)] != [c.next_int(1000)]


# Known answers of the JDK's documented algorithm for Random(0) (javadoc: nextLong, nextDouble,
# nextBoolean are built from next(32)/next(26)+next(27)/next(1)).
def test_derived_draws_follow_the_jdk_formulas() -> None:
    ints = JavaRandom(0)
    first, second = ints.next_int(), ints.next_int()
    expected_long = ((first << 32) + second) & (2**64 - 1)
    expected_long -= 2**64 if expected_long >= 2**63 else 0
    assert JavaRandom(0).next_long() == expected_long == -4962768465676381896
    assert JavaRandom(0).next_double() == pytest.approx(0.730967787376657, abs=1e-15)
    assert JavaRandom(0).next_boolean() is True


@pytest.mark.parametrize("bad", [2**63, -(2**63) - 1, 1.5, "42", True])
def test_seed_must_be_a_java_long(bad: object) -> None:
    with pytest.raises(ValueError):
        check_java_long(bad)  # type: ignore[arg-type]


def test_bound_must_be_positive() -> None:
    with pytest.raises(ValueError):
        JavaRandom(1).next_int(0)


def test_shuffle_rejects_a_draw_as_next_int_does() -> None:
    """nextInt(3) rejects next(31) == 2**31 - 1 (2**31 - 1 - 1 + 2 is not < 2**31) and draws
    again; the shuffle's inlined draws must do the same. The state before that draw is found by
    running the LCG backwards."""
    modulus = 1 << 48
    after = ((1 << 31) - 1) << 17  # the state whose next(31) is 2**31 - 1
    before = ((after - 0xB) * pow(0x5DEECE66D, -1, modulus)) % modulus
    rnd, ref, steps = JavaRandom(0), JavaRandom(0), JavaRandom(0)
    rnd._state = ref._state = steps._state = before
    assert steps.next(31) == (1 << 31) - 1
    items = ["a", "b", "c"]
    java_shuffle(items, rnd)
    expected = ["a", "b", "c"]
    for i in (3, 2):  # Collections.shuffle: swap(i - 1, nextInt(i)) for i = size..2
        j = ref.next_int(i)
        expected[i - 1], expected[j] = expected[j], expected[i - 1]
    assert items == expected
    steps.next(31)
    steps.next(31)  # the rejected draw, the retry, and the draw for nextInt(2)
    assert rnd._state == ref._state == steps._state


def _state_before(bits31: int) -> int:
    """The LCG state whose next draw's next(31) is ``bits31`` (low 17 bits zero), run backwards."""
    modulus = 1 << 48
    return ((bits31 << 17) - 0xB) * pow(0x5DEECE66D, -1, modulus) % modulus


def _reference_shuffle(items: list, rnd: JavaRandom) -> None:
    for i in range(len(items), 1, -1):  # Collections.shuffle with nextInt, draw by draw
        j = rnd.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]


@pytest.mark.parametrize("bound", [3, 5, 6, 7, 100, 1000, 1023])
def test_shuffle_rejects_exactly_the_draws_next_int_rejects(bound: int) -> None:
    # nextInt(bound) rejects next(31) from the last multiple of bound below 2**31 upwards: the
    # first draw of shuffling `bound` items is nextInt(bound); try both sides of that edge.
    edge = (1 << 31) // bound * bound
    for bits in (edge - 1, edge, (1 << 31) - 1):
        rnd, ref = JavaRandom(0), JavaRandom(0)
        rnd._state = ref._state = _state_before(bits)
        items, expected = list(range(bound)), list(range(bound))
        java_shuffle(items, rnd)
        _reference_shuffle(expected, ref)
        assert items == expected and rnd._state == ref._state


def test_shuffle_of_every_length_matches_next_int_draws() -> None:
    for n in [*range(45), 511, 512, 513, 1023, 1024, 1025, 1500]:
        for seed in (0, -7, 1 << 40):
            rnd, ref = JavaRandom(seed), JavaRandom(seed)
            items, expected = list(range(n)), list(range(n))
            java_shuffle(items, rnd)
            _reference_shuffle(expected, ref)
            assert items == expected and rnd._state == ref._state, n
