"""The batch evaluator agrees with the rules engine's ``rank_key`` (golden tests)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dealer_assist.lab import batch
from dealer_assist.rules.cards import ALL_CARDS
from dealer_assist.rules.evaluator import rank_key
from dealer_assist.rules.ranking import Category, get_ranking

STANDARD = get_ranking("standard")
BY_INDEX = {c.index: c for c in ALL_CARDS}


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_keys_equal_rank_key_on_a_large_seeded_sample(size: int) -> None:
    rng = np.random.default_rng(1400 + size)
    hands = np.argsort(rng.random((30000, 52)), axis=1)[:, :size]
    keys = batch.rank_keys(hands, STANDARD)
    expected = [rank_key([BY_INDEX[i] for i in row], STANDARD) for row in hands.tolist()]
    assert keys.tolist() == expected


def test_batch_keys_equal_rank_key_on_flush_rich_hands() -> None:
    # five to seven cards of one suit plus others: every flush, straight flush and royal path
    rng = np.random.default_rng(7)
    rows = []
    for _ in range(5000):
        suit = int(rng.integers(4))
        n_suit = int(rng.integers(5, 8))
        suited = rng.choice(13, n_suit, replace=False) + 13 * suit
        others = [c for c in rng.permutation(52) if c // 13 != suit][: 7 - n_suit]
        rows.append(np.concatenate([suited, np.array(others, dtype=np.int64)]))
    hands = np.array(rows)
    keys = batch.rank_keys(hands, STANDARD)
    expected = [rank_key([BY_INDEX[i] for i in row], STANDARD) for row in hands.tolist()]
    assert keys.tolist() == expected


def test_every_five_card_hand_falls_into_the_textbook_category_counts() -> None:
    keys = batch.rank_keys(batch.all_five_card_hands(), STANDARD)
    counts = Counter(batch.categories(keys, STANDARD))
    # high card splits into AK high (167,280) and the rest: 1,302,540 in the textbooks
    assert counts == {
        Category.royal_flush: 4, Category.straight_flush: 36, Category.four_of_a_kind: 624,
        Category.full_house: 3744, Category.flush: 5108, Category.straight: 10200,
        Category.three_of_a_kind: 54912, Category.two_pairs: 123552,
        Category.one_pair: 1098240, Category.ace_king: 167280, Category.high_card: 1135260,
    }
    assert len(np.unique(keys)) == 7462  # distinct five-card hand values


def test_the_batch_evaluator_refuses_rankings_that_break_ties_by_suit() -> None:
    with pytest.raises(NotImplementedError):
        batch.rank_keys(np.arange(5)[None, :], get_ranking("americana"))
