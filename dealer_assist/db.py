"""Engine, sessions and migrations.

One engine per app (``app.extensions``), one session per request on ``g`` closed in teardown (the
Flask tutorial's ``get_db``), and :func:`session_scope` for services, CLI commands and tests.

SQLite is the default (a file in ``instance/``). Every connection gets WAL, ``synchronous=FULL``
(a settled round must survive a power cut), a busy timeout and foreign keys. pysqlite's own
transaction handling is switched off and SQLAlchemy emits ``BEGIN`` itself (the "Serializable
isolation / Savepoints / Transactional DDL" recipe): ``BEGIN IMMEDIATE`` for anything that may
write, so two tablets saving at once queue on the busy timeout instead of one failing with
"database is locked" when it upgrades a read lock; plain ``BEGIN`` only for read-only requests
(GET/HEAD), which WAL lets run beside a writer. PostgreSQL (``DATABASE_URL`` =
``postgresql+psycopg://...``) needs none of this; its lock waits get the same bound
(``lock_timeout``).

Transactions belong to the caller: services flush, the web view or ``session_scope`` commits.
The one exception is the live round's writes (``services/rounds/steps.py``): each is a short unit of
work that reads, then locks, compares and appends, and commits itself, retrying on contention
(``services/rounds/txn.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app, g, has_request_context, request
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlmodel import Session

EXTENSION = "dealer_assist.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: execution option read by the SQLite ``begin`` hook: "IMMEDIATE" (default) or "DEFERRED"
SQLITE_BEGIN = "dealer_assist_sqlite_begin"
READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
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


# --- Flask wiring -------------------------------------------------------------------------------

def init_app(app: Flask) -> None:
    """Create the app's engine (lazily connecting) and close the request session in teardown."""
    app.extensions[EXTENSION] = make_engine(
        app.config["DATABASE_URL"], busy_timeout_ms=int(app.config["SQLITE_BUSY_TIMEOUT_MS"]))
    app.teardown_appcontext(close_session)


def get_engine(app: Flask | None = None) -> Engine:
    engine: Engine = (app or current_app).extensions[EXTENSION]
    return engine


def dispose(app: Flask) -> None:
    """Close pooled connections (tests, before dropping a database)."""
    get_engine(app).dispose()


def get_session() -> Session:
    """The request's session, created on first use. GET/HEAD requests read with a deferred BEGIN."""
    if "db_session" not in g:
        engine = get_engine()
        if has_request_context() and request.method in READ_ONLY_METHODS:
            engine = read_only(engine)
        g.db_session = Session(engine, expire_on_commit=False)
    session: Session = g.db_session
    return session


def close_session(exc: BaseException | None = None) -> None:
    session: Session | None = g.pop("db_session", None)
    if session is not None:
        if exc is not None:
            session.rollback()
        session.close()


def autocommit(engine: Engine) -> Engine:
    """The same engine (and pool) without transactions: each statement commits on its own
    (no BEGIN, no COMMIT: one round trip for a read that is one statement). SQLite: the
    ``begin`` hook emits nothing (pysqlite's own transaction handling is off); PostgreSQL:
    psycopg's autocommit. Only for reads whose statements need no common snapshot."""
    if engine.dialect.name == "sqlite":
        return _derived(engine, "autocommit", **{SQLITE_BEGIN: NO_BEGIN})
    return _derived(engine, "autocommit", isolation_level="AUTOCOMMIT")


@contextmanager
def one_read(bind: Flask | Engine | None = None) -> Iterator[Connection]:
    """A Core connection without a transaction (:func:`autocommit`) for a read that is one
    statement: who is signed in, asked on every request (a Session's own machinery
    cost more than that read)."""
    engine = bind if isinstance(bind, Engine) else get_engine(bind)
    with autocommit(engine).connect() as conn:
        yield conn


@contextmanager
def session_scope(bind: Flask | Engine | None = None, *,
                  write: bool = True) -> Iterator[Session]:
    """A unit of work: commit on success, roll back on any exception, always close.

    ``bind`` is an app, an engine or nothing (the current app). ``write=False`` reads with a
    deferred BEGIN on SQLite (a read of one statement: :func:`one_read`).
    """
    engine = bind if isinstance(bind, Engine) else get_engine(bind)
    if not write:
        engine = read_only(engine)
    session = Session(engine, expire_on_commit=False)
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


# --- migrations ----------------------------------------------------------------------------------

def alembic_config(engine: Engine) -> Any:
    """Alembic config without ``alembic.ini``; the scripts live in ``dealer_assist/migrations``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    cfg.attributes["engine"] = engine
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """``alembic upgrade head``: idempotent, safe to run on every start."""
    command.upgrade(alembic_config(engine), revision)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        rev: str | None = MigrationContext.configure(conn).get_current_revision()
        return rev


def head_revision(engine: Engine) -> str | None:
    head: str | None = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()
    return head
