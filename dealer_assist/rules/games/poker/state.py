"""The state of one player-versus-player hand: an immutable value folded from its actions.

Every transition returns a new :class:`HandState` (``dataclasses.replace``); maps are rebuilt,
never mutated, so a refused action leaves the caller's state exactly as it was and replaying
the same actions always gives an equal state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from ...cards import Card
from .profile import PokerProfile, Stakes

#: phases of a hand, in the words of the API contract
BETTING, STREET, DRAW_PHASE, PAROLE, SHOWDOWN, COMPLETE = (
    "betting", "street", "draw", "parole", "showdown", "complete")
ACTION_TYPES = ("street", "bring_in", "check", "call", "bet", "raise", "fold", "draw", "parole",
                "show", "muck")


@dataclass(frozen=True, slots=True)
class Action:
    """One thing that happened at the table, as the dealer enters it.

    ``to`` is a "raise to" amount (the player's total bet in the round); ``up`` the up cards of
    one stud street; ``discard`` a draw count; ``agreed`` the Parole answer; ``cards`` a shown
    hand (stud: the hole card, or all five).
    """

    type: str
    seat: str | None = None
    to: int | None = None
    up: Mapping[str, Card] | None = None
    discard: int | None = None
    agreed: bool | None = None
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Posting:
    """A forced chip the engine posts: an ante, a blind, or a missed-blind due."""

    seat: str
    kind: str  # ante, small_blind, big_blind, over_blind
    amount: int
    dead: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "amount": self.amount, "dead": self.dead}


@dataclass(frozen=True, slots=True)
class PotResult:
    """One awarded pot: its chips, who could win it, who did and what each got."""

    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...]
    awards: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "eligible": list(self.eligible),
                "winners": list(self.winners), "awards": dict(self.awards)}


@dataclass(frozen=True)
class HandState:
    """Everything the dealer needs at one moment of a hand (see ``docs/rules/*.md``)."""

    profile: PokerProfile
    stakes: Stakes
    seats: tuple[str, ...]  # clockwise
    button: str
    start: Mapping[str, int]
    stacks: Mapping[str, int]
    committed: Mapping[str, int]
    dead: Mapping[str, int]  # antes are bets of nobody but layered; dead blinds go to pot 1
    posted: tuple[Posting, ...]
    status: str
    round: int = 1
    bets: Mapping[str, int] = field(default_factory=dict)  # this round's live bets
    folded: frozenset[str] = frozenset()
    to_act: str | None = None
    current: int = 0  # the highest bet of the round
    increment: int = 0  # last full bet or raise size (no-limit, pot-limit minimum raise)
    unit: int = 0  # limit unit / minimum bet of the round
    acted: frozenset[str] = frozenset()
    faced: Mapping[str, int] = field(default_factory=dict)  # the bet level when he last acted
    aggressor: str | None = None  # last to bet or raise in this round
    opener: str | None = None  # stud round 1: the seat that must bring in now
    bring_in_seat: str | None = None
    opening_seat: str | None = None  # draw: the seat of the opening blind
    up: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    drawn: frozenset[str] = frozenset()
    pile: Mapping[str, int] = field(default_factory=dict)  # discards not yet reshuffled
    deck_left: int = 0
    reshuffled: tuple[str, ...] = ()  # seats whose discards went into the current stub
    show_order: tuple[str, ...] = ()
    shown: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    mucked: frozenset[str] = frozenset()
    parole: bool | None = None
    pots: tuple[PotResult, ...] = ()
    rake: int = 0
    won: Mapping[str, int] = field(default_factory=dict)
    actions: int = 0

    def but(self, **changes: Any) -> HandState:
        """A copy with some fields changed (the state itself never changes).

        ``dataclasses.replace`` re-runs ``__init__`` over some forty fields; a hand makes about a
        hundred copies, so the copy takes the instance dictionary instead (same fields, same
        equality), refusing a name that is not a field.
        """
        unknown = changes.keys() - _FIELD_NAMES
        if unknown:
            raise TypeError(f"HandState has no field {sorted(unknown)[0]}")
        new = object.__new__(HandState)
        object.__setattr__(new, "__dict__", {**self.__dict__, **changes})
        return new

    @property
    def live(self) -> tuple[str, ...]:
        """Players still in (not folded), clockwise."""
        return tuple(s for s in self.seats if s not in self.folded)

    @property
    def pot(self) -> int:
        return sum(self.committed.values())

    def can_put_in(self, seat: str) -> bool:
        return seat not in self.folded and self.stacks[seat] > 0

    def after(self, seat: str) -> tuple[str, ...]:
        """Every seat clockwise starting left of ``seat``, ending with ``seat`` itself."""
        i = self.seats.index(seat)
        return self.seats[i + 1:] + self.seats[:i + 1]

    @property
    def from_button(self) -> tuple[str, ...]:
        """Seats clockwise from the button's left: the odd-chip and the draw order."""
        return self.after(self.button)


_FIELD_NAMES = frozenset(f.name for f in fields(HandState))
