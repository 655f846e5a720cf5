"""A buy-in at the table, a numbered slip, the hold report."""

from __future__ import annotations

from pydantic import Field

from .base import Absent, Label, Money, Obj, Shape, When


class BuyInCreate(Shape):
    amount: Money
    seat: Label | None = None
    player: str | None = None
    idempotency_key: str | None = None


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
