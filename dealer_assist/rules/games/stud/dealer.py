"""The dealer's side of a house round: whether he "has a game", and the game a box buys him.

Buying a game replaces the dealer's highest card with the next card of the deck; with the
profile's free second replacement, a drawn card of the same rank that still makes no game is
replaced once more, free (RULES.md, Russian poker). :func:`draw_needed` tells how many cards the
draw takes: the one place the screen and the engine learn it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...cards import Card
from ...errors import CardCountError
from ...evaluator import HandValue, evaluate
from ...phrase import Phrase
from ...ranking import Category, Ranking
from .codec import codes, value_of


def dealer_qualifies(hand: HandValue, qualifier: Category, ranking: Ranking) -> bool:
    """The dealer "has a game" with the qualifier category or better."""
    return ranking.strength(hand.category) >= ranking.strength(qualifier)


@dataclass(frozen=True, slots=True)
class BoughtGame:
    """The dealer's hand after a bought game: what was replaced, drawn, and the new hand."""

    replaced: tuple[Card, ...]
    drawn: tuple[Card, ...]
    cards: tuple[Card, ...]
    hand: HandValue
    qualified: bool


def _highest(cards: Sequence[Card]) -> int:
    """Index of the highest card (the first of equal ranks)."""
    best = 0
    for i, card in enumerate(cards):
        if card.rank > cards[best].rank:
            best = i
    return best


class FreeSecondCard(CardCountError):
    """The card drawn has the rank of the card it replaced and the dealer still has no game:
    the next card replaces his highest card again, free (a card count error: one more card)."""

    def __init__(self, got: int, expected: str, what: str = "hand") -> None:
        super().__init__(got, expected, what)
        self.message = Phrase("Same rank as the card it replaced and still no game. The first "
                              "new card is replaced too, free: tap the free second card.")
        self.args = (self.message,)


def buy_game(cards: Sequence[Card], draw: Sequence[Card], ranking: Ranking, qualifier: Category,
             *, free_second_replacement: bool) -> BoughtGame:
    """Replace the dealer's highest card with ``draw[0]``.

    With ``free_second_replacement``: when the drawn card has the rank of the card it replaced
    and the dealer still has no game, the (new) highest card is replaced once more, free, with
    ``draw[1]``. A same-rank card that makes a game (a flush) stays. ``draw`` may hold more cards
    than needed; they are used in order. Too few raise ``CardCountError`` on ``draw``.
    """
    hand_cards = list(cards)
    replaced: list[Card] = []
    drawn: list[Card] = []
    for _ in range(2):
        if len(drawn) >= len(draw):
            if drawn:  # the free second card: the screen asks for it (one more tap)
                raise FreeSecondCard(len(draw), f"at least {len(drawn) + 1}",
                                     "dealer draw").at("draw")
            raise CardCountError(len(draw), f"at least {len(drawn) + 1}",
                                 "dealer draw").at("draw")
        i = _highest(hand_cards)
        replaced.append(hand_cards[i])
        drawn.append(draw[len(drawn)])
        hand_cards[i] = drawn[-1]
        hand = evaluate(hand_cards, ranking)
        qualified = dealer_qualifies(hand, qualifier, ranking)
        same_rank = drawn[-1].rank == replaced[-1].rank
        if qualified or not (free_second_replacement and same_rank and len(drawn) == 1):
            break
    return BoughtGame(tuple(replaced), tuple(drawn), tuple(hand_cards), hand, qualified)


def draw_needed(cards: Sequence[Card], draw: Sequence[Card], ranking: Ranking,
                qualifier: Category, *, free_second_replacement: bool) -> int:
    """How many cards the dealer's draw for a bought game takes, given the ``draw`` so far:
    1, or 2 when the first card has the rank of the card it replaced and the dealer still has
    no game (the free second replacement). The screen asks for the second card only then, and
    a card beyond this number is a surplus the croupier must not enter."""
    try:
        return len(buy_game(cards, draw, ranking, qualifier,
                            free_second_replacement=free_second_replacement).drawn)
    except CardCountError:
        return len(draw) + 1


def bought_summary(bought: BoughtGame | None) -> dict[str, Any] | None:
    """The dealer's bought game as the screen announces it the moment he draws (item
    2): the cards replaced and drawn, the new hand and whether it is a game (``None``: nothing
    bought, or the draw not complete)."""
    if bought is None:
        return None
    return {"replaced": codes(bought.replaced), "drawn": codes(bought.drawn),
            "cards": codes(bought.cards), "hand": bought.hand.label,
            "hand_value": value_of(bought.hand), "qualified": bought.qualified}
