"""Cards named in a round: every card unique across the table, in the game's deck, and a hand
shown late checked against everything the round already knows about it.

Every card on a table is unique across all boxes, the dealer's hand, his later draws and any
replacement cards (RULES.md "Card notation"). ``used`` maps every card named so far to a label of
the place that named it; each function returns a new mapping, never changing the old one.

At a live table the croupier sees a box's cards only when the player shows them (insurance, a
Big/Small split) or turns them over at the showdown; the dealer's hole cards only at the reveal.
The engine still checks what it can when it can: :func:`check_shown` verifies a shown hand
against everything the round already knows about that box (its count, cards it must hold, cards
it discarded, how many dealt cards it kept) and names every new card once in the round.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from ...cards import Card
from ...decks import DeckSpec
from ...errors import CardCountError, CardNotInDeckError, DuplicateCardError, IllegalActionError
from ...phrase import Phrase


def add_cards(used: Mapping[Card, str], cards: Sequence[Card], field: str,
              deck: DeckSpec, label: str | None = None) -> dict[Card, str]:
    """Cards named at ``field`` join the round; a card already named (or not in the deck) fails.

    ``used`` maps every card named so far to a label of the place that named it (``label``,
    by default the field path, e.g. "box 3 cards"); a new mapping is returned.
    """
    out = dict(used)
    place = label or field
    for pos, card in enumerate(cards, start=1):
        if card not in deck:
            raise CardNotInDeckError(card.code, deck.name, pos).at(field)
        first = out.get(card)
        if first is not None:
            where = (Phrase("in the same hand") if first == place
                     else Phrase("(first named in %(place)s)", place=first))
            raise DuplicateCardError(card.code, pos, where).at(field)
        out[card] = place
    return out


def check_unique_cards(groups: Mapping[str, Sequence[Card]], deck: DeckSpec) -> dict[Card, str]:
    """Every card of a round is unique across all hands, draws and replacements.

    ``groups`` maps a field path (``boxes[0].cards``, ``dealer.draw``) to its cards, in the order
    the cards appear; the error names the path of the second occurrence and the first place.
    """
    used: dict[Card, str] = {}
    for path, cards in groups.items():
        used = add_cards(used, cards, path, deck)
    return used


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
            raise DuplicateCardError(card.code, pos, Phrase("in the same hand")).at(field)
    for card in must_have:
        if card not in cards:
            raise IllegalActionError("%(label)s: %(card)s was recorded for this box and "
                                     "must be in its hand",
                                     label=label, card=card.code, field=field, value=card.code)
    for card in must_not:
        if card in cards:
            raise IllegalActionError("%(label)s: %(card)s was discarded and cannot be in "
                                     "the hand",
                                     label=label, card=card.code, field=field, value=card.code)
    if keep is not None and dealt:
        kept = sum(1 for c in cards if c in dealt)
        if kept != keep:
            raise IllegalActionError("%(label)s: the box kept %(keep)s of its dealt cards, "
                                     "the hand shows %(kept)s of them",
                                     label=label, keep=keep, kept=kept, field=field, value=kept)
    return add_cards(used, [c for c in cards if c not in own], field, deck, label)


def reveal_cards(used: Mapping[Card, str], deck: DeckSpec, dealer: tuple[Card, ...],
                 up: tuple[Card, ...], hole: tuple[Card, ...], hand: int) -> dict[Card, str]:
    """The used cards with the dealer's hole cards added (shared with the stud games): with
    the face-up cards they make his hand of ``hand`` cards."""
    if dealer:
        if hole:
            raise IllegalActionError("the dealer's five cards are already recorded",
                                     field="cards", value=[c.code for c in hole])
        return dict(used)
    if len(up) + len(hole) != hand:
        raise CardCountError(len(hole), str(hand - len(up)), "dealer's hole cards").at("cards")
    return add_cards(used, hole, "cards", deck, "dealer hole cards")
