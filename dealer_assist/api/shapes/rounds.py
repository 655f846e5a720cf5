"""The live rounds API and the auditors' read-only API."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from flask import request
from pydantic import ConfigDict, Field, WithJsonSchema

from ...edge.offline import tap_of
from ...rules.fields import get_int, get_list, get_str, need_mapping
from ...services.rounds import live, steps
from ...services.rounds.offline import Tap
from .base import Absent, Context, Label, Money, Obj, Request, Shape, When, idempotency_key
from .house import BoxPlayer, Settlement

NullableWhen = Annotated[str | None, Field(json_schema_extra={"format": "date-time"})]


class NewBox(Shape):
    box: Label
    ante: Money
    bonus: Money | None = None
    seat: Label | None = None
    player: BoxPlayer | None = None


class Tapped(Shape):
    """A step recorded on the tablet while the server could not be reached."""

    tapped_at: When | None = Field(default=None, description=(
        "when the croupier tapped, by the tablet's clock (ISO 8601 with a zone); at most 5 "
        "minutes ahead of the server's clock"))
    offline: bool | None = Field(default=None, description=(
        "the step waited in the tablet's offline queue; refused, it is kept for the floor "
        "and the answer names it (offline_refusal)"))


@dataclass(frozen=True)
class Start:
    """A round's start as read: the boxes staked, the idempotency key, the tap."""

    boxes: list[live.BoxStake]
    key: str
    tap: Tap


