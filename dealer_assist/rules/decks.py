"""Deck specifications as data: which cards exist in a game, and table-wide card checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .cards import ALL_CARDS, Card
from .errors import CardNotInDeckError, DuplicateCardError


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """A named deck: its ranks (2..14) and cards, plus a 52-bit mask for fast membership tests."""

    name: str
    ranks: tuple[int, ...]
    cards: tuple[Card, ...]
    mask: int

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.mask & card.mask)

    def __len__(self) -> int:
        return len(self.cards)

    def check(self, cards: Iterable[Card]) -> None:
        """Raise ``CardNotInDeckError`` for the first card that this deck does not hold."""
        for pos, card in enumerate(cards, start=1):
            if not self.mask & card.mask:
                raise CardNotInDeckError(card.code, self.name, pos)


def _deck(name: str, ranks: Iterable[int]) -> DeckSpec:
    rank_set = tuple(sorted(ranks))
    cards = tuple(c for c in ALL_CARDS if c.rank in rank_set)
    mask = 0
    for c in cards:
        mask |= c.mask
    return DeckSpec(name, rank_set, cards, mask)


STANDARD_52 = _deck("52-card", range(2, 15))
STRIPPED_32 = _deck("32-card", range(7, 15))
DECKS: dict[str, DeckSpec] = {"standard_52": STANDARD_52, "stripped_32": STRIPPED_32}


def check_unique_across(groups: Mapping[str, Sequence[Card]]) -> None:
    """Every card on a table is unique across all hands and draws of one round.

    ``groups`` maps a place ("box 1", "dealer draw") to its cards; the error names the card and
    both places, so the croupier knows which entry to correct.
    """
    seen: dict[Card, str] = {}
    for place, cards in groups.items():
        for pos, card in enumerate(cards, start=1):
            first = seen.get(card)
            if first is not None:
                raise DuplicateCardError(card.code, pos, f"({first}), named again in {place}")
            seen[card] = place
