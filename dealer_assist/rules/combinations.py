"""Every poker combination contained in a hand, and the best one or two of them to pay.

Russian poker pays a box for up to two combinations (seed 001). A combination is a category with
its significant cards: Ace-King = the ace and the king; a pair = 2 cards; two pairs = 4; three of
a kind = 3; four of a kind = 4; straight, flush, full house, straight flush and royal flush = 5.
A hand of five or six cards contains many of them (all sub-combinations, not only the best five:
``Ah Ad Kc`` holds the pair of aces and two Ace-Kings). Two combinations are paid together when
the second (the lower-paying one) has at least one significant card that is not significant in
the first; among all such pairs (and single combinations) the highest total is paid.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations as subsets

from .cards import Card
from .ranking import Category, Ranking

C = Category


@dataclass(frozen=True, slots=True)
class Combination:
    """A category with its significant cards (highest first); ``mask`` is their card-mask union."""

    category: Category
    cards: tuple[Card, ...]
    mask: int

    @staticmethod
    def of(category: Category, cards: Sequence[Card]) -> Combination:
        ordered = tuple(sorted(cards, key=lambda c: (-c.rank, c.suit_index)))
        mask = 0
        for c in ordered:
            mask |= c.mask
        return Combination(category, ordered, mask)

    def __repr__(self) -> str:
        return f"{self.category.value}({' '.join(c.code for c in self.cards)})"


def _rank_groups(cards: Sequence[Card]) -> dict[int, list[Card]]:
    groups: dict[int, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.rank, []).append(card)
    return groups


def _of_a_kind(groups: dict[int, list[Card]]) -> list[Combination]:
    """Pairs, three and four of a kind, two pairs and full houses made of rank groups."""
    sets: dict[int, list[Combination]] = {2: [], 3: [], 4: []}
    for group in groups.values():
        for size, category in ((2, C.one_pair), (3, C.three_of_a_kind), (4, C.four_of_a_kind)):
            sets[size].extend(Combination.of(category, s) for s in subsets(group, size))
    pairs, trips = sets[2], sets[3]
    two_pairs = [Combination.of(C.two_pairs, a.cards + b.cards)
                 for a, b in subsets(pairs, 2) if a.cards[0].rank != b.cards[0].rank]
    fulls = [Combination.of(C.full_house, t.cards + p.cards)
             for t in trips for p in pairs if t.cards[0].rank != p.cards[0].rank]
    return pairs + trips + sets[4] + two_pairs + fulls


def _five_card(cards: Sequence[Card], ranking: Ranking) -> list[Combination]:
    """Straights, flushes, straight and royal flushes: five-card subsets of the hand."""
    straights = {frozenset(s): s[0] for s in ranking.straights}
    out: list[Combination] = []
    for five in subsets(cards, 5):
        top = straights.get(frozenset(c.rank for c in five))
        flush = len({c.suit for c in five}) == 1
        if top is not None and flush:
            royal = top == 14 and ranking.has_royal
            out.append(Combination.of(C.royal_flush if royal else C.straight_flush, five))
        elif top is not None:
            out.append(Combination.of(C.straight, five))
        elif flush:
            out.append(Combination.of(C.flush, five))
    return out


def find_combinations(cards: Sequence[Card], ranking: Ranking) -> tuple[Combination, ...]:
    """Every combination contained in ``cards`` (five or six of them; any number works)."""
    groups = _rank_groups(cards)
    found = _of_a_kind(groups)
    if ranking.has_ace_king:
        found += [Combination.of(C.ace_king, (a, k))
                  for a in groups.get(14, ()) for k in groups.get(13, ())]
    found += _five_card(cards, ranking)
    return tuple(found)


def may_pair(first: Combination, second: Combination) -> bool:
    """The second (lower-paying) combination has a significant card not significant in the first."""
    return bool(second.mask & ~first.mask)


def best_combinations(found: Sequence[Combination], multiplier: Callable[[Category], int],
                      ranking: Ranking, limit: int = 2) -> tuple[Combination, ...]:
    """The one or two (``limit``) combinations paying the highest total (empty when none pays).

    Ties are broken deterministically: stronger categories, then higher cards, come first.
    """
    priced = sorted(
        ((multiplier(c.category), c) for c in found if multiplier(c.category) > 0),
        key=lambda mc: (-mc[0], -ranking.strength(mc[1].category),
                        [-x.rank for x in mc[1].cards], [x.suit_index for x in mc[1].cards]),
    )
    best: tuple[Combination, ...] = ()
    best_total = 0
    for i, (m1, c1) in enumerate(priced):
        if m1 > best_total:
            best, best_total = (c1,), m1
        if limit < 2:
            break
        for m2, c2 in priced[i + 1:]:
            if m1 + m2 <= best_total:
                break  # sorted by multiplier: no later partner can do better
            if may_pair(c1, c2) or (m1 == m2 and may_pair(c2, c1)):
                best, best_total = (c1, c2), m1 + m2
    return best


def paid_combinations(cards: Sequence[Card], multiplier: Callable[[Category], int],
                      ranking: Ranking, limit: int = 2) -> tuple[Combination, ...]:
    """The combinations a winning box with ``cards`` is paid for (at most ``limit``)."""
    return best_combinations(find_combinations(cards, ranking), multiplier, ranking, limit)
