"""The memo of SEED command lists behind :func:`rules.possible_actions` (#38)."""

from __future__ import annotations

from referee.spring2021 import rules


def test_seed_lists_are_listed_lowest_rank_first_and_the_memo_is_bounded() -> None:
    """The SEED commands of a mask of target ranks: bit r set -> the text of rank r, lowest rank
    first (the official range order); each mask is remembered, and the memo of a cell starts
    again once it holds ``_SEED_LISTS_KEPT`` masks."""
    texts = ("SEED 0 1", "SEED 0 2", "SEED 0 3", "SEED 0 4")
    memo: dict[int, tuple[str, ...]] = {}
    assert rules._seed_list(memo, texts, 0b1010) == ("SEED 0 2", "SEED 0 4")
    assert rules._seed_list(memo, texts, 0b0111) == ("SEED 0 1", "SEED 0 2", "SEED 0 3")
    assert memo == {0b1010: ("SEED 0 2", "SEED 0 4"), 0b0111: ("SEED 0 1", "SEED 0 2", "SEED 0 3")}
    for mask in range(1, rules._SEED_LISTS_KEPT + 1):
        rules._seed_list(memo, texts * 4096, mask)
    assert len(memo) <= rules._SEED_LISTS_KEPT
