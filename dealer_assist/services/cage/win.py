"""Win the way the cage computes it, beside what the settlements say.

Per shift: the tray's change is closing - opening + credits - fills (void slips do not count);
the cash side is the drop. The table's win is tray + drop, and the **hold** is win / drop -- the
one figure the word "hold" means (the older win / wagered ratio of the shift report is called
"win / wagered"). A shift's drop is the buy-ins recorded at the table (the drop box is counted
per gaming day, not per shift); a gaming day's drop is its soft count, and until the count
the day has no win yet (``None``: "not counted").

What the engine says the table won is the settled win: the house win of the stored settlements
plus the corrections paid afterwards (the report's "win after corrections"). The difference
win - settled is split into its causes, each named when it is not zero:

* ``drop``: the counted cash minus the buy-ins recorded at the table (cash in the box that
  nobody recorded, or a buy-in recorded twice);
* ``tray``: tray + recorded buy-ins - settled win (chips missing from or left over in the tray:
  a payout paid wrong, a fill never brought, a count wrong).

When the tray, the drop and the settlements agree, both are zero and so is the variance.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlmodel import Session, col, func, select

from ...models import (
    ChipTransfer,
    DropCount,
    GameTable,
    InventoryCount,
    Round,
    RoundCorrection,
    RoundSettlement,
    RoundStatus,
    Shift,
    ShiftStatus,
    Slip,
    SlipVoid,
    User,
    utcnow,
)
from ...models.cage import BuyIn
from . import drop as drops


@dataclass(frozen=True, slots=True)
class ShiftMoney:
    shift_id: int
    table_id: int
    gaming_date: date
    closed: bool
    opening: int | None
    closing: int | None
    fills: int
    credits: int
    buy_ins: int
    settled: int

    @property
    def tray(self) -> int | None:
        if self.opening is None or self.closing is None:
            return None
        return self.closing - self.opening + self.credits - self.fills

    @property
    def win(self) -> int | None:
        """Tray + the drop as recorded at the table (the buy-ins)."""
        return None if self.tray is None else self.tray + self.buy_ins


@dataclass(frozen=True, slots=True)
class DayMoney:
    """One table's gaming day: its shifts and its soft count."""

    table_id: int
    gaming_date: date
    shifts: tuple[ShiftMoney, ...]
    drop: drops.DropView | None

    @property
    def buy_ins(self) -> int:
        return sum(s.buy_ins for s in self.shifts)

    @property
    def settled(self) -> int:
        return sum(s.settled for s in self.shifts)

    @property
    def tray(self) -> int | None:
        trays = [s.tray for s in self.shifts]
        return None if any(t is None for t in trays) else sum(t or 0 for t in trays)

    @property
    def counted(self) -> int | None:
        return self.drop.amount if self.drop else None

    @property
    def win(self) -> int | None:
        if self.tray is None or self.counted is None:
            return None
        return self.tray + self.counted

    @property
    def variance(self) -> int | None:
        return None if self.win is None else self.win - self.settled

    def differences(self) -> list[dict[str, Any]]:
        """The variance by cause (see the module docstring); only the causes not zero."""
        out = []
        if self.counted is not None and self.counted != self.buy_ins:
            out.append({"cause": "drop", "amount": self.counted - self.buy_ins})
        if self.tray is not None and self.tray + self.buy_ins != self.settled:
            out.append({"cause": "tray", "amount": self.tray + self.buy_ins - self.settled})
        return out


def day_money(session: Session, table_id: int, gaming_date: date) -> DayMoney:
    found = days_between(session, gaming_date, gaming_date, table_id=table_id)
    return found[0] if found else DayMoney(table_id, gaming_date, (), None)


def days_between(session: Session, first: date, last: date, *,
                 table_id: int | None = None) -> list[DayMoney]:
    """Every table's gaming days from ``first`` to ``last`` (by table, then date) that have a
    shift, with their money: a fixed number of queries whatever the period (a year to date is
    one pass over its settlements, never one query per shift)."""
    query = select(Shift).where(Shift.gaming_date >= first, Shift.gaming_date <= last)
    if table_id is not None:
        query = query.where(Shift.table_id == table_id)
    shifts = list(session.exec(query.order_by(col(Shift.table_id), col(Shift.gaming_date),
                                              col(Shift.opened_at), col(Shift.id))).all())
    ids = [s.id for s in shifts if s.id is not None]
    figures = _Figures(session, ids)
    by_day: dict[tuple[int, date], list[ShiftMoney]] = {}
    for s in shifts:
        assert s.id is not None
        by_day.setdefault((s.table_id, s.gaming_date), []).append(figures.shift(s))
    counted = _drops(session, first, last, table_id)
    return [DayMoney(t, d, tuple(found), counted.get((t, d))) for (t, d), found in by_day.items()]


