"""Russian poker: the immutable round state and the actions a croupier records.

A round is folded from its actions (``russian_round.apply``); every action is a small frozen
record, so the live-table app can store it as an event and replay it. Field names in errors are
relative to a box (``ante``, ``cards``, ``improvement.exchange.draw``) or to the dealer (``cards``,
``draw``), exactly as in the calculator request, so one ``err.at(...)`` gives the full path.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from .actions import (  # the shared step records, re-exported for callers
    Bet,
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    DealUp,
    Fold,
    PlaceBox,
    RevealDealer,
    Show,
    TakeAnte,
)
from .common import Table
from .russian_profile import RussianProfile
from .state import BET as BET  # the one round state of every house game
from .state import BUY_GAME as BUY_GAME
from .state import FOLD as FOLD
from .state import TAKE_ANTE as TAKE_ANTE
from .state import BoxState as BoxState
from .state import Improvement as Improvement
from .state import RoundState as _RoundState
from .state import evolve as evolve

RoundState = _RoundState[RussianProfile]
"""A Russian poker round: the one round state with Russian house rules."""


def new_round(profile: RussianProfile, table: Table) -> RoundState:
    """The empty round a croupier starts with."""
    return _RoundState(profile, table)


# --- actions: one frozen record per croupier step -------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchange:
    """One improvement: discard 1..5 cards and draw as many, for the improvement fee.

    Dealing order: ``count`` cards exchanged face down (``discard`` empty; ``draw`` the new
    cards if the croupier saw them, else empty)."""

    box: str
    discard: tuple[Card, ...]
    draw: tuple[Card, ...]
    count: int = 0


@dataclass(frozen=True, slots=True)
class SixthCard:
    """One improvement: buy a sixth card, for the improvement fee (``None``: face down)."""

    box: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class Insure:
    """Insurance against the dealer's "no game" (three of a kind or better); ``cards``: the
    hand the player shows to insure (empty when the round already knows it)."""

    box: str
    amount: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Redeal:
    """A box received a wrong number of cards: the round is void, nothing is paid."""

    box: str
    cards_received: int


Action = (PlaceBox | DealBox | DealDealer | DealUp | Exchange | SixthCard | Fold | Bet | Insure
          | RevealDealer | TakeAnte | BuyGame | DealerDraw | Redeal | Show)
