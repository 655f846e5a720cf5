"""Steps recorded offline on a table's tablet: the tapped time, and the refusals.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its stored
events are the record." A queued step comes back through the one record path like any other,
with two more fields: ``tapped_at`` (when the croupier tapped, by the tablet's clock; stored
beside the event's received time) and ``offline`` (it waited in the tablet's queue).

A queued step the server refuses (the round was voided by a pit boss meanwhile, the shift
closed, the dealer was relieved) leaves the round exactly as it was; what the tablet had
recorded is kept as an :class:`~...models.OfflineRefusal` (:func:`keep_refusal`, in a
transaction of its own) until a pit boss marks it seen (:func:`mark_seen`): the floor page
and the shift report show it, nothing is dropped silently.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import OfflineRefusal, Role, Round, Shift, ShiftStatus, User, utcnow
from ..errors import N_, NotFound, PermissionDenied, ServiceError, ValidationError
from . import store

#: a tapped time further ahead of the server's clock than this is refused (a tablet's clock
#: may drift a little; it cannot have tapped in the future)
AHEAD = timedelta(minutes=5)
TAPPED_MAX = 40
DETAIL_MAX = 500
#: who marks a refusal seen on the floor page
PIT = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: the answers a queued step may get that are a refusal (anything else: not recorded, and the
#: tablet sends it again: a 503 or a lost connection is no refusal)
REFUSALS = frozenset({400, 403, 404, 409, 422})


class Malformed(ServiceError):
    """A field of the request that is not what it must be (answered 400)."""


@dataclass(frozen=True, slots=True)
class Tap:
    """When the croupier tapped (UTC; None: not said) and whether it waited offline."""

    tapped_at: datetime | None = None
    offline: bool = False


NO_TAP = Tap()
_TRUE = frozenset({"true", "1", "on", "yes"})
_FALSE = frozenset({"false", "0", "off", "no", ""})


def read_tap(tapped_at: Any, offline: Any, now: datetime) -> Tap:
    """The two fields as a request sent them (JSON values, or a form's strings): a malformed
    value is :class:`Malformed` (400); a tapped time more than :data:`AHEAD` past ``now`` is a
    :class:`ValidationError` (422) naming ``tapped_at``."""
    if offline is None or isinstance(offline, bool):
        queued = bool(offline)
    elif isinstance(offline, str) and offline.strip().lower() in _TRUE | _FALSE:
        queued = offline.strip().lower() in _TRUE
    else:
        raise Malformed(N_("offline must be true or false."), field="offline")
    if tapped_at is None or tapped_at == "":
        return Tap(None, queued)
    when = instant(tapped_at)
    if when > now + AHEAD:
        raise ValidationError("The tapped time %(tapped_at)s is more than 5 minutes ahead of "
                              "the server's clock.", tapped_at=tapped_at, field="tapped_at")
    return Tap(when, queued)


def instant(raw: Any, field: str = "tapped_at") -> datetime:
    """An ISO 8601 time with its zone, in UTC (else :class:`Malformed` naming ``field``)."""
    bad = Malformed(N_("%(name)s must be a time in ISO 8601 with its zone, e.g. "
                       "2026-11-29T07:01:02.345Z."), name=field, field=field)
    if not isinstance(raw, str) or len(raw) > TAPPED_MAX:
        raise bad
    try:
        when = datetime.fromisoformat(raw.strip())
    except ValueError:
        raise bad from None
    if when.tzinfo is None:
        raise bad
    return when.astimezone(UTC)


# --- refusals -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Refused:
    """What a refused queued step was: the request as sent and the answer it got."""

    table_id: int | None
    round_id: int | None
    actor_id: int | None
    device_id: int | None
    type: str
    payload: Mapping[str, Any]
    tap: Tap
    idempotency_key: str
    status: int
    detail: str
    #: the refusal's sentence as data (``i18n.steps.phrase_data``, JSON text), if known
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class RefusalView:
    id: int
    table_id: int
    shift_id: int | None
    round_id: int | None
    round_number: int | None
    type: str
    payload: dict[str, Any]
    tapped_at: datetime | None
    created_at: datetime
    status: int
    detail: str
    seen_at: datetime | None
    reason: dict[str, Any] | None = None


def keep_refusal(session: Session, refused: Refused) -> int | None:
    """Store one refused queued step (the caller commits: the request's own transaction was
    rolled back, this is one of its own); the same key refused again at the same table is the
    row already stored. None: nothing to keep (not a queued step, not a refusal, or a round
    or table that does not exist)."""
    if not refused.tap.offline or refused.status not in REFUSALS:
        return None
    round_row = session.get(Round, refused.round_id) if refused.round_id is not None else None
    table_id = round_row.table_id if round_row is not None else refused.table_id
    if table_id is None or (refused.round_id is not None and round_row is None):
        return None
    key = refused.idempotency_key.strip()[:store.KEY_MAX] or "-"
    found = _by_key(session, table_id, key)
    if found is not None:
        return found
    shift_id = round_row.shift_id if round_row is not None else _shift_of(session, table_id)
    row = OfflineRefusal(
        table_id=table_id, shift_id=shift_id, round_id=refused.round_id,
        actor_id=refused.actor_id, device_id=refused.device_id, type=refused.type[:40] or "?",
        payload=_payload_text(refused.payload), tapped_at=refused.tap.tapped_at,
        idempotency_key=key, status=refused.status, detail=refused.detail[:DETAIL_MAX],
        reason=refused.reason, created_at=utcnow())
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # a twin stored it first
        return _by_key(session, table_id, key)
    assert row.id is not None
    return row.id


def _payload_text(payload: Mapping[str, Any]) -> str:
    try:
        return store.encode_payload(payload)
    except ValidationError:
        return "{}"


def _by_key(session: Session, table_id: int, key: str) -> int | None:
    return session.exec(select(OfflineRefusal.id).where(
        OfflineRefusal.table_id == table_id, OfflineRefusal.idempotency_key == key)).first()


def _shift_of(session: Session, table_id: int) -> int | None:
    """The table's open shift, else its latest (a step refused because the shift closed)."""
    rows = session.exec(select(Shift.id, Shift.status).where(Shift.table_id == table_id)
                        .order_by(col(Shift.id).desc()).limit(20)).all()
    open_ = next((sid for sid, status in rows if status == ShiftStatus.OPEN.value), None)
    return open_ if open_ is not None else (rows[0][0] if rows else None)


def refusals(session: Session, *, shift_id: int | None = None,
             table_ids: list[int] | None = None, unseen: bool = False) -> list[RefusalView]:
    """Refusals of one shift (the report) or of tables (the floor: ``unseen`` ones), oldest
    first, each with its round's number."""
    query = (select(OfflineRefusal, Round.number)
             .outerjoin(Round, col(Round.id) == OfflineRefusal.round_id)
             .order_by(col(OfflineRefusal.id)))
    if shift_id is not None:
        query = query.where(OfflineRefusal.shift_id == shift_id)
    if table_ids is not None:
        query = query.where(col(OfflineRefusal.table_id).in_(table_ids))
    if unseen:
        query = query.where(col(OfflineRefusal.seen_at).is_(None))
    return [_view(row, number) for row, number in session.exec(query).all()]


def _view(row: OfflineRefusal, number: int | None) -> RefusalView:
    assert row.id is not None
    return RefusalView(row.id, row.table_id, row.shift_id, row.round_id, number, row.type,
                       json.loads(row.payload), row.tapped_at, row.created_at,
                       row.status, row.detail, row.seen_at,
                       json.loads(row.reason) if row.reason else None)


def mark_seen(session: Session, *, refusal_id: int, actor_id: int,
              now: datetime | None = None) -> RefusalView:
    """A pit boss or shift manager has seen the refusal: the floor no longer shows it (the
    shift report still lists it). Marking it again changes nothing."""
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in PIT:
        raise PermissionDenied("Only a pit boss or shift manager marks a refused offline step "
                               "seen.")
    row = session.get(OfflineRefusal, refusal_id)
    if row is None:
        raise NotFound("No refused offline step with id %(id)s.", id=refusal_id)
    if row.seen_at is None:
        row.seen_at, row.seen_by = now or utcnow(), actor_id
        session.add(row)
        session.flush()
    rnd = session.get(Round, row.round_id) if row.round_id is not None else None
    return _view(row, rnd.number if rnd is not None else None)
