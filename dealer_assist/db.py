"""Engine, sessions and migrations.

One engine per app (``app.extensions``), one session per request on ``g`` closed in teardown (the
Flask tutorial's ``get_db``), and :func:`session_scope` for services, CLI commands and tests.

The engine itself (SQLite's pragmas and BEGIN hooks, PostgreSQL's lock bound, the read-only
and autocommit copies) is :mod:`dealer_assist.database`, which imports no Flask; its names are
re-exported here.

Transactions belong to the caller: services flush; a request's session is committed by the
edge's unit of work (``edge/unit.py``, never by a view), a CLI command's by ``session_scope``.
The one exception is the record path's writes (``services/rounds/txn.py``): each is a short
unit of work that reads, then locks, compares and appends, and commits itself, retrying on
contention.
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
from sqlalchemy import Connection, Engine
from sqlmodel import Session

from .database import (
    NO_BEGIN,
    SQLITE_BEGIN,
    autocommit,
    make_engine,
    normalize_url,
    read_only,
)

__all__ = ["NO_BEGIN", "SQLITE_BEGIN", "autocommit", "make_engine", "normalize_url",
           "read_only"]

EXTENSION = "dealer_assist.db"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
READ_ONLY_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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
