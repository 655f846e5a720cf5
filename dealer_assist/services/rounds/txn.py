"""Short write transactions with bounded retries: the shape every live-round write takes.

Why: a step used to hold the write lock from its first query to its commit and replay
the round three times inside it, so tablets queued behind one another and SQLite's unfair busy
handler answered some of them "database is locked" (a 500) after five seconds. Now a write is
two phases on the caller's session and one connection:

1. :func:`begin_read` -- a *read* that takes no lock (SQLite without BEGIN, no
   BEGIN/COMMIT round trips; PostgreSQL in READ COMMITTED, where each statement reads
   afresh). The service reads the round's events, folds them once and lets the engine verify
   the step here, outside any lock.
2. :func:`begin_write` -- the write begins on the read's own connection (no second checkout
   from the pool): SQLite ``BEGIN IMMEDIATE``; PostgreSQL the same transaction goes on and
   takes a row lock (``house.lock_round`` or :func:`lock_table`). The service then *compares
   and appends*: if the round's last sequence number is still the one it folded, it inserts;
   otherwise it raises :class:`Stale` and :func:`run` re-reads and tries again.

:func:`run` commits, and retries a bounded number of times on :class:`Stale` and on contention
(SQLite "database is locked"/busy, PostgreSQL serialization failures, deadlocks and lock
time-outs); after that it raises :class:`Busy`, which the edge answers 503 with ``Retry-After``
(``edge.problems``, ``edge.pages``). A failed attempt is rolled back whole: nothing is
half-written.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, select

from ...audit import capture
from ...database import NO_BEGIN, SQLITE_BEGIN
from ...models import GameTable
from ..errors import NotFound, ServiceError

T = TypeVar("T")

#: attempts of one unit of work (a stale read or a busy database each use one)
ATTEMPTS = 6
#: seconds a client is asked to wait after a 503
RETRY_AFTER = 1
#: SQLSTATEs of PostgreSQL contention: serialization failure, deadlock, lock not available
PG_CONTENTION = frozenset({"40001", "40P01", "55P03"})
SQLITE_CONTENTION = ("database is locked", "database is busy", "database table is locked")


class Busy(ServiceError):
    """The database stayed contended through every attempt; try again shortly (HTTP 503)."""

    def __init__(self, message: str, *, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Stale(Exception):
    """The round moved between the read and the write: re-read and try again (internal)."""


def is_contention(err: BaseException) -> bool:
    """A lock or serialization failure that a retry can cure (not a bug, not bad input)."""
    if not isinstance(err, DBAPIError):
        return False
    orig = err.orig
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state in PG_CONTENTION:
        return True
    text = str(orig).lower()
    return any(marker in text for marker in SQLITE_CONTENTION)


def _sqlite(session: Session) -> bool:
    return session.get_bind().dialect.name == "sqlite"


def begin_read(session: Session) -> None:
    """End whatever the session had open and read without a lock: each statement
    of the read sees what was committed when it ran (SQLite: no BEGIN at all, no BEGIN/COMMIT
    round trips; PostgreSQL: READ COMMITTED, which reads each statement afresh and takes no
    row lock for a plain SELECT). The read need not be one snapshot: the write compares what
    it folded with the stream as it is under the lock (:func:`begin_write`, on the same
    connection).

    Objects the session kept from earlier transactions are expired, so every read is fresh."""
    if session.in_transaction():
        session.commit()
    session.expire_all()
    if _sqlite(session):
        session.connection(execution_options={SQLITE_BEGIN: NO_BEGIN})
    else:
        session.connection()  # READ COMMITTED: each statement reads afresh, no lock taken
    session.info[_READING] = True


def begin_write(session: Session) -> None:
    """The write begins (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: the next statement's lock).

    On SQLite the writers of this process first queue on a mutex per database: SQLite's own
    busy handler polls with growing sleeps, so under load a waiter could sleep through many
    turns (seconds); a mutex wakes the next writer the moment the last one commits. Writers in
    other processes (CLI commands) still meet the busy timeout. After :func:`begin_read` the
    write begins on the read's own connection (no second checkout from the pool,
    which on PostgreSQL is also a ping): on SQLite the read held no transaction, so ``BEGIN
    IMMEDIATE`` there starts the write; the session's commit or rollback ends it."""
    reading = session.info.pop(_READING, False)
    if not _sqlite(session):
        if not reading and session.in_transaction():
            session.rollback()  # a read transaction: nothing to keep
        return  # after begin_read the write goes on in the read's transaction (its locks next)
    if not reading and session.in_transaction():
        session.rollback()  # a read transaction: nothing to keep
    mutex = _mutex(session)
    if not mutex.acquire(timeout=WRITE_WAIT_S):
        raise Stale  # counted as an attempt; the next one queues again
    session.info[_HELD] = mutex
    if reading and session.in_transaction():
        session.expire_all()
        conn = session.connection()
        if not conn.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
            conn.exec_driver_sql("BEGIN IMMEDIATE")


