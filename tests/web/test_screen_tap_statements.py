"""A table screen tap costs no more SQL than the JSON API's step, and reads before it
locks. The statements are counted as ``benchmarks/profile_step.py --sql`` counts them: a
SQLAlchemy ``before_cursor_execute`` listener on the real app's engine (SQLite, the production
pragmas), around one request each. The same step (box 1's BET, after the deal with nothing face
up) is sent once through the screen (``POST /live/rounds/<id>/steps``) and once through the API
(``POST /api/v1/rounds/<id>/events``), each on its own table's round."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from dealer_assist import db
from tests.web.conftest import Browser, opening_form

pytestmark = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)

BOXES = {"ante_1": "100", "ante_2": "100"}


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app's engine sends while the block runs, in order (and
    ``COMMIT`` where a transaction commits)."""
    sent: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        sent.append(" ".join(statement.split()))

    def commit(_conn: object) -> None:  # pysqlite's commit is a call, not a statement
        sent.append("COMMIT")

    engine = db.get_engine(app)
    event.listen(engine, "before_cursor_execute", count)
    event.listen(engine, "commit", commit)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", count)
        event.remove(engine, "commit", commit)


def reads_the_round(statement: str) -> bool:
    """The record path's read: the first SELECT of the round's row or its events."""
    return statement.startswith("SELECT") and ("game_round" in statement
                                               or "round_event" in statement)


@pytest.fixture
def taps(browser: Browser, app: Flask, croupier: Any, table: Any) -> dict[str, list[str]]:
    """Box 1's BET sent through the screen, then box 2's through the API, on the same round
    (one table, one dealer: a dealer deals one round at a time): each one's SQL."""
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    csrf = browser.csrf()
    headers = {"X-CSRF-Token": csrf}
    # the screen: "Start round" records the bets and the deal (nothing face up) in one request
    started = browser.post(f"/tables/{table.id}/live/rounds", {"key": "screen-start", **BOXES},
                           headers=headers)
    assert started.status_code == 201, started.get_data(as_text=True)
    rnd = started.get_json()["round"]
    assert rnd["last_seq"] == 2
    out = {}
    with statements(app) as sent:
        tap = browser.client.post(f"/live/rounds/{rnd['id']}/steps", headers=headers,
                                  json={"type": "bet", "payload": {"box": "1"},
                                        "idempotency_key": "screen-bet", "expected_seq": 2})
    assert tap.status_code == 201, tap.get_json()
    assert tap.get_json()["round"]["last_seq"] == 3
    out["screen"] = list(sent)
    with statements(app) as sent:
        step = browser.client.post(f"/api/v1/rounds/{rnd['id']}/events",
                                   json={"type": "bet", "payload": {"box": "2"},
                                         "expected_seq": 3},
                                   headers={**headers, "Idempotency-Key": "api-bet"})
    assert step.status_code == 201, step.get_json()
    out["api"] = list(sent)
    return out


def test_a_screen_tap_sends_no_more_sql_statements_than_the_same_api_step(
        taps: dict[str, list[str]]) -> None:
    # "A tap: 1 request, 1 read of the round, 1 write transaction, at most the API
    # step's statement count"
    screen, api = (len([s for s in taps[k] if s != "COMMIT"]) for k in ("screen", "api"))
    assert screen <= api, (taps["screen"], taps["api"])


def test_a_screen_tap_reads_the_round_once_then_begins_its_one_write_transaction(
        taps: dict[str, list[str]]) -> None:
    # "1 read of the round, 1 write transaction, ... no BEGIN IMMEDIATE before the
    # read"
    sent = taps["screen"]
    assert len([s for s in sent if s.startswith("SELECT round_event.")]) == 1, sent
    read = next(n for n, s in enumerate(sent) if reads_the_round(s))
    assert not [s for s in sent[:read] if s.startswith("BEGIN")], sent[:read + 1]
    assert [s for s in sent if s.startswith("BEGIN")] == ["BEGIN IMMEDIATE"], sent
    assert [s for s in sent if s.startswith("COMMIT")] == ["COMMIT"], sent