class _Figures:
    """The per-shift sums of a set of shifts, each read in one grouped query."""

    def __init__(self, session: Session, ids: list[int]) -> None:
        self.counts: dict[tuple[int, str], int] = {}
        self.moved: dict[tuple[int, str], int] = {}
        self.bought: dict[int, int] = {}
        self.corrected: dict[int, int] = {}
        self.settled: dict[int, int] = {}
        if not ids:
            return
        for sid, kind, amount in session.exec(select(
                col(InventoryCount.shift_id), col(InventoryCount.kind),
                col(InventoryCount.amount)).where(col(InventoryCount.shift_id).in_(ids))):
            self.counts[(sid, kind)] = amount
        void = (select(col(Slip.transfer_id)).join(SlipVoid, col(SlipVoid.slip_id) == Slip.id)
                .where(col(Slip.transfer_id).is_not(None)))
        for sid, kind, amount in session.exec(
                select(col(ChipTransfer.shift_id), col(ChipTransfer.kind),
                       func.sum(ChipTransfer.amount))
                .where(col(ChipTransfer.shift_id).in_(ids), col(ChipTransfer.id).not_in(void))
                .group_by(col(ChipTransfer.shift_id), col(ChipTransfer.kind))):
            self.moved[(sid, kind)] = int(amount or 0)
        self.bought = _sums(session, BuyIn, ids)
        self.corrected = _sums(session, RoundCorrection, ids)
        self.settled = _settled(session, ids)

    def shift(self, s: Shift) -> ShiftMoney:
        assert s.id is not None
        return ShiftMoney(s.id, s.table_id, s.gaming_date, s.status == ShiftStatus.CLOSED.value,
                          self.counts.get((s.id, "opening")), self.counts.get((s.id, "closing")),
                          self.moved.get((s.id, "fill"), 0), self.moved.get((s.id, "credit"), 0),
                          self.bought.get(s.id, 0),
                          self.settled.get(s.id, 0) - self.corrected.get(s.id, 0))


def _sums(session: Session, model: type[BuyIn] | type[RoundCorrection],
          ids: list[int]) -> dict[int, int]:
    rows = session.exec(select(col(model.shift_id), func.sum(model.amount))
                        .where(col(model.shift_id).in_(ids)).group_by(col(model.shift_id)))
    return {sid: int(total or 0) for sid, total in rows}


def _settled(session: Session, ids: list[int]) -> dict[int, int]:
    """The house win of each shift's settled rounds: minus the boxes' nets of each round's
    newest stored settlement (the shift report's computed house win). A correction's
    ``amount`` is the player's view, so the win after corrections subtracts their sum."""
    rows = session.exec(select(col(Round.shift_id), col(RoundSettlement.round_id),
                               col(RoundSettlement.settlement))
                        .join(Round, col(Round.id) == RoundSettlement.round_id)
                        .where(col(Round.shift_id).in_(ids),
                               Round.status == RoundStatus.SETTLED.value)
                        .order_by(col(RoundSettlement.round_id), col(RoundSettlement.through_seq),
                                  col(RoundSettlement.id)))
    newest: dict[int, tuple[int, str]] = {}
    for sid, rid, stored in rows:
        newest[rid] = (sid, stored)
    out: dict[int, int] = {}
    for sid, stored in newest.values():
        out[sid] = out.get(sid, 0) - sum(int(b["net"]) for b in json.loads(stored)["boxes"])
    return out


def _drops(session: Session, first: date, last: date,
           table_id: int | None) -> dict[tuple[int, date], drops.DropView]:
    query = select(DropCount).where(DropCount.gaming_date >= first, DropCount.gaming_date <= last)
    if table_id is not None:
        query = query.where(DropCount.table_id == table_id)
    rows = list(session.exec(query).all())
    names = {u.id: u.display_name for u in session.exec(select(User).where(
        col(User.id).in_({i for r in rows for i in (r.counter_a, r.counter_b)})))} if rows else {}
    return {(r.table_id, r.gaming_date): drops.DropView(
        r.table_id, r.gaming_date, r.amount,
        {int(k): int(v) for k, v in json.loads(r.cash).items()}, r.recorded, r.counted_at,
        (names.get(r.counter_a, "?"), names.get(r.counter_b, "?")), r.note) for r in rows}


def latest_day(session: Session) -> date:
    """The newest gaming date with a shift (a report page's default), else today (UTC)."""
    found = session.exec(select(col(Shift.gaming_date))
                         .order_by(col(Shift.gaming_date).desc())).first()
    return found if isinstance(found, date) else utcnow().date()


def table_names(session: Session) -> dict[int, str]:
    return {t.id or 0: t.name for t in session.exec(select(GameTable)).all()}
