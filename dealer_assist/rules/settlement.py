"""Frozen settlement records shared by every house game.

Money is an ``int`` in the table's currency unit. ``net`` is always from the box's (player's)
point of view: positive means the house pays that amount, negative means the house takes it, and
0 is a push (the stake goes back). A stake is never part of ``net``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .cards import Card
from .evaluator import HandValue, SmallHandValue
from .ranking import Category

#: the wager names, in the order a settlement lists them (public contract of the API)
WAGER_NAMES = ("ante", "bet", "improvement_fee", "buy_game_fee", "insurance", "bonus")
#: the fees, collected when they are incurred (RULES.md, "People at the table"): the improvement
#: fee when the player asks for it, the buy-game fee when he buys; the croupier takes them into
#: the tray then, and the showdown moves the other wagers alone
FEES = ("improvement_fee", "buy_game_fee")


def at_showdown(box: Mapping[str, Any]) -> int:
    """What moves for a box at the showdown (a box of :meth:`Settlement.to_dict`): its wagers'
    net without the fees, which were collected at the tap. A view only: the box's ``net`` (fees
    included) and the house's win stay as settled and stored."""
    return sum(w["net"] for name, w in box["wagers"].items() if name not in FEES)


class Outcome(StrEnum):
    win = "win"
    lose = "lose"
    push = "push"


@dataclass(frozen=True, slots=True)
class WagerResult:
    """One wager of one box: stake, outcome, signed net (player's view) and the reason."""

    name: str
    stake: int
    outcome: Outcome
    net: int
    explanation: str

    def __post_init__(self) -> None:
        if not (isinstance(self.stake, int) and isinstance(self.net, int)):
            raise TypeError("money must be an int")  # floats never reach a money path
        expected = {Outcome.win: self.net > 0, Outcome.lose: self.net < 0,
                    Outcome.push: self.net == 0}[self.outcome]
        if not expected:
            raise ValueError(f"{self.name}: outcome {self.outcome} does not match net {self.net}")

    @classmethod
    def won(cls, name: str, stake: int, amount: int, why: str) -> WagerResult:
        if amount == 0:
            return cls(name, stake, Outcome.push, 0, why)
        return cls(name, stake, Outcome.win, amount, why)

    @classmethod
    def lost(cls, name: str, stake: int, why: str) -> WagerResult:
        if stake == 0:
            return cls(name, stake, Outcome.push, 0, why)
        return cls(name, stake, Outcome.lose, -stake, why)

    @classmethod
    def pushed(cls, name: str, stake: int, why: str) -> WagerResult:
        return cls(name, stake, Outcome.push, 0, why)

    def to_dict(self) -> dict[str, Any]:
        return {"stake": self.stake, "outcome": self.outcome.value, "net": self.net,
                "explanation": self.explanation}


@dataclass(frozen=True, slots=True)
class PaidCombination:
    """A combination that is paid: its category, significant cards and pay multiplier."""

    category: Category
    cards: tuple[Card, ...]
    multiplier: int

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category.value, "cards": [c.code for c in self.cards],
                "multiplier": self.multiplier}


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    """Everything that happens to one box, wager by wager."""

    box: str
    seat: str
    wagers: Mapping[str, WagerResult]
    combinations: tuple[PaidCombination, ...] = ()
    capped: bool = False
    hand: HandValue | None = None
    small_hand: SmallHandValue | None = None
    folded: bool = False
    notes: tuple[str, ...] = ()
    #: who played the box when ``place`` named him (``{"seat": "A"}``, ``{"card": "..."}``)
    player: Mapping[str, str] | None = None

    @property
    def net(self) -> int:
        return sum(w.net for w in self.wagers.values())

    @property
    def explanation(self) -> str:
        return "; ".join(w.explanation for w in self.wagers.values() if w.explanation)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "box": self.box,
            "seat": self.seat,
            "folded": self.folded,
            "hand": _hand_dict(self.hand),
            "small_hand": _small_dict(self.small_hand),
            "wagers": {name: w.to_dict() for name, w in self.wagers.items()},
            "net": self.net,
            "combinations": [c.to_dict() for c in self.combinations],
            "capped": self.capped,
            "explanation": self.explanation,
            "notes": list(self.notes),
        }
        if self.player is not None:  # absent from older settlements
            out["player"] = dict(self.player)
        return out


@dataclass(frozen=True, slots=True)
class DealerResult:
    """The dealer's hand, whether it qualifies, and what buying a game changed."""

    cards: tuple[Card, ...]
    hand: HandValue
    qualified: bool
    bought: bool = False
    replaced: tuple[Card, ...] = ()
    drawn: tuple[Card, ...] = ()
    new_cards: tuple[Card, ...] | None = None
    new_hand: HandValue | None = None
    new_qualified: bool | None = None
    small: tuple[Card, ...] = ()
    small_hand: SmallHandValue | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": [c.code for c in self.cards],
            "hand": _hand_dict(self.hand),
            "qualified": self.qualified,
            "bought": self.bought,
        }
        if self.bought:
            out["replaced"] = [c.code for c in self.replaced]
            out["drawn"] = [c.code for c in self.drawn]
            out["new_cards"] = [c.code for c in self.new_cards or ()]
            out["new_hand"] = _hand_dict(self.new_hand)
            out["new_qualified"] = self.new_qualified
        if self.small:
            out["small"] = [c.code for c in self.small]
            out["small_hand"] = _small_dict(self.small_hand)
        return out


@dataclass(frozen=True, slots=True)
class Settlement:
    """The frozen result of one round: the dealer and every box."""

    game: str
    profile: str
    dealer: DealerResult
    boxes: tuple[BoxSettlement, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def house_net(self) -> int:
        """What the house won on the round (minus the sum of the boxes' nets)."""
        return -sum(b.net for b in self.boxes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "profile": self.profile,
            "dealer": self.dealer.to_dict(),
            "boxes": [b.to_dict() for b in self.boxes],
            "house_net": self.house_net,
            "notes": list(self.notes),
        }


def _hand_dict(hand: HandValue | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {"category": hand.category.value, "label": hand.label,
            "cards": [c.code for c in hand.cards],
            "significant": [c.code for c in hand.significant]}


def _small_dict(hand: SmallHandValue | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    return {"category": hand.category.value, "label": hand.label,
            "cards": [c.code for c in hand.cards]}

