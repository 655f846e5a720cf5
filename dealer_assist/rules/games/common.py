"""Machinery shared by the banked poker games (Russian, Caribbean stud, Oasis, Big/Small).

Pure functions over cards, ints and profiles; every check raises a named ``RulesError`` whose
``field`` is relative to the object being checked (``ante``, ``cards``, ``draw``) so that the
caller can prefix it with ``err.at("boxes[0]")``. What other game modules may rely on (stable;
only additive changes):

* :class:`Table` (``min_ante``, ``max_ante``, ``max_payout``), :func:`table_from_profile`,
  :func:`parse_table` (a request's optional ``table`` object over the profile's defaults).
* :func:`check_ante` (table limits), :func:`check_bet` (BET = multiple x ANTE),
  :func:`check_equal_antes` and :func:`check_boxes_per_seat` (one player's boxes).
* :func:`check_unique_cards` (round-wide uniqueness and deck membership, naming the field path
  of the second occurrence) and :func:`add_cards` (the same check, incrementally, for events).
* :func:`dealer_qualifies` and :func:`buy_game` (the dealer's highest card replaced by the next
  cards of the deck, with the optional free second replacement on the same rank).
* :func:`cap_amount` / :func:`apply_cap` (the maximum table payout).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..decks import DeckSpec
from ..errors import (
    CardCountError,
    CardNotInDeckError,
    DuplicateCardError,
    IllegalActionError,
    RulesError,
    StakeError,
)
from ..evaluator import HandValue, evaluate
from ..profiles import HouseProfile
from ..ranking import Category, Ranking
from ..request import get_int, need_mapping


@dataclass(frozen=True, slots=True)
class Table:
    """The limits of one table: ANTE range and the maximum payout on one box."""

    min_ante: int
    max_ante: int
    max_payout: int

    def __post_init__(self) -> None:
        if self.min_ante < 1:
            raise StakeError("the table minimum must be at least 1", field="min_ante",
                             value=self.min_ante)
        if self.max_ante < self.min_ante:
            raise StakeError("the table maximum %(max_ante)s is below the minimum "
                             "%(min_ante)s",
                             max_ante=self.max_ante, min_ante=self.min_ante, field="max_ante",
                             value=self.max_ante)
        if self.max_payout < 1:
            raise StakeError("the maximum payout must be at least 1", field="max_payout",
                             value=self.max_payout)

    def to_dict(self) -> dict[str, int]:
        return {"min_ante": self.min_ante, "max_ante": self.max_ante,
                "max_payout": self.max_payout}


def table_from_profile(profile: HouseProfile) -> Table:
    return Table(profile.min_ante, profile.max_ante, profile.max_payout)


def parse_table(data: Any, profile: HouseProfile, path: str = "table") -> Table:
    """A request's ``table`` object; each missing limit falls back to the profile's default."""
    if data is None:
        return table_from_profile(profile)
    body = need_mapping(data, path)
    try:
        return Table(
            get_int(body, "min_ante", path, default=profile.min_ante, minimum=1),
            get_int(body, "max_ante", path, default=profile.max_ante, minimum=1),
            get_int(body, "max_payout", path, default=profile.max_payout, minimum=1),
        )
    except StakeError as err:
        raise err.at(path) from None


def check_ante(ante: int, table: Table, field: str = "ante") -> None:
    """ANTE within the table limits."""
    if ante < table.min_ante:
        raise StakeError("ANTE %(ante)s is below the table minimum %(minimum)s", ante=ante,
                         minimum=table.min_ante, field=field, value=ante)
    if ante > table.max_ante:
        raise StakeError("ANTE %(ante)s is above the table maximum %(maximum)s", ante=ante,
                         maximum=table.max_ante, field=field, value=ante)


def check_bet(bet: int, ante: int, multiple: int, field: str = "bet") -> None:
    """BET (raise) is exactly ``multiple`` x ANTE."""
    if bet != multiple * ante:
        raise StakeError("BET must be %(multiple)s x ANTE = %(v)s, got %(bet)s",
                         multiple=multiple, v=multiple * ante, bet=bet,
                         field=field, value=bet)


def check_equal_antes(boxes: Iterable[tuple[str, int, str]]) -> None:
    """All boxes of one player carry equal antes. ``boxes``: ``(seat, ante, field path)``."""
    first: dict[str, int] = {}
    for seat, ante, path in boxes:
        expected = first.setdefault(seat, ante)
        if ante != expected:
            raise StakeError("all boxes of seat %(seat)s must carry the same ANTE "
                             "(%(expected)s), got %(ante)s",
                             seat=seat, expected=expected, ante=ante, field=path, value=ante)


def check_boxes_per_seat(boxes: Iterable[tuple[str, str]], limit: int = 4) -> None:
    """One player plays at most ``limit`` boxes. ``boxes``: ``(seat, field path)``."""
    count: dict[str, int] = {}
    for seat, path in boxes:
        count[seat] = count.get(seat, 0) + 1
        if count[seat] > limit:
            raise IllegalActionError("seat %(seat)s may play at most %(limit)s boxes",
                                     seat=seat, limit=limit, field=path,
                                     value=seat)


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
            where = "in the same hand" if first == place else f"(first named in {first})"
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


def cap_amount(amount: int, cap: int) -> tuple[int, bool]:
    """``(min(amount, cap), capped?)`` for one winning amount."""
    return (cap, True) if amount > cap else (amount, False)


def apply_cap(amounts: Sequence[int], cap: int) -> tuple[tuple[int, ...], bool]:
    """Cap the sum of several winnings of one box; earlier amounts keep priority.

    The amounts are in the order they were won; when the total exceeds ``cap`` the later ones
    are reduced first. Negative amounts (losses) pass through untouched and do not count.
    """
    room = cap
    out: list[int] = []
    capped = False
    for amount in amounts:
        if amount <= 0:
            out.append(amount)
            continue
        paid = min(amount, max(room, 0))
        capped = capped or paid < amount
        room -= paid
        out.append(paid)
    return tuple(out), capped


def passes(check: Callable[..., object], *args: Any) -> bool:
    """Whether ``check(*args)`` runs without a ``RulesError``: every ``can_*`` is its
    ``verify_*`` asked this way, so the buttons a screen shows and the checks agree."""
    try:
        check(*args)
    except RulesError:
        return False
    return True


# --- cards entered when they are exposed (dealing order) --------------------------------------
# Cards entered when they are exposed: the checks every game runs on a hand shown late.
#
# At a live table the croupier sees a box's cards only when the player shows them (insurance, a
# Big/Small split) or turns them over at the showdown; the dealer's hole cards only at the reveal.
# The engine still checks what it can when it can: :func:`check_shown` verifies a shown hand
# against everything the round already knows about that box (its count for the box's history,
# cards it must hold, cards it discarded, how many dealt cards it kept) and names every new card
# once in the round (a card named twice anywhere, or not in the deck, is refused).

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
