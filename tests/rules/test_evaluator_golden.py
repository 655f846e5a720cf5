"""Golden counts: every five-card hand of the 52-card and the 32-card decks, by category.

The fast path (``rank_key(...) >> 24`` indexes ``ranking.order``) classifies every hand; a
sample decoded through ``evaluate`` must agree with it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, islice

import pytest

from dealer_assist.rules import Suit, evaluate, get_ranking, rank_key

pytestmark = pytest.mark.slow

STANDARD_COUNTS = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pairs": 123_552,
    "one_pair": 1_098_240,
    "ace_king": 167_280,
    "high_card": 1_135_260,
}

STRIPPED_COUNTS = {
    "straight_flush": 20,
    "four_of_a_kind": 224,
    "flush": 204,
    "full_house": 1_344,
    "straight": 5_100,
    "three_of_a_kind": 10_752,
    "two_pairs": 24_192,
    "one_pair": 107_520,
    "high_card": 52_020,
}


def count_categories(name: str) -> tuple[Counter[str], set[int]]:
    ranking = get_ranking(name)
    keys = [rank_key(hand, ranking) for hand in combinations(ranking.deck.cards, 5)]
    by_strength = Counter(key >> 24 for key in keys)
    counts = Counter({ranking.order[s].name: n for s, n in by_strength.items()})
    return counts, set(keys)


def test_every_52_card_hand_falls_in_its_known_category() -> None:
    counts, keys = count_categories("standard")
    assert sum(counts.values()) == 2_598_960
    assert dict(counts) == STANDARD_COUNTS
    # 40 straight flushes, 4 of them royal
    assert counts["straight_flush"] + counts["royal_flush"] == 40
    # the 7,462 distinct classes of five-card poker: suits never break a standard tie
    assert len(keys) == 7_462


@pytest.mark.parametrize("name", ["americana", "draw32"])
def test_every_32_card_hand_falls_in_its_known_category(name: str) -> None:
    counts, _ = count_categories(name)
    assert sum(counts.values()) == 201_376
    assert dict(counts) == STRIPPED_COUNTS


@pytest.mark.parametrize(("name", "step"), [("standard", 997), ("americana", 97), ("draw32", 89)])
def test_evaluate_decodes_the_same_category_and_key_as_the_fast_path(name: str, step: int) -> None:
    ranking = get_ranking(name)
    seen: Counter[str] = Counter()
    for hand in islice(combinations(ranking.deck.cards, 5), 0, None, step):
        key = rank_key(hand, ranking)
        value = evaluate(hand, ranking)
        assert value.key == key
        assert value.category == ranking.order[key >> 24]
        assert sorted(value.cards, key=lambda c: c.index) == sorted(hand, key=lambda c: c.index)
        seen[value.category.name] += 1
    assert len(seen) >= 6  # the sample reaches well beyond pairs and high cards


@pytest.mark.parametrize("name", ["standard", "americana", "draw32"])
def test_every_straight_flush_decodes_with_its_label(name: str) -> None:
    ranking = get_ranking(name)
    suited_hands = [
        hand
        for suit in Suit
        for hand in combinations([c for c in ranking.deck.cards if c.suit is suit], 5)
    ]
    labels = Counter(
        evaluate(hand, ranking).label
        for hand in suited_hands
        if ranking.order[rank_key(hand, ranking) >> 24].name in ("straight_flush", "royal_flush")
    )
    tops = ["five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
    if name != "standard":
        tops = ["ten", "jack", "queen", "king", "ace"]
    expected = {f"Straight flush, {top} high": 4 for top in tops}
    if name == "standard":
        expected["Royal flush"] = 4
    assert dict(labels) == expected
