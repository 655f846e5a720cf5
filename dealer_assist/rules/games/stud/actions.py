"""The croupier's steps as small frozen records: those every house game takes, and the stud
games' own improvements.

Russian poker and the one-ANTE stud games (Caribbean, Oasis, Big/Small) record the same deal,
decision and dealer steps; each game adds only its own improvement records (Oasis ``Replace``;
Big/Small ``DealExtra``, ``ChooseSplit``, ``DealerSmall``; Russian poker's in
``russian/actions.py``). The live-table app stores each record as an event and replays it; every
record has one ``verify_<step>(state, record) -> None`` (``steps.py`` and the game's module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ...cards import Card
from .players import Player


@dataclass(frozen=True, slots=True)
class PlaceBox:
    """Before the deal: a box's ANTE and, where the game has one, its bonus side bet; who plays
    it when named (``players.py``)."""

    box: str
    seat: str
    ante: int
    bonus: int = 0
    player: Player | None = None


@dataclass(frozen=True, slots=True)
class DealBox:
    """The five cards dealt to a box."""

    box: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealDealer:
    """The dealer's five cards."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Bet:
    """Continue: BET (raise) = the profile's ``bet_multiple`` x ANTE."""

    box: str
    amount: int


@dataclass(frozen=True, slots=True)
class Fold:
    box: str


@dataclass(frozen=True, slots=True)
class DealUp:
    """The deal in dealing order: the dealer's face-up card(s) (none in Russian poker by
    default); every box's cards and the dealer's other cards stay face down, unrecorded."""

    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class RevealDealer:
    """The dealer opens his hand: qualification is known from here on. ``cards``: his hole
    cards, when the deal recorded only his face-up card(s) (empty when all five are known)."""

    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Show:
    """Showdown: a box's final hand as it is turned over (Big/Small: ``cards`` the Big Hand,
    ``small`` the Small Hand of free extra cards)."""

    box: str
    cards: tuple[Card, ...]
    small: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class TakeAnte:
    """Dealer has no game: the box takes its ANTE paid 1:1 (BET returned)."""

    box: str


@dataclass(frozen=True, slots=True)
class BuyGame:
    """Dealer has no game: the box buys a game for the dealer (where the profile allows it)."""

    box: str


@dataclass(frozen=True, slots=True)
class DealerDraw:
    """The next cards of the deck, used in order to replace the dealer's highest card."""

    cards: tuple[Card, ...]


# --- Oasis poker -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Replace:
    """Before the decision: discard some cards and draw as many, for the schedule's fee.

    Dealing order: ``count`` cards replaced face down (``discard`` empty, ``draw`` the new
    cards only if the croupier saw them)."""

    box: str
    discard: tuple[Card, ...]
    draw: tuple[Card, ...]
    count: int = 0


# --- Big/Small ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DealExtra:
    """Two extra cards for a box: ``free`` (blind, they are the Small Hand) or ``bought``.

    ``cards``: the two extra cards, or all seven (the box's five, then the two extra) when the
    player shows them for the split suggestion; empty when dealt face down (dealing order)."""

    box: str
    mode: str
    cards: tuple[Card, ...] = ()

    @property
    def extra(self) -> tuple[Card, ...]:
        return self.cards[-2:]

    @property
    def five(self) -> tuple[Card, ...]:
        return self.cards[:5] if len(self.cards) == 7 else ()


@dataclass(frozen=True, slots=True)
class ChooseSplit:
    """A box with bought extra cards splits its seven cards into Big (5) and Small (2) Hand."""

    box: str
    big: tuple[Card, ...]
    small: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DealerSmall:
    """The dealer has a game: his two further cards, his Small Hand."""

    cards: tuple[Card, ...]


SharedStep: TypeAlias = (PlaceBox | DealBox | DealDealer | DealUp | Bet | Fold | RevealDealer
                         | TakeAnte | BuyGame | DealerDraw | Show)
"""The steps every house game takes (``steps.py``, written once)."""
OasisStep: TypeAlias = SharedStep | Replace
SplitStep: TypeAlias = SharedStep | DealExtra | ChooseSplit | DealerSmall
StudStep: TypeAlias = SharedStep | Replace | DealExtra | ChooseSplit | DealerSmall
"""Any step of a stud game (Russian poker adds its own: ``russian/actions.py``)."""
