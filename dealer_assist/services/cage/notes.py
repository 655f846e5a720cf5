"""Investigation notes on a hold outside the casino's band: a shift manager writes
why a table's hold for a day or a month left its band; the note is kept with the report
(``hold_note``, append-only: a later note adds to the earlier one, never replaces it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from sqlmodel import Session, col, select

from ...models import GameTable, Role, User, utcnow
from ...models.cage import NOTE_MAX, HoldNote, HoldPeriod
from ..errors import NotFound, PermissionDenied, ValidationError

WRITERS = frozenset({Role.SHIFT_MANAGER.value})


@dataclass(frozen=True, slots=True)
class NoteView:
    table_id: int
    period: str
    starts: date
    note: str
    written_by: str
    at: datetime


def period_start(period: str, day: date) -> date:
    if period not in {p.value for p in HoldPeriod}:
        raise ValidationError("A hold note is for a day or a month.", field="period")
    return day.replace(day=1) if period == HoldPeriod.MONTH.value else day


def write_note(session: Session, *, table_id: int, period: str, day: date, note: str,
               actor_id: int, now: datetime | None = None) -> NoteView:
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in WRITERS:
        raise PermissionDenied("Only a shift manager writes the investigation note.")
    if session.get(GameTable, table_id) is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    starts = period_start(period, day)
    note = (note or "").strip()
    if not note:
        raise ValidationError("Write what the investigation found.", field="note")
    if len(note) > NOTE_MAX:
        raise ValidationError("A note is at most %(NOTE_MAX)s characters.", NOTE_MAX=NOTE_MAX,
                              field="note")
    row = HoldNote(table_id=table_id, period=period, starts=starts, note=note,
                   written_by=actor_id, at=now or utcnow())
    session.add(row)
    session.flush()
    return NoteView(table_id, period, starts, note, actor.display_name, row.at)


def notes_between(session: Session, first: date, last: date) -> list[NoteView]:
    query = (select(HoldNote, User.display_name).join(User, col(User.id) == HoldNote.written_by)
             .where(HoldNote.starts >= first, HoldNote.starts <= last)
             .order_by(col(HoldNote.at), col(HoldNote.id)))
    return [NoteView(n.table_id, n.period, n.starts, n.note, name, n.at)
            for n, name in session.exec(query).all()]
