"""The pure rules engine: standard library only, no I/O, no clock, no randomness.

Public interface (relied on from outside the project)::

    from dealer_assist.rules import parse_cards, evaluate, rank_key, get_ranking
"""

from .cards import ALL_CARDS, Card, Suit, format_cards, parse_card, parse_cards
from .decks import STANDARD_52, STRIPPED_32, DeckSpec, check_unique_across
from .errors import (
    CardCountError,
    CardNotInDeckError,
    CardParseError,
    DuplicateCardError,
    HouseRulesError,
    IllegalActionError,
    RulesError,
    StakeError,
)
from .evaluator import HandValue, SmallHandValue, evaluate, evaluate_small, rank_key
from .ranking import Category, Ranking, get_ranking

__all__ = [
    "ALL_CARDS", "Card", "CardCountError", "CardNotInDeckError", "CardParseError", "Category",
    "DeckSpec", "DuplicateCardError", "HandValue", "HouseRulesError", "IllegalActionError",
    "Ranking", "RulesError", "STANDARD_52", "STRIPPED_32", "SmallHandValue", "StakeError", "Suit",
    "check_unique_across", "evaluate", "evaluate_small", "format_cards", "get_ranking",
    "parse_card", "parse_cards", "rank_key",
]
