"""Service tests: a real database (SQLite file and PostgreSQL), a session, no Flask."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from dealer_assist.db import make_engine
from dealer_assist.services.people import passwords


@pytest.fixture(autouse=True)
def _fast_argon2() -> None:
    passwords.configure(time_cost=1, memory_kib=64)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    engine = make_engine(db_url, busy_timeout_ms=2000)
    yield engine
    engine.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    with Session(engine, expire_on_commit=False) as session:
        yield session
