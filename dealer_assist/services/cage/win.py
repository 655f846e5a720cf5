"""Win the way the cage computes it (issue 27), beside what the settlements say.

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

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlmodel import Session, col, select

from ...models import GameTable, Shift, ShiftStatus, utcnow
from ..reports import changes, house, sections
from ..shifts import inventory
from . import buyins
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


def settled_win(session: Session, shift_id: int) -> int:
    """The settlements' house win plus the corrections paid after them (house view)."""
    rows = sections.settlements(session, shift_id)
    win = int(house.wagers(rows)["total"]["house_win"])
    return win + int(changes.corrections(session, shift_id, lambda _t: None)["house"])


def shift_money(session: Session, shift_id: int) -> ShiftMoney:
    shift = session.get(Shift, shift_id)
    inv = inventory.inventory_of(session, shift_id)
    assert shift is not None
    return ShiftMoney(shift_id, shift.table_id, shift.gaming_date,
                      shift.status == ShiftStatus.CLOSED.value,
                      inv.opening.amount if inv.opening else None,
                      inv.closing.amount if inv.closing else None, inv.fills, inv.credits,
                      buyins.total_of_shift(session, shift_id), settled_win(session, shift_id))


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
    ids = session.exec(select(Shift.id).where(Shift.table_id == table_id,
                                              Shift.gaming_date == gaming_date)
                       .order_by(col(Shift.opened_at))).all()
    return DayMoney(table_id, gaming_date,
                    tuple(shift_money(session, i) for i in ids if i is not None),
                    drops.drop_of(session, table_id, gaming_date))


def latest_day(session: Session) -> date:
    """The newest gaming date with a shift (a report page's default), else today (UTC)."""
    found = session.exec(select(col(Shift.gaming_date))
                         .order_by(col(Shift.gaming_date).desc())).first()
    return found if isinstance(found, date) else utcnow().date()


def table_names(session: Session) -> dict[int, str]:
    return {t.id or 0: t.name for t in session.exec(select(GameTable)).all()}


def days_of(session: Session, first: date, last: date) -> list[tuple[int, date]]:
    """(table id, gaming date) of every house table's day with a shift, in order."""
    query = (select(col(Shift.table_id), col(Shift.gaming_date)).join(GameTable,
                                                            col(GameTable.id) == Shift.table_id)
             .where(Shift.gaming_date >= first, Shift.gaming_date <= last)
             .distinct().order_by(col(Shift.table_id), col(Shift.gaming_date)))
    return [(t, d) for t, d in session.exec(query).all()]
