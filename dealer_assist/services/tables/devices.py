"""Table devices: a tablet bound to one table.

A pit boss, shift manager or administrator binds the tablet in front of him to a table. The
browser then holds a random token (its own cookie, never the login session's); only the token's
SHA-256 is stored (``table_device``). Such a tablet shows that table's screen and the relief and
nothing else; whoever was tapped in last at the table (his stint, :mod:`..people.stints`) is
the one it records for. It survives reloads and dealer changes, and an idle stint signs nobody
out of the table. Revoking it (from the pit pages) ends it at once, whatever the cookie says.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, select

from ...models import GameTable, Role, TableDevice, User, utcnow
from ..errors import NotFound, PermissionDenied, ValidationError

#: who binds and revokes table devices
BINDERS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value, Role.ADMIN.value})
LABEL_MAX = 64


@dataclass(frozen=True, slots=True)
class DeviceView:
    id: int
    table_id: int
    table: str
    game: str
    label: str
    bound_by: int
    bound_at: datetime
    revoked_at: datetime | None

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _view(row: TableDevice, table: GameTable) -> DeviceView:
    assert row.id is not None
    return DeviceView(row.id, row.table_id, table.name, table.game, row.label, row.bound_by,
                      row.bound_at, row.revoked_at)


def _binder(session: Session, actor_id: int) -> User:
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in BINDERS:
        raise PermissionDenied("Only a pit boss, shift manager or administrator binds or "
                               "revokes a table device.")
    return actor


def bind(session: Session, *, table_id: int, actor_id: int, label: str = "",
         now: datetime | None = None) -> tuple[DeviceView, str]:
    """Bind a tablet to ``table_id``; returns the device and its token (for the cookie only)."""
    _binder(session, actor_id)
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    if not table.active:
        raise ValidationError("Table %(name)s is out of service.", name=table.name)
    label = (label or "").strip()[:LABEL_MAX] or f"{table.name} tablet"
    token = secrets.token_urlsafe(32)
    row = TableDevice(table_id=table_id, token_hash=_hash(token), label=label,
                      bound_by=actor_id, bound_at=now or utcnow())
    session.add(row)
    session.flush()
    return _view(row, table), token


def resolve(session: Session, token: str) -> DeviceView | None:
    """The bound device holding ``token``, or None (unknown, revoked, or its table retired)."""
    if not token or len(token) > 200:
        return None
    row = session.exec(select(TableDevice).where(TableDevice.token_hash == _hash(token))).first()
    if row is None or row.revoked_at is not None:
        return None
    table = session.get(GameTable, row.table_id)
    if table is None or not table.active:
        return None
    return _view(row, table)


def revoke(session: Session, *, device_id: int, actor_id: int,
           now: datetime | None = None) -> DeviceView:
    """End a table device (from the pit pages); its tablet shows the sign-in page again."""
    _binder(session, actor_id)
    row = session.get(TableDevice, device_id)
    if row is None:
        raise NotFound("No table device with id %(device_id)s.", device_id=device_id)
    if row.revoked_at is None:
        row.revoked_at = now or utcnow()
        row.revoked_by = actor_id
        session.add(row)
        session.flush()
    table = session.get(GameTable, row.table_id)
    assert table is not None
    return _view(row, table)


def active_devices(session: Session, table_ids: list[int] | None = None) -> list[DeviceView]:
    """The bound (not revoked) devices, of ``table_ids`` or of every table, by table."""
    query = (select(TableDevice, GameTable).join(GameTable,
                                                 col(GameTable.id) == TableDevice.table_id)
             .where(col(TableDevice.revoked_at).is_(None)))
    if table_ids is not None:
        query = query.where(col(TableDevice.table_id).in_(table_ids))
    rows = session.exec(query.order_by(col(GameTable.name), col(TableDevice.id))).all()
    return [_view(d, t) for d, t in rows]
