"""When a table's tablet was last heard from, for the floor page.

The tablet calls its table's ping every 3 s (with its offline queue's figures) and any request
of a bound device counts too. Writing the database on every request would put a write (and,
on SQLite, the one writer's lock) in front of every tap of every table; the floor needs a
resolution of seconds (a table is offline after :data:`OFFLINE_AFTER` of silence). So
:func:`heard` writes only when the time stored is older than :data:`HEARD_EVERY` or the queue
figures changed: this process remembers what it wrote last (:data:`_LAST`, no read at all
while that is recent) and the UPDATE itself compares (``WHERE heard_at < now - HEARD_EVERY``),
so several processes do not all write the same second. It is a Core statement, not an ORM
flush: a heartbeat is not a state change worth an audit line (like ``last_seen_at``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, or_, select, update

from ...models import TableDevice

#: write the heard-from time at most this often per device (the ping comes every 3 s)
HEARD_EVERY = timedelta(seconds=2.5)
#: a table whose device was not heard from for this long is shown offline
OFFLINE_AFTER = timedelta(seconds=10)
_DEVICE = TableDevice.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Queue:
    """A ping's figures: steps and rounds waiting in the tablet's offline queue, and since when
    the tablet has been offline (None: it is online)."""

    steps: int = 0
    rounds: int = 0
    offline_since: datetime | None = None


_LAST: dict[tuple[str, int], tuple[datetime, Queue | None]] = {}
_LOCK = threading.Lock()


def due(url: str, device_id: int, now: datetime, queue: Queue | None = None) -> bool:
    """Whether :func:`heard` would write (no database read): nothing written by this process
    for ``HEARD_EVERY``, or other queue figures than the last written."""
    with _LOCK:
        last = _LAST.get((url, device_id))
    if last is None or now - last[0] >= HEARD_EVERY:
        return True
    return queue is not None and queue != last[1]


def heard(conn: Connection, device_id: int, now: datetime, queue: Queue | None = None) -> bool:
    """Store that the device was heard from at ``now`` (and, from a ping, its queue's figures)
    when :func:`due`; the caller commits. True when a row was written."""
    url = str(conn.engine.url)
    if not due(url, device_id, now, queue):
        return False
    values: dict[str, object] = {"heard_at": now}
    changed = [_DEVICE.c.heard_at.is_(None), _DEVICE.c.heard_at < now - HEARD_EVERY]
    if queue is not None:
        values.update(queued_steps=queue.steps, queued_rounds=queue.rounds,
                      offline_since=queue.offline_since)
        changed += [_DEVICE.c.queued_steps != queue.steps,
                    _DEVICE.c.queued_rounds != queue.rounds,
                    _DEVICE.c.offline_since.is_distinct_from(queue.offline_since)]
    done = conn.execute(update(_DEVICE).where(_DEVICE.c.id == device_id, or_(*changed))
                        .values(**values))
    with _LOCK:
        last = _LAST.get((url, device_id))
        _LAST[(url, device_id)] = (now, queue if queue is not None else
                                   (last[1] if last else None))
    return bool(done.rowcount)


@dataclass(frozen=True, slots=True)
class Heard:
    """A table's tablet as the floor sees it: offline since when (None: heard from lately),
    and the queue its last ping reported."""

    table_id: int
    heard_at: datetime
    offline: bool
    queue: Queue


def tables_with_devices(conn: Connection) -> list[int]:
    """The tables with a bound (not revoked) device."""
    return list(conn.execute(select(_DEVICE.c.table_id).distinct()
                             .where(_DEVICE.c.revoked_at.is_(None))).scalars())


def of_tables(conn: Connection, table_ids: list[int], now: datetime) -> dict[int, Heard]:
    """Per table with a bound device: its device heard from last (never heard: since bound)."""
    if not table_ids:
        return {}
    rows = conn.execute(select(_DEVICE.c.table_id, _DEVICE.c.heard_at, _DEVICE.c.bound_at,
                               _DEVICE.c.queued_steps, _DEVICE.c.queued_rounds,
                               _DEVICE.c.offline_since)
                        .where(_DEVICE.c.revoked_at.is_(None),
                               _DEVICE.c.table_id.in_(table_ids))).all()
    out: dict[int, Heard] = {}
    for r in rows:
        at = r.heard_at or r.bound_at
        if r.table_id in out and out[r.table_id].heard_at >= at:
            continue
        out[r.table_id] = Heard(r.table_id, at, now - at >= OFFLINE_AFTER,
                                Queue(r.queued_steps, r.queued_rounds, r.offline_since))
    return out
