"""A deliberately plain reference comparator for five-card hands, written apart from the evaluator.

It classifies five cards by their sorted rank counts into a tuple ``(category strength, tie-break
ranks, suit digit)``; comparing two tuples compares the hands. The 32-card order and the suit
tie-breaks are spelled out as RULES.md states them, without bit tricks, so that it can check the
evaluator's integer keys. Best-of-n is the maximum over every five-card subset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from dealer_assist.rules import Card

STANDARD_ORDER = (
    "high_card", "ace_king", "one_pair", "two_pairs", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "royal_flush",
)
# RULES.md: "straight flush > four of a kind > flush > full house > straight > three of a kind >
# two pairs > pair > high card" (weakest first here)
STRIPPED_ORDER = (
    "high_card", "one_pair", "two_pairs", "three_of_a_kind", "straight", "full_house", "flush",
    "four_of_a_kind", "straight_flush",
)
# Best suit first. Seed 000: Spades > Hearts > Diamonds > Clubs; seed 002: Hearts > Diamonds >
# Clubs > Spades. The standard ranking never breaks ties by suit.
SUIT_ORDERS = {"americana": "shdc", "draw32": "hdcs", "standard": None}

RefKey = tuple[int, tuple[int, ...], int]


def straight_high(ranks: Sequence[int], stripped: bool) -> int:
    """The top rank of a five-card straight, 0 if the ranks are not one.

    The ace plays high, or low below the deck's lowest rank: A-2-3-4-5 (five high) in 52 cards,
    A-7-8-9-10 (ten high) in 32 cards.
    """
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return 0
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    low_run = [7, 8, 9, 10, 14] if stripped else [2, 3, 4, 5, 14]
    if distinct == low_run:
        return low_run[3]
    return 0


def reference_key(cards: Sequence[Card], ranking_name: str) -> RefKey:
    """Classify exactly five cards; larger tuples are better hands, equal tuples tie."""
    assert len(cards) == 5
    stripped = ranking_name != "standard"
    suit_order = SUIT_ORDERS[ranking_name]
    order = STRIPPED_ORDER if stripped else STANDARD_ORDER

    def suit_digit(card: Card) -> int:
        if suit_order is None:
            return 0
        return 3 - suit_order.index(card.suit.value)

    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    # ranks ordered by (how many, rank), e.g. K K 7 7 A -> [13, 7, 14]
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    high = straight_high(ranks, stripped)
    highest_card = max(cards, key=lambda c: c.rank)
    suit = 0

    if flush and high:
        category = "royal_flush" if high == 14 and not stripped else "straight_flush"
        tie: tuple[int, ...] = (high,)
        suit = suit_digit(cards[0])
    elif shape == [4, 1]:
        category, tie = "four_of_a_kind", tuple(grouped)
    elif shape == [3, 2]:
        category, tie = "full_house", tuple(grouped)
    elif flush:
        category, tie = "flush", tuple(ranks)
        suit = suit_digit(cards[0])
    elif high:
        category, tie = "straight", (high,)
        # the suit of the straight's highest card: the 10 of A-7-8-9-10, where the ace plays low
        suit = suit_digit(next(c for c in cards if c.rank == high))
    elif shape == [3, 1, 1]:
        category, tie = "three_of_a_kind", tuple(grouped)
    elif shape == [2, 2, 1]:
        category, tie = "two_pairs", tuple(grouped)
        kicker = next(c for c in cards if counts[c.rank] == 1)
        suit = suit_digit(kicker)
    elif shape == [2, 1, 1, 1]:
        category, tie = "one_pair", tuple(grouped)
        highest_kicker = max((c for c in cards if counts[c.rank] == 1), key=lambda c: c.rank)
        suit = suit_digit(highest_kicker)
    elif not stripped and ranks[0] == 14 and ranks[1] == 13:
        category, tie = "ace_king", tuple(ranks)
    else:
        category, tie = "high_card", tuple(ranks)
        suit = suit_digit(highest_card)
    return order.index(category), tie, suit


def reference_category(cards: Sequence[Card], ranking_name: str) -> str:
    order = STANDARD_ORDER if ranking_name == "standard" else STRIPPED_ORDER
    return order[reference_key(cards, ranking_name)[0]]


def reference_best(cards: Sequence[Card], ranking_name: str) -> RefKey:
    """The best five of any number of cards: the maximum over all five-card subsets."""
    return max(reference_key(five, ranking_name) for five in combinations(cards, 5))
