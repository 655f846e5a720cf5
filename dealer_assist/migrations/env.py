"""Alembic environment, driven programmatically by :func:`dealer_assist.db.upgrade`.

The engine comes from ``config.attributes["engine"]`` (so SQLite gets the same WAL pragmas and
``BEGIN IMMEDIATE`` hook as the app, which makes its DDL transactional: a failed migration leaves
nothing half-applied), or from ``sqlalchemy.url`` when run by the ``alembic`` command line.
"""

from __future__ import annotations

from typing import Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import text
from sqlmodel import SQLModel

from dealer_assist import models  # noqa: F401  (registers every table on the metadata)
from dealer_assist.db import make_engine
from dealer_assist.models import UTCDateTime

config = context.config
target_metadata = SQLModel.metadata
#: serialises concurrent ``init-db`` runs on PostgreSQL (SQLite has BEGIN IMMEDIATE)
ADVISORY_LOCK_KEY = 0x6465616C  # "deal"


def render_item(type_: str, obj: object,
                autogen_context: AutogenContext) -> str | Literal[False]:
    """Render the app's column types as plain SQLAlchemy ones, so a revision never imports the
    models it migrates (a later model change must not rewrite history)."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"),
                      target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True, render_item=render_item)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    engine = config.attributes.get("engine") or make_engine(
        config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=sqlite, transactional_ddl=True, compare_type=True,
                          render_item=render_item)
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                                   {"k": ADVISORY_LOCK_KEY})
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
