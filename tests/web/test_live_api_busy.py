"""A database that stays locked is a 503 with Retry-After, never a 500, and nothing half-written.

Another connection holds the round's lock (SQLite: a write transaction; PostgreSQL: the round
row ``FOR UPDATE``) for the whole request; the server's lock wait is cut to 50 ms, so each
attempt times out and, after the bounded retries, the answer is 503. Released, the same request
with the same key is recorded once (201).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from dealer_assist import create_app, db
from tests.conftest import FAST_ARGON2
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, opening_form
from tests.web.test_live_api import STEPS, Api


@pytest.fixture
def app(db_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": db_url,
                      "SQLITE_BUSY_TIMEOUT_MS": 50, **FAST_ARGON2})
    yield app
    db.dispose(app)


def test_a_step_behind_a_held_lock_gets_503_with_retry_after_and_stores_nothing(
        app: Flask) -> None:
    arrange(app, make_user, "carla", "croupier")
    table = arrange(app, make_table, name="RP 1")
    browser = Browser(app.test_client())
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    api = Api(browser)
    rid = api.post(f"/api/v1/tables/{table.id}/rounds", {"boxes": [{"box": "1", "ante": 100}]},
                   key="start").get_json()["id"]
    engine = db.get_engine(app)
    with engine.connect() as holder:
        if engine.dialect.name == "sqlite":
            holder.execute(text("INSERT INTO login_throttle (username, ip, failures) "
                                "VALUES ('x', 'y', 0)"))  # BEGIN IMMEDIATE: the write lock
        else:
            holder.execute(text("SELECT id FROM game_round WHERE id = :id FOR UPDATE"),
                           {"id": rid})
        busy = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="deal")
        holder.rollback()
    problem: dict[str, Any] = busy.get_json()
    assert busy.status_code == 503 and busy.mimetype == "application/problem+json"
    assert int(busy.headers["Retry-After"]) >= 1
    assert problem["status"] == 503 and "nothing was recorded" in problem["detail"]
    assert len(browser.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]) == 1
    again = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="deal")
    assert again.status_code == 201 and len(again.get_json()["events"]) == 2