def _mutex(session: Session) -> threading.Lock:
    key = str(session.get_bind().engine.url)
    with _MUTEXES_LOCK:
        return _MUTEXES.setdefault(key, threading.Lock())


def end_write(session: Session) -> None:
    """Release this process's SQLite write mutex, if the session holds it (after the commit or
    the rollback of a write; :func:`run` calls it)."""
    session.info.pop(_READING, None)
    mutex = session.info.pop(_HELD, None)
    if mutex is not None:
        mutex.release()


#: SQLite: one write mutex per database file in this process (see :func:`begin_write`)
_MUTEXES: dict[str, threading.Lock] = {}
_MUTEXES_LOCK = threading.Lock()
_HELD = "dealer_assist_write_mutex"
#: SQLite: the session reads without a transaction (:func:`begin_read`), on its connection
_READING = "dealer_assist_reading"
#: seconds a writer waits for the mutex before the attempt counts as contended
WRITE_WAIT_S = 5.0


def lock_table(session: Session, table_id: int) -> None:
    """The table row, locked until commit: one round start at a table at a time.

    ``FOR NO KEY UPDATE`` excludes the other starters (and ``FOR UPDATE``) but not the
    foreign-key checks of rows that merely point at the table (a shift closing, an inventory
    row): those would otherwise wait for us while we wait for their shift row."""
    if _sqlite(session):
        return  # BEGIN IMMEDIATE has serialised the writers; the read found the table
    found = session.exec(select(GameTable.id).where(GameTable.id == table_id)
                         .with_for_update(key_share=True)).first()
    if found is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)


def _pause(attempt: int) -> None:
    """A short, jittered pause so twins that collided do not collide again in step."""
    time.sleep(random.uniform(0, 0.005 * (2 ** attempt)))  # noqa: S311 - not a secret


def run(session: Session, attempt: Callable[[], T], *, actor_id: int | None = None,
        attempts: int = ATTEMPTS) -> T:
    """Run ``attempt`` and commit; on :class:`Stale` or contention roll back and run it again.
    What it writes is attributed to ``actor_id`` in the audit log (``capture.acting``).

    Any other exception rolls back and propagates (a refused step leaves nothing behind)."""
    with capture.acting(session, actor_id):
        return _run(session, attempt, attempts)


def _run(session: Session, attempt: Callable[[], T], attempts: int) -> T:
    for n in range(attempts):
        try:
            result = attempt()
            session.commit()
            return result
        except Stale:
            session.rollback()
        except DBAPIError as err:
            session.rollback()
            if not is_contention(err):
                raise
        except BaseException:
            session.rollback()
            raise
        finally:
            end_write(session)
        _pause(n)
    raise Busy("The table is busy (other tablets are saving at the same moment); nothing was "
               "recorded. Try again in a moment.")
