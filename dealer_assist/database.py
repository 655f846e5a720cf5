"""The database engine without Flask: SQLite's pragmas and BEGIN hooks, PostgreSQL's lock
bound, and the engine's derived copies (read-only, autocommit).

SQLite is the default (a file in ``instance/``). Every connection gets WAL, ``synchronous=FULL``
(a settled round must survive a power cut), a busy timeout and foreign keys. pysqlite's own
transaction handling is switched off and SQLAlchemy emits ``BEGIN`` itself (the "Serializable
isolation / Savepoints / Transactional DDL" recipe): ``BEGIN IMMEDIATE`` for anything that may
write, so two tablets saving at once queue on the busy timeout instead of one failing with
"database is locked" when it upgrades a read lock; plain ``BEGIN`` only for read-only requests
(GET/HEAD), which WAL lets run beside a writer. PostgreSQL (``DATABASE_URL`` =
``postgresql+psycopg://...``) needs none of this; its lock waits get the same bound
(``lock_timeout``).

Services reach this module (the record path's ``txn``), so it imports no Flask; ``db`` wires
it into the app and re-exports its names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

#: execution option read by the SQLite ``begin`` hook: "IMMEDIATE" (default) or "DEFERRED"
SQLITE_BEGIN = "dealer_assist_sqlite_begin"
#: ``SQLITE_BEGIN`` value of :func:`autocommit`: no BEGIN at all
NO_BEGIN = "NONE"


def normalize_url(url: str) -> str:
    """``postgres://`` and ``postgresql://`` (as hosting providers print them) mean psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, *, busy_timeout_ms: int = 5000, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite engines get the pragmas and BEGIN hooks described above."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # a lock wait is bounded like SQLite's busy timeout: past it PostgreSQL raises
        # lock_not_available, which the services retry and then answer 503 (services/rounds/txn.py)
        kwargs.setdefault("connect_args", {"options": f"-c lock_timeout={int(busy_timeout_ms)}"})
        return create_engine(url, pool_pre_ping=True, **kwargs)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, **kwargs)
    _install_sqlite_hooks(engine, busy_timeout_ms)
    return engine


def _install_sqlite_hooks(engine: Engine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # take BEGIN away from pysqlite; the "begin" hook below emits it
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE")
        if mode == NO_BEGIN:
            return  # each statement is its own transaction (:func:`autocommit`)
        conn.exec_driver_sql("BEGIN DEFERRED" if mode == "DEFERRED" else "BEGIN IMMEDIATE")


def read_only(engine: Engine) -> Engine:
    """The same engine (and pool) whose transactions start with a deferred BEGIN on SQLite."""
    return _derived(engine, "read_only", **{SQLITE_BEGIN: "DEFERRED"})


def _derived(engine: Engine, name: str, **options: Any) -> Engine:
    """``engine.execution_options(...)``, made once per engine and kept on it (every request
    asks for one: making it is not free)."""
    attribute = f"_dealer_assist_{name}"
    found: Engine | None = getattr(engine, attribute, None)
    if found is None:
        found = engine.execution_options(**options)
        setattr(engine, attribute, found)
    return found


def autocommit(engine: Engine) -> Engine:
    """The same engine (and pool) without transactions: each statement commits on its own
    (no BEGIN, no COMMIT: one round trip for a read that is one statement). SQLite: the
    ``begin`` hook emits nothing (pysqlite's own transaction handling is off); PostgreSQL:
    psycopg's autocommit. Only for reads whose statements need no common snapshot."""
    if engine.dialect.name == "sqlite":
        return _derived(engine, "autocommit", **{SQLITE_BEGIN: NO_BEGIN})
    return _derived(engine, "autocommit", isolation_level="AUTOCOMMIT")
