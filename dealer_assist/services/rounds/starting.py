"""A round's start in few round trips: the statements of a start at a table
(:class:`.steps.HouseStart`; :class:`.poker_hands.PokerStart` compares and inserts with them).

A start used to read the actor, the table, the open shift, the key and the open round with the
ORM (five queries, then three more under the write lock and a savepoint for the new row). Now:

* :func:`read` -- one statement before any lock: the table, the role of whoever starts (NULL: no
  such account, or disabled), the table's open shift (its status and opener), the dealer tapped
  in there, the round still open at the table and the round whose event this idempotency key
  recorded in the shift (a resend: the record path reads that round);
* :func:`compare` -- under the write lock, one statement: the same key, open round, shift status
  and dealer as they are now, and the shift's last round number (SQLite: ``BEGIN IMMEDIATE`` has
  serialised the writers; PostgreSQL: the table row is locked first, :func:`.txn.lock_table`,
  and the shift row is share-locked against a close, then the compare sees what committed);
* :func:`insert_round` -- one Core INSERT with its audit entry, as the flush hook wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, true
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from ...audit import capture
from ...models import GameTable, Round, RoundEvent, RoundStatus, Shift, ShiftStatus, User, utcnow
from ..errors import Conflict
from ..people import stints
from ..tables import tables
from . import store, txn

_R = Round.__table__  # type: ignore[attr-defined]
_T = GameTable.__table__  # type: ignore[attr-defined]
_S = Shift.__table__  # type: ignore[attr-defined]
_U = User.__table__  # type: ignore[attr-defined]
_E = RoundEvent.__table__  # type: ignore[attr-defined]
OPEN = RoundStatus.OPEN.value


def _open_round(shift_id: Any) -> Any:
    """The newest round still open in the shift (a table has one at most)."""
    return (core_select(_R.c.id).where(_R.c.shift_id == shift_id, _R.c.status == OPEN)
            .order_by(_R.c.number.desc()).limit(1).scalar_subquery())


def _started(shift_id: Any) -> Any:
    """The round whose event the request's idempotency key recorded in the shift (a house
    round's start is its first event)."""
    return (core_select(_E.c.round_id).select_from(_E.join(_R, _R.c.id == _E.c.round_id))
            .where(_R.c.shift_id == shift_id, _E.c.idempotency_key == bindparam("key"))
            .order_by(_E.c.id).limit(1).scalar_subquery())


def _keyed(shift_id: Any) -> Any:
    """The round the request's idempotency key started in the shift (``start_key``: a poker
    hand's start is its row)."""
    return (core_select(_R.c.id).where(_R.c.shift_id == shift_id,
                                       _R.c.start_key == bindparam("key"))
            .limit(1).scalar_subquery())


_READ = (core_select(*(c.label(f"t_{c.name}") for c in _T.c),
                     core_select(_U.c.role).where(_U.c.id == bindparam("uid"),
                                                  _U.c.active == true())
                     .scalar_subquery().label("actor_role"),
                     _S.c.id.label("shift_id"), _S.c.status.label("shift_status"),
                     _S.c.opened_by.label("shift_opened_by"),
                     stints.current_dealer().label("dealer_id"),
                     _open_round(_S.c.id).label("open_round"),
                     _started(_S.c.id).label("started"))
         .select_from(_T.outerjoin(_S, (_S.c.table_id == _T.c.id)
                                   & (_S.c.status == ShiftStatus.OPEN.value)))
         .where(_T.c.id == bindparam("tid"))
         .order_by(_S.c.id.desc()).limit(1))


def _compare(started: Any) -> Any:
    return core_select(
        _S.c.status, stints.current_dealer().label("dealer_id"),
        _open_round(_S.c.id).label("open_round"), started(_S.c.id).label("started"),
        core_select(func.max(_R.c.number)).where(_R.c.shift_id == _S.c.id)
        .scalar_subquery().label("last_number")).where(_S.c.id == bindparam("sid"))


