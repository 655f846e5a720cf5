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
    Fold,
    PlaceBox,
    RevealDealer,
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
    """One box: its stakes, the five cards dealt, its improvement and its decisions."""

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

    @property
    def improvement(self) -> str | None:
        """``"exchange"``, ``"sixth_card"`` or ``None``."""
        if self.discarded:
            return "exchange"
        return "sixth_card" if self.sixth is not None else None

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        """The cards the box plays: dealt minus discarded, plus drawn or the sixth card."""
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

    def find(self, box: str) -> tuple[int, BoxState]:
        """Index and state of box ``box``; ``IllegalActionError`` on ``box`` when unknown."""
        for i, b in enumerate(self.boxes):
            if b.box == box:
                return i, b
        raise IllegalActionError(f"there is no box {box} in this round", field="box", value=box)

    @property
    def dealt(self) -> bool:
        """Whether any card is on the table yet (after which no box may be placed)."""
        return bool(self.dealer) or any(b.cards for b in self.boxes)

    @property
    def deal_complete(self) -> bool:
        return bool(self.boxes) and bool(self.dealer) and all(b.cards for b in self.boxes)


def new_round(profile: RussianProfile, table: Table) -> RoundState:
    """The empty round a croupier starts with."""
    return RoundState(profile, table)


# --- actions: one frozen record per croupier step -------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchange:
    """One improvement: discard 1..5 cards and draw as many, for the improvement fee."""

    box: str
    discard: tuple[Card, ...]
    draw: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class SixthCard:
    """One improvement: buy a sixth card, for the improvement fee."""

    box: str
    card: Card


@dataclass(frozen=True, slots=True)
class Insure:
    """Insurance against the dealer's "no game" (three of a kind or better)."""

    box: str
    amount: int


@dataclass(frozen=True, slots=True)
class Redeal:
    """A box received a wrong number of cards: the round is void, nothing is paid."""

    box: str
    cards_received: int


Action = (PlaceBox | DealBox | DealDealer | Exchange | SixthCard | Fold | Bet | Insure
          | RevealDealer | TakeAnte | BuyGame | DealerDraw | Redeal)
