"""Cards entered when they are exposed: the checks every game runs on a hand shown late.

At a live table the croupier sees a box's cards only when the player shows them (insurance, a
Big/Small split) or turns them over at the showdown; the dealer's hole cards only at the reveal.
The engine still checks what it can when it can: :func:`check_shown` verifies a shown hand
against everything the round already knows about that box (its count for the box's history,
cards it must hold, cards it discarded, how many dealt cards it kept) and names every new card
once in the round (a card named twice anywhere, or not in the deck, is refused).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from ..cards import Card
from ..decks import DeckSpec
from ..errors import CardCountError, DuplicateCardError, IllegalActionError
from .common import add_cards


def check_shown(used: Mapping[Card, str], deck: DeckSpec, cards: Sequence[Card], *,
                count: int, label: str, field: str = "cards", own: Collection[Card] = (),
                must_have: Iterable[Card] = (), must_not: Iterable[Card] = (),
                dealt: Collection[Card] = (), keep: int | None = None) -> dict[Card, str]:
    """The round's used cards with the shown hand's new cards added; a ``RulesError`` when the
    hand cannot be the box's.

    ``own``: cards already recorded for this box (not new when shown again); ``must_have`` /
    ``must_not``: cards the final hand holds / cannot hold; ``dealt`` and ``keep``: the box's
    five dealt cards (when known) and how many of them an exchange of unknown cards kept.
    """
    if len(cards) != count:
        raise CardCountError(len(cards), str(count), label).at(field)
    for pos, card in enumerate(cards, start=1):
        if card in cards[:pos - 1]:
            raise DuplicateCardError(card.code, pos, "in the same hand").at(field)
    for card in must_have:
        if card not in cards:
            raise IllegalActionError(f"{label}: {card.code} was recorded for this box and must "
                                     "be in its hand", field=field, value=card.code)
    for card in must_not:
        if card in cards:
            raise IllegalActionError(f"{label}: {card.code} was discarded and cannot be in the "
                                     "hand", field=field, value=card.code)
    if keep is not None and dealt:
        kept = sum(1 for c in cards if c in dealt)
        if kept != keep:
            raise IllegalActionError(f"{label}: the box kept {keep} of its dealt cards, the hand "
                                     f"shows {kept} of them", field=field, value=kept)
    return add_cards(used, [c for c in cards if c not in own], field, deck, label)


def reveal_cards(used: Mapping[Card, str], deck: DeckSpec, dealer: tuple[Card, ...],
                 up: tuple[Card, ...], hole: tuple[Card, ...]) -> dict[Card, str]:
    """The used cards with the dealer's hole cards added (shared with the stud games)."""
    if dealer:
        if hole:
            raise IllegalActionError("the dealer's five cards are already recorded",
                                     field="cards", value=[c.code for c in hole])
        return dict(used)
    if len(up) + len(hole) != 5:
        raise CardCountError(len(hole), str(5 - len(up)), "dealer's hole cards").at("cards")
    return add_cards(used, hole, "cards", deck, "dealer hole cards")
