"""A buy-in at the table, a numbered slip, the hold report."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from ...rules.fields import get_int, need_mapping
from .base import Absent, Context, Label, Money, Obj, Request, Shape, When


@dataclass(frozen=True)
class CashIn:
    """A buy-in as read: the amount, who (a seat, a player: as given) and the key (if any)."""

    amount: int
    seat: str | None
    player: str | None
    key: str | None


def _label(body: Mapping[str, Any], name: str) -> str | None:
    value = body.get(name)
    return None if value is None else str(value)


class BuyInCreate(Request[CashIn]):
    amount: Money
    seat: Label | None = None
    player: str | None = None
    idempotency_key: str | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> CashIn:
        body = need_mapping(body, "")
        return CashIn(get_int(body, "amount"), _label(body, "seat"), _label(body, "player"),
                      context.get("key") or _label(body, "idempotency_key"))


class BuyIn(Shape):
    id: int
    table_id: int
    shift_id: int
    gaming_date: str
    amount: Money
    at: When
    round_id: int | None = None
    round_number: int | None = None
    seat: str | None = None
    player: str | None = None
    recorded_by: int


class SlipVoid(Shape):
    reason: str
    requested_by: str
    signed_by: str
    at: When


class Slip(Shape):
    number: int
    kind: str
    table: str
    game: str
    shift_id: int
    gaming_date: str
    issued_at: When
    amount: Money
    chips: dict[str, int]
    croupier: str
    pit_boss: str
    signed: list[Obj] | Absent = None
    void: SlipVoid | None = None
    #: the cage cashier who issued a fill or credit ("" on a count's slip)
    cashier: str | Absent = None


class HoldReport(Shape):
    schema_: str | Absent = Field(default=None, alias="schema")
    gaming_date: str
    starts: dict[str, str]
    band: Obj
    tables: list[Obj]
    games: list[Obj]
    slips: Obj
