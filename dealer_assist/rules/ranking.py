"""Ranking specifications as data: category order, deck, straights and suit tie-breaks per game.

A suit order is part of a game's rules (seeds 000 and 002 disagree), never a global constant.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Suit
from .decks import STANDARD_52, STRIPPED_32, DeckSpec
from .errors import HouseRulesError


class Category(StrEnum):
    """Hand categories. Names are part of the public interface (lower case, exactly these)."""

    royal_flush = "royal_flush"
    straight_flush = "straight_flush"
    four_of_a_kind = "four_of_a_kind"
    full_house = "full_house"
    flush = "flush"
    straight = "straight"
    three_of_a_kind = "three_of_a_kind"
    two_pairs = "two_pairs"
    one_pair = "one_pair"
    ace_king = "ace_king"
    high_card = "high_card"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Category.royal_flush: "Royal flush",
    Category.straight_flush: "Straight flush",
    Category.four_of_a_kind: "Four of a kind",
    Category.full_house: "Full house",
    Category.flush: "Flush",
    Category.straight: "Straight",
    Category.three_of_a_kind: "Three of a kind",
    Category.two_pairs: "Two pairs",
    Category.one_pair: "One pair",
    Category.ace_king: "Ace-King",
    Category.high_card: "High card",
}

C = Category


@dataclass(frozen=True, slots=True, eq=False)
class Ranking:
    """How hands rank in one game.

    Rankings compare by identity (one object per game), which keeps evaluator look-ups cheap.
    ``order`` lists categories from weakest to strongest; a category's strength is its position.
    ``straights`` lists the straights from lowest to highest as tuples of ranks, high card first
    (the ace-low straight has the ace last). ``suit_order`` (best first) breaks exact ties where
    the game says so; ``None`` means equal ranks tie.
    """

    name: str
    deck: DeckSpec
    order: tuple[Category, ...]
    straights: tuple[tuple[int, ...], ...]
    suit_order: tuple[Suit, ...] | None = None

    def __post_init__(self) -> None:
        if len(set(self.order)) != len(self.order):
            raise HouseRulesError("a category is listed twice", field="order")
        if self.suit_order is not None and len(set(self.suit_order)) != 4:
            raise HouseRulesError("the suit order must name the four suits", field="suit_order")

    def strength(self, category: Category) -> int:
        return self.order.index(category)

    def suit_strength(self, suit: Suit) -> int:
        """3 for the best suit ... 0 for the weakest; 0 for all when suits never break ties."""
        if self.suit_order is None:
            return 0
        return 3 - self.suit_order.index(suit)

    @property
    def has_royal(self) -> bool:
        return C.royal_flush in self.order

    @property
    def has_ace_king(self) -> bool:
        return C.ace_king in self.order


def _straights(low: int, high: int) -> tuple[tuple[int, ...], ...]:
    """Straights of a deck whose ranks run low..high (ace = 14 also plays below ``low``)."""
    wheel = tuple(range(low + 3, low - 1, -1)) + (14,)
    runs = [tuple(range(top, top - 5, -1)) for top in range(low + 4, high + 1)]
    return (wheel, *runs)


STANDARD = Ranking(
    name="standard",
    deck=STANDARD_52,
    order=(C.high_card, C.ace_king, C.one_pair, C.two_pairs, C.three_of_a_kind, C.straight,
           C.flush, C.full_house, C.four_of_a_kind, C.straight_flush, C.royal_flush),
    straights=_straights(2, 14),
)

_ORDER_32 = (C.high_card, C.one_pair, C.two_pairs, C.three_of_a_kind, C.straight, C.full_house,
             C.flush, C.four_of_a_kind, C.straight_flush)

AMERICANA = Ranking(
    name="americana",
    deck=STRIPPED_32,
    order=_ORDER_32,
    straights=_straights(7, 14),
    # seed 000: "Suit rank from highest to lowest: Spades, Hearts, Diamonds, Clubs"
    suit_order=(Suit.spades, Suit.hearts, Suit.diamonds, Suit.clubs),
)

DRAW32 = Ranking(
    name="draw32",
    deck=STRIPPED_32,
    order=_ORDER_32,
    straights=_straights(7, 14),
    # seed 002: "Suit rankings from highest to lowest: Hearts, Diamonds, Clubs, Spades"
    suit_order=(Suit.hearts, Suit.diamonds, Suit.clubs, Suit.spades),
)

RANKINGS: dict[str, Ranking] = {r.name: r for r in (STANDARD, AMERICANA, DRAW32)}


def get_ranking(name: str) -> Ranking:
    """The ranking called ``name`` ("standard", "americana", "draw32")."""
    try:
        return RANKINGS[name]
    except KeyError:
        known = ", ".join(sorted(RANKINGS))
        raise HouseRulesError("unknown ranking '%(name)s' (known: %(known)s)", name=name,
                              known=known, field="ranking",
                              value=name) from None