#: under the lock, by the key's event (a house round) or by the rows' start keys (a poker hand)
_COMPARE = {False: _compare(_started), True: _compare(_keyed)}
#: PostgreSQL: the shift row share-locked, so a close (FOR UPDATE, then a look for open rounds)
#: either sees the new round or is seen by it (SQLite serialises writers with BEGIN IMMEDIATE)
_SHARE_SHIFT = core_select(_S.c.id).where(_S.c.id == bindparam("sid")).with_for_update(read=True)
_INSERT_ROUND = insert(_R)


@dataclass(frozen=True, slots=True)
class StartRead:
    """What :data:`_READ` found (None from :func:`read`: no such table)."""

    table: tables.TableView
    actor_role: str | None
    shift_id: int | None
    shift_status: str | None
    shift_opened_by: int | None
    dealer_id: int | None
    open_round: int | None
    #: the round this key started in the shift (a resend)
    started: int | None


def read(session: Session, table_id: int, actor_id: int, key: str) -> StartRead | None:
    row = session.connection().execute(_READ, {"tid": table_id, "uid": actor_id,
                                                "key": key}).first()
    if row is None:
        return None
    m = row._mapping
    table = tables.TableView(**{f.name: m[f"t_{f.name}"] for f in fields(tables.TableView)})
    return StartRead(table, m["actor_role"], m["shift_id"], m["shift_status"],
                     m["shift_opened_by"], m["dealer_id"], m["open_round"], m["started"])


@dataclass(frozen=True, slots=True)
class StartLocked:
    """The shift under the write lock: is a round open, did the key start one, the dealer,
    the last round number."""

    status: str | None
    dealer_id: int | None
    open_round: int | None
    started: int | None
    last_number: int


def compare(session: Session, shift_id: int, key: str, *,
            by_start_key: bool = False) -> StartLocked:
    """``by_start_key``: the key's round is the one whose row keeps it (a poker hand), not the
    one whose event does (a house round)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        conn.execute(_SHARE_SHIFT, {"sid": shift_id})
    row = conn.execute(_COMPARE[by_start_key], {"sid": shift_id, "key": key}).first()
    if row is None:
        return StartLocked(None, None, None, None, 0)
    return StartLocked(row.status, row.dealer_id, row.open_round, row.started,
                       int(row.last_number or 0))


def lock(session: Session, table_id: int, shift_id: int, key: str, *,
         by_start_key: bool = False) -> StartLocked | None:
    """A start's compare under the table's write lock (one round dealt at a time): None when a
    twin got there first (the key's round, or another round, is open by now); a shift closed
    meanwhile is refused."""
    txn.lock_table(session, table_id)
    locked = compare(session, shift_id, key, by_start_key=by_start_key)
    if locked.started is not None or locked.open_round is not None:
        return None
    if locked.status != ShiftStatus.OPEN.value:
        raise Conflict("This shift is closed.")
    return locked


def insert_round(session: Session, *, table_id: int, shift_id: int, number: int,
                 rules: dict[str, Any], start_key: str, dealer_id: int | None,
                 now: datetime | None = None) -> store.RoundView:
    """The new round's row and its audit entry; a unique violation (a twin took the number or
    the key first) is :class:`~.txn.Stale`: the start reads again and answers as a resend or
    refuses a second open round."""
    values: dict[str, Any] = {"table_id": table_id, "shift_id": shift_id, "number": number,
                              "status": OPEN, "opened_at": now or utcnow(),
                              "rules": store.encode_payload(rules), "start_key": start_key,
                              "dealer_id": dealer_id}
    conn = session.connection()
    try:  # no savepoint: a failed attempt is rolled back whole (``txn.run``)
        values["id"] = store.new_id(conn.execute(_INSERT_ROUND, values))
    except IntegrityError:
        raise txn.Stale from None
    row = {c.name: values.get(c.name) for c in _R.c}  # the flush hook's snapshot: every column
    capture.append_rows(session, [capture.created(_R.name, row, table_id)])
    return store.RoundView(values["id"], table_id, shift_id, number, OPEN, values["opened_at"],
                           dealer_id)
