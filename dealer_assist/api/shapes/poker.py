"""The poker room: the calculator ``POST /api/v1/poker/hand`` and the poker tables and hands.

The lists of profiles, actions and statuses are the engine's (a test compares them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, WithJsonSchema

from ...rules.fields import get_int, get_str, need_mapping
from ...rules.games.poker import HandState, parse_hand
from ...services.errors import ValidationError
from .base import (
    Absent,
    Card,
    ChipsBySeat,
    Context,
    Label,
    Money,
    Obj,
    OptionalCards,
    Request,
    Seat,
    SeatName,
    Shape,
    idempotency_key,
)

PokerProfileName = Literal["americana-limit", "americana-pot-limit", "americana-no-limit",
                           "draw32-limit", "draw32-pot-limit", "draw32-no-limit"]
PokerActionType = Literal["street", "bring_in", "check", "call", "bet", "raise", "fold", "draw",
                          "parole", "show", "muck"]
PokerStatus = Literal["betting", "street", "draw", "parole", "showdown", "complete"]
SeatList = list[SeatName]
Opt = Money | None


class PokerStakes(Shape):
    model_config = ConfigDict(json_schema_extra={"description": (
        "stud: ante (bring_in defaults to 2 x ante); draw: small_blind (big_blind defaults to "
        "2 x SB, over_blind to 2 x BB)")})

    ante: Annotated[int | None, Field(ge=0)] = None
    bring_in: Opt = None
    small_blind: Opt = None
    big_blind: Opt = None
    over_blind: Opt = None


class PokerSeat(Shape):
    seat: Seat
    stack: Annotated[int, Field(ge=1, description="chips before the hand")]
    missed: Annotated[Literal["small", "small_big", "all", "new", None], Field(
        description="draw only: the blinds a returning player missed")] = None


class PokerAction(Shape):
    type: PokerActionType
    seat: Seat | None = None
    to: Annotated[int | None, Field(
        ge=1, description="bet and raise: the player's total bet in the round")] = None
    up: Annotated[dict[str, Card] | None, Field(description="street (stud): seat -> up card")] \
        = None
    discard: Annotated[int | None, Field(description="draw: 0 to 4 cards")] = None
    agreed: Annotated[bool | None, Field(description="parole: everyone still in agreed")] = None
    cards: OptionalCards = None


class PokerHandRequest(Request[HandState]):
    """A hand so far: profile, stakes, button, seats clockwise and every action since the deal."""

    profile: PokerProfileName
    stakes: PokerStakes
    button: Seat
    seats: Annotated[list[PokerSeat], Field(description="clockwise")]
    actions: Annotated[list[PokerAction] | None, Field(
        description="everything since the deal, in order")] = None

    @classmethod
    def read(cls, body: Any, context: Context) -> HandState:
        """The engine reads the hand by replaying it (every refusal names its field)."""
        return parse_hand(body)


class Posted(Shape):
    seat: SeatName
    kind: Literal["ante", "small_blind", "big_blind", "over_blind"]
    amount: Money
    dead: bool


class Span(Shape):
    """smallest and largest 'raise to' (null: not allowed)"""

    min_to: Money
    max_to: Money


class Legal(Shape):
    fold: bool
    check: bool
    call: int | None
    bring_in: int | None
    bet: Span | None
    raise_: Span | None = Field(alias="raise")
    parole: bool


class Deck(Shape):
    """draw only"""

    left: int
    reshuffle: SeatList


class Pot(Shape):
    """From the showdown on (the betting is over: the dealer stacks the pots before the hands
    are shown) ``amount`` and ``eligible``; once complete also ``winners`` and ``awards``."""

    amount: Money
    eligible: SeatList
    winners: SeatList | Absent = None
    awards: ChipsBySeat | Absent = None


class PokerHand(Shape):
    """The hand's state: whose turn, what he may do, the pot; once complete, the pots' winners."""

    status: PokerStatus
    round: int
    pot: Money
    posted: list[Posted]
    committed: ChipsBySeat
    stacks: ChipsBySeat
    bring_in: Annotated[str | None, Field(description="stud only")] = None
    to_act: str | None
    legal: Legal
    deck: Deck | Absent = None
    show_order: SeatList | Absent = None
    pots: list[Pot] | Absent = None
    rake: Money | Absent = None
    net: ChipsBySeat | Absent = None


# --- the poker tables and hands --------------------------------------------------
#: a field the view passes on whole; the engine or the service checks what is inside it (a 422
#: naming the field), so here it is only an object, documented as the shape named
def checked_later(name: str) -> Any:
    return WithJsonSchema({"allOf": [{"$ref": f"#/components/schemas/{name}"}]})


@dataclass(frozen=True)
class NewTable:
    name: str
    profile: str
    stakes: Mapping[str, Any]
    seat_count: int


class PokerTableCreate(Request[NewTable]):
    name: Label
    profile: Label
    stakes: Annotated[Obj, checked_later("PokerStakes")]
    seat_count: Annotated[int, Field(json_schema_extra={"minimum": 2, "maximum": 6})]

    @classmethod
    def read(cls, body: Any, context: Context) -> NewTable:
        body = need_mapping(body, "")
        name, profile = get_str(body, "name"), get_str(body, "profile")
        stakes = need_mapping(body.get("stakes"), "stakes")
        return NewTable(name, profile, stakes, get_int(body, "seat_count"))


class TableSeat(Shape):
    seat: SeatName
    player: str
    stack: Money
    bought_in: Money
    cashed_out: Money
    status: Literal["playing", "sitting_out", "left"]
    missed: str


class PokerTable(Shape):
    id: int
    name: str
    profile: str
    stakes: Obj
    seat_count: int
    button: str | None
    hands_dealt: int
    seats: list[TableSeat]


@dataclass(frozen=True)
class NewSeat:
    seat: str
    player: str
    buy_in: int


class PokerSeatCreate(Request[NewSeat]):
    seat: Seat
    player: Label | None = None
    buy_in: Money

    @classmethod
    def read(cls, body: Any, context: Context) -> NewSeat:
        body = need_mapping(body, "")
        seat, player = get_str(body, "seat"), get_str(body, "player", default="")
        return NewSeat(seat, player, get_int(body, "buy_in"))


CHANGES = ("rebuy", "playing", "sitting_out", "left")


@dataclass(frozen=True)
class SeatChange:
    change: str
    amount: int  # a rebuy's chips (0 for any other change)


class PokerSeatChange(Request[SeatChange]):
    change: Literal["rebuy", "playing", "sitting_out", "left"]
    amount: Annotated[int | None, Field(description="rebuy only",
                                        json_schema_extra={"minimum": 1})] = None

    @classmethod
    def read(cls, body: Any, context: Context) -> SeatChange:
        body = need_mapping(body, "")
        change = get_str(body, "change", choices=CHANGES)
        return SeatChange(change, get_int(body, "amount") if change == "rebuy" else 0)


class PokerHandStart(Request[str]):
    idempotency_key: str | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> str:
        """The idempotency key."""
        return idempotency_key(need_mapping(body, ""), context.get("key"))


@dataclass(frozen=True)
class HandStep:
    """An action or an undo as read: what it does, the seq it expects, the key, and the last
    seq of the hand before it (``context["hand"]``: an unknown hand is a 404 before the key is
    read, as it always was)."""

    action: Mapping[str, Any]
    expected_seq: int | None
    last_seq: int
    key: str


def _expected(body: Mapping[str, Any]) -> int | None:
    return None if body.get("expected_seq") is None else get_int(body, "expected_seq",
                                                                  minimum=0)


def _then_key(body: Mapping[str, Any], context: Context, action: Mapping[str, Any],
              expected: int | None) -> HandStep:
    last_seq: Callable[[], int] = context["hand"]
    before = last_seq()
    return HandStep(action, expected, before, idempotency_key(body, context.get("key")))


class PokerActionCreate(Request[HandStep]):
    action: Annotated[Obj, checked_later("PokerAction")]
    expected_seq: int | None = None
    idempotency_key: str | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> HandStep:
        body = need_mapping(body, "")
        action = need_mapping(body.get("action"), "action")
        expected = _expected(body)
        if "type" not in action:
            raise ValidationError("action.type is required", field="action.type")
        return _then_key(body, context, action, expected)


class PokerUndo(Request[HandStep]):
    expected_seq: int | None = None
    idempotency_key: str | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> HandStep:
        body = need_mapping(body, "")
        return _then_key(body, context, {}, _expected(body))


class PokerTableHand(Shape):
    id: int
    table_id: int
    shift_id: int
    number: int
    status: Literal["open", "settled", "voided"]
    dealer_id: Annotated[int | None, Field(description="the dealer of record (issue 28)")] = None
    last_seq: int
    undoable: int | None = None
    rules: Annotated[Obj, Field(description="the hand's start, as the calculator takes it")]
    actions: list[PokerAction]
    hand: PokerHand

