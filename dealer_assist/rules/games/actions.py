"""The croupier's steps that every banked game shares, as small frozen records.

Russian poker and the one-ANTE stud games (Caribbean, Oasis, Big/Small) record the same deal,
decision and dealer steps; each game adds only its own improvement records (an exchange, a
replacement, extra cards...). The live-table app stores each record as an event and replays it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card


@dataclass(frozen=True, slots=True)
class PlaceBox:
    """Before the deal: a box's ANTE and, where the game has one, its bonus side bet."""

    box: str
    seat: str
    ante: int
    bonus: int = 0


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
