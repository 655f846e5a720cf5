"""The one round state of every house game: Russian poker, Caribbean stud, Oasis, Big/Small.

A round is folded from small frozen step records (``actions.py``); every step returns a new
:class:`RoundState`, never mutating the old one, so a refused step leaves the round exactly as it
was and replay with undo is a fold. The games differ only in their profile (the type parameter
``P``) and in their improvement, which is one :class:`Improvement` record on the box whatever its
kind (Russian ``exchange``/``sixth_card``, Oasis ``replace``, Big/Small ``free``/``bought``).

In dealing order a box's cards are unknown until shown: the improvement then records only how
many cards changed (``count``) and the box's ``shown`` hand is the final hand as the player
turned it over (to insure, or at the showdown).

One contract for every step of every game (``rules/engine.py``): ``verify_<step>(state,
action) -> None`` is the one place that checks it and raises a named ``RulesError`` (field
relative to the box or the dealer, as in the calculator request); ``can_<step>(state[, box])``
tells the UI whether to offer it; the game's ``apply(state, action)`` verifies it and returns
the new state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from ...cards import Card
from ...errors import IllegalActionError
from ...evaluator import HandValue, evaluate
from ...profiles import HouseProfile
from .dealer import dealer_qualifies
from .players import Player
from .table import Table

BET, FOLD = "bet", "fold"
TAKE_ANTE, BUY_GAME = "take_ante", "buy_game"
#: improvements that swap dealt cards for new ones (the new cards replace the discarded)
SWAPS = frozenset({"exchange", "replace"})

T = TypeVar("T")
P = TypeVar("P", bound=HouseProfile)
Used: TypeAlias = Mapping[Card, str]


def evolve(record: T, **changes: Any) -> T:
    """``dataclasses.replace`` for the slotted records below, without its per-call introspection
    (a full table folds some seventy steps per round)."""
    names: tuple[str, ...] = type(record).__slots__  # type: ignore[attr-defined]
    values = {name: getattr(record, name) for name in names}
    values.update(changes)
    return type(record)(**values)


@dataclass(frozen=True, slots=True)
class Improvement:
    """A box's one improvement. ``kind``: Russian ``exchange`` or ``sixth_card``, Oasis
    ``replace``, Big/Small ``free`` or ``bought`` extra cards; ``discard``: the cards given up
    (when seen); ``cards``: the new cards (when seen); ``count``: how many cards were swapped face
    down (``discard`` unknown); ``fee`` in currency units; ``forces_bet`` forbids a fold."""

    kind: str
    fee: int
    discard: tuple[Card, ...] = ()
    cards: tuple[Card, ...] = ()
    forces_bet: bool = False
    count: int = 0

    @property
    def replaced(self) -> int:
        """How many dealt cards were swapped (seen or face down)."""
        return len(self.discard) or self.count


@dataclass(frozen=True, slots=True)
class BoxState:
    """One box: stakes, the cards known so far, its improvement, the Big/Small split, decisions."""

    box: str
    seat: str
    ante: int
    bonus: int = 0
    cards: tuple[Card, ...] = ()
    improvement: Improvement | None = None
    #: Big/Small: the chosen Big Hand (5) and Small Hand (2); empty until split
    big: tuple[Card, ...] = ()
    small: tuple[Card, ...] = ()
    decision: str | None = None
    bet: int = 0
    insurance: int = 0
    no_game: str | None = None
    buy_fee: int = 0
    #: the final hand as the player showed it (to insure, or at the showdown)
    shown: tuple[Card, ...] = ()
    #: who plays the box when ``place`` named him (else its ``seat`` does: ``players.py``)
    player: Player | None = None

    @property
    def player_data(self) -> dict[str, str] | None:
        """Who plays the box, as its settlement carries it (None: ``place`` named nobody)."""
        return self.player.to_dict() if self.player is not None else None

    @property
    def improvement_kind(self) -> str | None:
        return self.improvement.kind if self.improvement else None

    @property
    def improvement_fee(self) -> int:
        return self.improvement.fee if self.improvement else 0

    @property
    def discarded(self) -> tuple[Card, ...]:
        return self.improvement.discard if self.improvement else ()

    @property
    def drawn(self) -> tuple[Card, ...]:
        """The new cards of a swap (exchange/replace), as far as seen."""
        imp = self.improvement
        return imp.cards if imp is not None and imp.kind in SWAPS else ()

    @property
    def sixth(self) -> Card | None:
        """Russian poker: the bought sixth card, when seen."""
        imp = self.improvement
        return imp.cards[0] if imp is not None and imp.kind == "sixth_card" and imp.cards \
            else None

    @property
    def exchange_count(self) -> int:
        return self.improvement.replaced if self.improvement else 0

    @property
    def hand_known(self) -> bool:
        """Whether the final hand is known: split, shown, or dealt with every change seen."""
        if self.big or self.shown:
            return True
        if not self.cards:
            return False
        imp = self.improvement
        if imp is None:
            return True
        if imp.kind in SWAPS:
            return bool(imp.discard)
        return imp.kind == "sixth_card" and bool(imp.cards)

    @property
    def first_five(self) -> tuple[Card, ...]:
        """The five cards dealt (the Russian bonus hand): recorded, or the shown hand of a box
        that did not improve (its final hand is its first five)."""
        if self.cards:
            return self.cards
        return self.shown if self.improvement is None else ()

    @property
    def hand_cards(self) -> tuple[Card, ...]:
        """The cards the box plays: its Big Hand, the shown hand, or dealt minus discarded plus
        the new cards (a sixth card added)."""
        if self.big:
            return self.big
        if self.shown:
            return self.shown
        imp = self.improvement
        if imp is None or imp.kind in ("free", "bought"):
            return self.cards
        if imp.kind == "sixth_card":
            return (*self.cards, *imp.cards)
        if imp.kind == "exchange" and not imp.discard:
            return self.cards
        return tuple(c for c in self.cards if c not in imp.discard) + imp.cards

    @property
    def needs_split(self) -> bool:
        """Big/Small bought extra cards must be split into Big and Small Hand before the BET."""
        return self.improvement_kind == "bought" and not self.big

    @property
    def folded(self) -> bool:
        return self.decision == FOLD

    @property
    def betting(self) -> bool:
        return self.decision == BET


@dataclass(frozen=True, slots=True)
class RoundState(Generic[P]):
    """A round so far, of a game whose house rules are a ``P``. Replace, never mutate."""

    profile: P
    table: Table
    boxes: tuple[BoxState, ...] = ()
    dealer: tuple[Card, ...] = ()
    revealed: bool = False
    #: cards drawn for a bought game (used in order), and the dealer's Big/Small Small Hand
    draw: tuple[Card, ...] = ()
    dealer_small: tuple[Card, ...] = ()
    #: every card named in the round -> where it was first named (uniqueness across the table)
    used: Used = field(default_factory=dict)
    #: why the round was voided by a redeal (Russian poker), or None
    voided: str | None = None
    #: the value of ``dealer`` when evaluated once as his cards became known, else None
    dealer_value: HandValue | None = None
    #: dealing order: the deal is done (``DealUp``) with the dealer's face-up card(s)
    dealt_up: bool = False
    up: tuple[Card, ...] = ()

    def hand_size(self, box: BoxState) -> int:
        """The size of ``box``'s final hand: the profile's hand (``RoundTerms.hand_size``), one
        card more after a sixth card."""
        return self.profile.terms().hand_size + (1 if box.improvement_kind == "sixth_card" else 0)

    def find(self, box: str) -> tuple[int, BoxState]:
        """Index and state of box ``box``; ``IllegalActionError`` on ``box`` when unknown."""
        for i, b in enumerate(self.boxes):
            if b.box == box:
                return i, b
        raise IllegalActionError("there is no box %(box)s in this round", box=box, field="box",
                                 value=box)

    def with_box(self, index: int, box: BoxState, used: Used | None = None,
                 **changes: Any) -> RoundState[P]:
        """The round with box ``index`` replaced (and the used cards, and other changes)."""
        boxes = self.boxes[:index] + (box,) + self.boxes[index + 1:]
        return evolve(self, boxes=boxes, used=self.used if used is None else used, **changes)

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

    def deal_done(self, box: BoxState) -> bool:
        """Dealing order: once dealt. All cards first: the box's and the dealer's cards."""
        return self.dealt_up or (bool(box.cards) and bool(self.dealer))

    @property
    def dealer_hand(self) -> HandValue:
        """The value of the dealer's (first) hand."""
        if self.dealer_value is not None:
            return self.dealer_value
        return evaluate(self.dealer, self.profile.ranking)

    @property
    def dealer_qualified(self) -> bool:
        """The dealer "has a game" (the profile's qualifier or better)."""
        return dealer_qualifies(self.dealer_hand, self.profile.qualifier, self.profile.ranking)

    @property
    def buyers(self) -> tuple[BoxState, ...]:
        return tuple(b for b in self.boxes if b.betting and b.no_game == BUY_GAME)


def new_round(profile: P, table: Table) -> RoundState[P]:
    """The empty round a croupier starts with."""
    return RoundState(profile, table)
