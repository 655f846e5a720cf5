"""Hand values: what the evaluator says about a hand, ordered so that higher is better.

A :class:`HandValue` carries its category, the five cards used, the significant cards and a
human label ("Two pairs, kings and sevens, ace kicker"); an integer key underneath orders,
equates and hashes it (``evaluator.rank_key``). A :class:`SmallHandValue` is the Big/Small
game's two-card Small Hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import RANK_NAME, RANK_PLURAL, Card, parse_cards
from .errors import CardCountError
from .ranking import Category, Ranking

C = Category


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """An ordered, hashable hand value: higher is better, equal exactly when the hands tie."""

    key: int
    category: Category
    cards: tuple[Card, ...]
    significant: tuple[Card, ...]
    label: str
    ranking: Ranking

    def _other(self, other: object) -> HandValue:
        if not isinstance(other, HandValue):
            raise TypeError(f"cannot compare a hand value with {type(other).__name__}")
        if other.ranking is not self.ranking:
            raise TypeError(f"cannot compare {self.ranking.name} and {other.ranking.name} hands")
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == self._other(other).key

    def __hash__(self) -> int:
        return hash((self.ranking.name, self.key))

    def __lt__(self, other: object) -> bool:
        return self.key < self._other(other).key

    def __le__(self, other: object) -> bool:
        return self.key <= self._other(other).key

    def __gt__(self, other: object) -> bool:
        return self.key > self._other(other).key

    def __ge__(self, other: object) -> bool:
        return self.key >= self._other(other).key

    def __repr__(self) -> str:
        return f"<{self.label}: {' '.join(c.code for c in self.cards)}>"


def label_of(category: Category, r: list[int]) -> str:
    """The English name of a hand from its category and its five tie-break ranks."""
    n, pl = RANK_NAME, RANK_PLURAL
    if category is C.royal_flush:
        return "Royal flush"
    if category is C.straight_flush:
        return f"Straight flush, {n[r[0]]} high"
    if category is C.straight:
        return f"Straight, {n[r[0]]} high"
    if category is C.flush:
        return f"Flush, {n[r[0]]} high"
    if category is C.four_of_a_kind:
        return f"Four of a kind, {pl[r[0]]}, {n[r[1]]} kicker"
    if category is C.full_house:
        return f"Full house, {pl[r[0]]} over {pl[r[1]]}"
    if category is C.three_of_a_kind:
        return f"Three of a kind, {pl[r[0]]}"
    if category is C.two_pairs:
        return f"Two pairs, {pl[r[0]]} and {pl[r[1]]}, {n[r[2]]} kicker"
    if category is C.one_pair:
        return f"One pair, {pl[r[0]]}, {n[r[1]]} kicker"
    if category is C.ace_king:
        return f"Ace-King, {n[r[2]]} kicker"
    return f"High card, {n[r[0]]}"


@dataclass(frozen=True, slots=True, order=True)
class SmallHandValue:
    """A two-card Small Hand (Big/Small game): a pair beats no pair, then high card, then second.

    Suits never matter: ``key`` alone orders, equates and hashes the values (``Ah Kd`` equals
    ``As Kc``, and an equal Small Hand counts for the player).
    """

    key: int
    category: Category = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False)
    label: str = field(compare=False)


def evaluate_small(cards: Sequence[Card] | str) -> SmallHandValue:
    """Value of a two-card Small Hand; ``CardCountError`` unless exactly two distinct cards."""
    hand = parse_cards(cards, what="small hand") if isinstance(cards, str) else \
        parse_cards(list(cards), what="small hand")
    if len(hand) != 2:
        raise CardCountError(len(hand), "2", "small hand")
    hi, lo = sorted(hand, key=lambda c: -c.rank)
    if hi.rank == lo.rank:
        return SmallHandValue(1 << 8 | hi.rank << 4 | hi.rank, C.one_pair, (hi, lo),
                              f"Pair of {RANK_PLURAL[hi.rank]}")
    return SmallHandValue(hi.rank << 4 | lo.rank, C.high_card, (hi, lo),
                          f"{RANK_NAME[hi.rank].capitalize()}-{RANK_NAME[lo.rank]} high")
