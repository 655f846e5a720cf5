"""Shifts: a table's working session for one gaming date.

The gaming date is the casino's accounting day, which starts at ``start_hour`` local time: a
round dealt at 4 a.m. belongs to the previous day. Opening a shift is for croupiers, pit bosses
and shift managers; at most one shift is open per table (checked here, and guaranteed by a
partial unique index if two tablets race). Closing comes with the shift report.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ...models import GameTable, Role, Shift, ShiftStatus, User, utcnow
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import reliefs
from ..tables import tables

OPENERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: a shift may be opened for yesterday's or tomorrow's gaming date, not further (typo guard)
DATE_SLACK = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class ShiftView:
    id: int
    table_id: int
    gaming_date: date
    status: str
    opened_by: int
    opened_by_name: str
    opened_at: datetime
    closed_by: int | None
    closed_at: datetime | None


@dataclass(frozen=True, slots=True)
class TableStatus:
    """A dashboard line: a table and its open shift, if any."""

    table: tables.TableView
    open_shift: ShiftView | None


def gaming_date_at(moment: datetime, zone: tzinfo | None, start_hour: int) -> date:
    """The gaming date of an aware ``moment`` in the floor's time ``zone`` (None: server's)."""
    local = moment.astimezone(zone)
    return (local - timedelta(hours=start_hour)).date()


def _view(shift: Shift, opener: User | None) -> ShiftView:
    assert shift.id is not None
    return ShiftView(shift.id, shift.table_id, shift.gaming_date, shift.status, shift.opened_by,
                     opener.display_name if opener else "?", shift.opened_at, shift.closed_by,
                     shift.closed_at)


def open_shift(session: Session, *, table_id: int, user_id: int, gaming_date: date | None = None,
               zone: tzinfo | None = None, start_hour: int = 6, now: datetime | None = None,
               dealer_id: int | None = None) -> ShiftView:
    """Open a shift on a table for ``gaming_date`` (default: the current gaming date).

    ``dealer_id`` (default: the opener, when he is a croupier) deals first: his
    stint opens with the shift. A pit boss opening alone taps nobody in."""
    now = now or utcnow()
    user = session.get(User, user_id)
    if user is None or not user.active:
        raise PermissionDenied("Only an active account can open a shift.")
    if user.role not in OPENERS:
        raise PermissionDenied("Only a croupier, pit boss or shift manager opens a shift.")
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    if not table.active:
        raise Conflict("Table %(name)s is out of service.", name=table.name)
    today = gaming_date_at(now, zone, start_hour)
    gaming_date = gaming_date or today
    if abs(gaming_date - today) > DATE_SLACK:
        raise ValidationError("The gaming date must be within a day of %(v)s.",
                              v=today.isoformat(),
                              field="gaming_date")
    if open_shift_of(session, table_id) is not None:
        raise Conflict("Table %(name)s already has an open shift.", name=table.name)
    shift = Shift(table_id=table_id, gaming_date=gaming_date, status=ShiftStatus.OPEN.value,
                  opened_by=user_id, opened_at=now)
    try:
        with session.begin_nested():
            session.add(shift)
    except IntegrityError:  # another tablet opened one between our check and our insert
        raise Conflict("Table %(name)s already has an open shift.", name=table.name) from None
    if dealer_id is None and user.role == Role.CROUPIER.value:
        dealer_id = user_id
    if dealer_id is not None:
        assert shift.id is not None
        reliefs.open_table(session, shift_id=shift.id, dealer_id=dealer_id, now=now)
    return _view(shift, user)


def open_shift_of(session: Session, table_id: int) -> ShiftView | None:
    query = (select(Shift, User).join(User, User.id == Shift.opened_by)  # type: ignore[arg-type]
             .where(Shift.table_id == table_id, Shift.status == ShiftStatus.OPEN.value))
    row = session.exec(query).first()
    return _view(*row) if row else None


def get_shift(session: Session, shift_id: int) -> ShiftView:
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    return _view(shift, session.get(User, shift.opened_by))


def dashboard(session: Session) -> list[TableStatus]:
    """Every active table with its open shift, in name order (two queries, not N+1)."""
    active = tables.list_tables(session, include_inactive=False)
    query = (select(Shift, User).join(User, User.id == Shift.opened_by)  # type: ignore[arg-type]
             .where(Shift.status == ShiftStatus.OPEN.value))
    open_by_table = {shift.table_id: _view(shift, user) for shift, user in session.exec(query)}
    return [TableStatus(t, open_by_table.get(t.id)) for t in active]