class RoundCreate(Tapped, Request[Start]):
    idempotency_key: str | None = None
    boxes: list[NewBox]

    @classmethod
    def read(cls, body: Any, context: Context) -> Start:
        body = need_mapping(body, "")
        tap = tap_of(body)
        boxes = _boxes(body)
        return Start(boxes, idempotency_key(body, context.get("key")), tap)

    @staticmethod
    def refused(body: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """A refused start from a tablet's offline queue, as ``edge.offline.kept`` keeps it."""
        return {"type": steps.PLACE, "payload": {"boxes": body.get("boxes")},
                "key": _key(body), "table_id": args.get("table_id")}


def _key(body: Mapping[str, Any]) -> str:
    """A refused step's key, as given (none: empty)."""
    return request.headers.get("Idempotency-Key") or str(body.get("idempotency_key") or "")


def _boxes(body: Mapping[str, Any]) -> list[live.BoxStake]:
    boxes = []
    for i, raw in enumerate(get_list(body, "boxes")):
        d = need_mapping(raw, f"boxes[{i}]")
        box = get_str(d, "box", f"boxes[{i}]")
        player = d.get("player")  # the engine checks it (and the service the card)
        boxes.append(live.BoxStake(box, get_int(d, "ante", f"boxes[{i}]"),
                                   get_int(d, "bonus", f"boxes[{i}]", default=0),
                                   get_str(d, "seat", f"boxes[{i}]", default=box),
                                   None if player is None else need_mapping(
                                       player, f"boxes[{i}].player")))
    return boxes


@dataclass(frozen=True)
class Step:
    """One step as read: its type and payload, the seq it expects, the key, the tap."""

    type: str
    payload: Mapping[str, Any]
    expected_seq: int | None
    key: str
    tap: Tap


class EventCreate(Tapped, Request[Step]):
    # a number is read as its digits (and then refused by the engine as no known step)
    type: Annotated[str | int, WithJsonSchema({"type": "string",
                                               "examples": ["deal_box", "bet", "paid"]})]
    payload: Obj | None = None
    expected_seq: int | None = None
    idempotency_key: str | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> Step:
        body = need_mapping(body, "")
        payload = need_mapping(body.get("payload", {}), "payload")
        expected = None if body.get("expected_seq") is None else get_int(body, "expected_seq")
        type = get_str(body, "type")
        key = idempotency_key(body, context.get("key"))
        return Step(type, payload, expected, key, tap_of(body))

    @staticmethod
    def refused(body: Mapping[str, Any], args: dict[str, Any]) -> dict[str, Any]:
        """A refused step from a tablet's offline queue, as ``edge.offline.kept`` keeps it."""
        payload = body.get("payload")
        return {"type": str(body.get("type") or ""),
                "payload": payload if isinstance(payload, dict) else {}, "key": _key(body),
                "round_id": args.get("round_id")}


class Event(Shape):
    seq: int | Absent = None
    type: str | Absent = None
    payload: Obj | Absent = None
    actor_id: int | None = None
    created_at: When | Absent = None
    tapped_at: When | None = None
    offline: bool | Absent = None


class _Open(Shape):
    """A part of the state whose fields a game may add to (Russian poker's bonus and
    insurance, a Big/Small box's split): the shared fields are typed, the game's own kept."""

    model_config = ConfigDict(strict=True, populate_by_name=True, extra="allow")


class DealerState(_Open):
    cards: list[str]
    up: list[str]
    revealed: bool
    draw: list[str]
    small: list[str] | Absent = None
    hand: str | Absent = None
    qualified: bool | Absent = None


class BoxState(_Open):
    box: str
    seat: str
    ante: Money
    cards: list[str]
    decision: str | None = None
    hand: str | None = None
    collected: Money | Absent = None


class NextStep(_Open):
    type: str
    label: str
    box: str | Absent = None


class RoundState(_Open):
    """The state folded from the round's events, as every house game says it."""

    game: str
    profile: str
    table: Obj
    voided: str | None = None
    dealer: DealerState
    dealt: bool
    boxes: list[BoxState]
    used: list[str]
    phase: str
    last_seq: int
    undoable: Annotated[int | None, Field(
        description="the seq of the step an undo takes back (None: nothing to undo)")] = None
    next_steps: list[NextStep]


class VoidRequest(Shape):
    id: int
    status: Literal["pending", "approved", "rejected"]
    reason: str
    requested_by: int
    requested_at: When
    decided_by: int | None = None
    note: str | None = None
    decided_at: NullableWhen = None


class Round(Shape):
    """A round as stored: its events, the state folded from them, the settlement."""

    id: int
    table_id: int
    shift_id: int
    number: int
    status: Literal["open", "settled", "voided"]
    opened_at: When | Absent = None
    dealer_id: Annotated[int | None, Field(
        description="the dealer of record: who was tapped in at the table when the round "
                    "started (issue 28)")] = None
    game: str | Absent = None
    profile: str | Absent = None
    rules: Annotated[Obj | Absent, Field(
        description="the rules in force, as the round's first event recorded them")] = None
    events: list[Event]
    state: RoundState
    settlement: Settlement | None = None
    stored_settlement: Obj | None = None
    void_request: VoidRequest | None = None


class Decision(Shape):
    number: int | Absent = None
    outcome: str | Absent = None
    adjustment: Money | Absent = None
    note: str | Absent = None
    decided_by: int | Absent = None
    decided_by_name: str | Absent = None
    decided_at: When | Absent = None


class Dispute(Shape):
    id: int
    round_id: int
    round_number: int
    table_id: int
    table_name: str | Absent = None
    shift_id: int | Absent = None
    box: str
    claim: str | Absent = None
    claimed_amount: Money
    croupier_note: str | Absent = None
    camera: str | None = None
    camera_time: str | None = None
    filed_by: int | Absent = None
    filed_by_name: str | Absent = None
    filed_at: When | Absent = None
    status: Literal["open", "upheld", "denied", "escalated"]
    decisions: list[Decision]
    review: Obj | Absent = None
    corrections: list[Any] | Absent = None


class ChangeRequest(Shape):
    id: int
    round_id: int
    round_number: int | Absent = None
    table_id: int | Absent = None
    shift_id: int | Absent = None
    kind: Literal["void", "correction"]
    box: str | None = None
    amount: Money | Absent = None
    reason: str
    requested_by: int | Absent = None
    requested_by_name: str | Absent = None
    requested_at: When | Absent = None
    approved: bool | None = None
    note: str | Absent = None
    decided_by: int | None = None
    decided_by_name: str | None = None
    decided_at: NullableWhen = None
    status: Literal["pending", "approved", "rejected"]


class Correction(Shape):
    id: int
    round_id: int
    amount: Money
    source: Literal["dispute", "correction", "reversal"]
    reason: str | Absent = None


class AuditHead(Shape):
    seq: int
    hash: str | None
    at: NullableWhen = None


class DisputeList(Shape):
    disputes: list[Dispute]


class VoidList(Shape):
    voids: list[ChangeRequest]


class CorrectionRequestList(Shape):
    correction_requests: list[ChangeRequest]


class CorrectionList(Shape):
    corrections: list[Correction]
    total: int
