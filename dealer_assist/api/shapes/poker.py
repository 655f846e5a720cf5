"""The poker room: the calculator ``POST /api/v1/poker/hand`` and the poker tables and hands.

The lists of profiles, actions and statuses are the engine's (a test compares them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, WithJsonSchema

from .base import (
    Absent,
    Card,
    ChipsBySeat,
    Label,
    Money,
    Obj,
    OptionalCards,
    Seat,
    SeatName,
    Shape,
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


class PokerHandRequest(Shape):
    """A hand so far: profile, stakes, button, seats clockwise and every action since the deal."""

    profile: PokerProfileName
    stakes: PokerStakes
    button: Seat
    seats: Annotated[list[PokerSeat], Field(description="clockwise")]
    actions: Annotated[list[PokerAction] | None, Field(
        description="everything since the deal, in order")] = None


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


class PokerTableCreate(Shape):
    name: Label
    profile: Label
    stakes: Annotated[Obj, checked_later("PokerStakes")]
    seat_count: Annotated[int, Field(json_schema_extra={"minimum": 2, "maximum": 6})]


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


class PokerSeatCreate(Shape):
    seat: Seat
    player: Label | None = None
    buy_in: Money


class PokerSeatChange(Shape):
    change: Literal["rebuy", "playing", "sitting_out", "left"]
    amount: Annotated[int | None, Field(description="rebuy only",
                                        json_schema_extra={"minimum": 1})] = None


class PokerHandStart(Shape):
    idempotency_key: str | None = None


class PokerActionCreate(Shape):
    action: Annotated[Obj, checked_later("PokerAction")]
    expected_seq: int | None = None
    idempotency_key: str | None = None


class PokerUndo(Shape):
    expected_seq: int | None = None
    idempotency_key: str | None = None


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

