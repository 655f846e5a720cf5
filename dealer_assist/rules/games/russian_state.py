"""Russian poker: the immutable round state and the actions a croupier records.

A round is folded from its actions (``russian_round.apply``); every action is a small frozen
record, so the live-table app can store it as an event and replay it. Field names in errors are
relative to a box (``ante``, ``cards``, ``improvement.exchange.draw``) or to the dealer (``cards``,
``draw``), exactly as in the calculator request, so one ``err.at(...)`` gives the full path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..cards import Card
from ..errors import IllegalActionError
from ..evaluator import HandValue
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

BET, FOLD = "bet", "fold"
T = TypeVar("T")


def evolve(record: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the slotted records below, without its per-call introspection
    (a full table folds some seventy actions per round)."""
    names: tuple[str, ...] = type(record).__slots__  # type: ignore[attr-defined]
    values = {name: getattr(record, name) for name in names}
    values.update(changes)
    return type(record)(**values)


TAKE_ANTE, BUY_GAME = "take_ante", "buy_game"


@dataclass(frozen=True, slots=True)
class BoxState:
    """One box: its stakes, the cards known so far, its improvement and its decisions.

    In dealing order the box's cards are unknown until shown: ``exchanged`` counts the cards of
    an exchange whose cards were not seen, ``sixth_bought`` records a face-down sixth card, and
    ``shown`` is the final hand as the player showed it (to insure, or at the showdown).
    """

    box: str
    seat: str
    ante: int
    bonus: int = 0
    cards: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = ()
    sixth: Card | None = None
    decision: str | None = None
    bet: int = 0
    insurance: int = 0
    no_game: str | None = None
    exchanged: int = 0
    sixth_bought: bool = False
    shown: tuple[Card, ...] = ()

    @property
    def improvement(self) -> str | None:
        """``"exchange"``, ``"sixth_card"`` or ``None``."""
        if self.discarded or self.exchanged:
            return "exchange"
        return "sixth_card" if self.sixth is not None or self.sixth_bought else None

    @property
    def exchange_count(self) -> int:
        return len(self.discarded) or self.exchanged

    @property
    def hand_size(self) -> int:
        """The final hand's size for the box's history: 6 after a sixth card, else 5."""
        return 6 if self.improvement == "sixth_card" else 5

    @property
    def hand_known(self) -> bool:
        """Whether the final hand is known: shown, or dealt with every change seen."""
        if self.shown:
            return True
        if not self.cards:
            return False
        kind = self.improvement
        return (kind is None or (kind == "exchange" and bool(self.discarded))
                or (kind == "sixth_card" and self.sixth is not None))

    @property
    def first_five(self) -> tuple[Card, ...]:
        """The five cards dealt (the bonus hand): recorded, or the shown hand of a box that
        neither exchanged nor bought a card (its final hand is its first five)."""
        if self.cards:
            return self.cards
        return self.shown if self.improvement is None else ()

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        """The cards the box plays: shown, or dealt minus discarded, plus drawn or the sixth."""
        if self.shown:
            return self.shown
        if self.sixth is not None:
            return (*self.cards, self.sixth)
        if not self.discarded:
            return self.cards
        kept = tuple(c for c in self.cards if c not in self.discarded)
        return kept + self.drawn

    @property
    def folded(self) -> bool:
        return self.decision == FOLD

    @property
    def betting(self) -> bool:
        return self.decision == BET


@dataclass(frozen=True, slots=True)
class RoundState:
    """A Russian poker round so far. Replace, never mutate: every action returns a new state."""

    profile: RussianProfile
    table: Table
    boxes: tuple[BoxState, ...] = ()
    dealer: tuple[Card, ...] = ()
    revealed: bool = False
    draw: tuple[Card, ...] = ()
    #: every card named in the round -> where it was first named (uniqueness across the table)
    used: Mapping[Card, str] = field(default_factory=dict)
    #: why the round was voided by a redeal, or None
    voided: str | None = None
    #: the value of ``dealer`` (evaluated once, when the dealer's cards are dealt)
    dealer_value: HandValue | None = None
    #: dealing order: the deal is done (``DealUp``) and the dealer's face-up card(s)
    dealt_up: bool = False
    up: tuple[Card, ...] = ()

    def find(self, box: str) -> tuple[int, BoxState]:
        """Index and state of box ``box``; ``IllegalActionError`` on ``box`` when unknown."""
        for i, b in enumerate(self.boxes):
            if b.box == box:
                return i, b
        raise IllegalActionError(f"there is no box {box} in this round", field="box", value=box)

    @property
    def dealt(self) -> bool:
        """Whether any card is on the table yet (after which no box may be placed)."""
        return self.dealt_up or bool(self.dealer) or any(b.cards for b in self.boxes)

    @property
    def deal_complete(self) -> bool:
        """Dealing order: once dealt. All cards first: every box's and the dealer's five."""
        if self.dealt_up:
            return bool(self.boxes)
        return bool(self.boxes) and bool(self.dealer) and all(b.cards for b in self.boxes)


def new_round(profile: RussianProfile, table: Table) -> RoundState:
    """The empty round a croupier starts with."""
    return RoundState(profile, table)


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
