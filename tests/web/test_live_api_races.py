"""Double taps through the rounds API, on SQLite and PostgreSQL: real threads, one client each.

The twins share one signed-in session (the same tablet) and send the same request with the same
idempotency key at the same moment. A double tap is never answered 201 twice, a resend
is a 200 with the same round, one key never starts two rounds, a resent ``undo`` without
``cancels`` is a 200 (not "key already used for a different step").
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import Browser, opening_form
from tests.web.test_live_api import STEPS, Api

TWINS = 3
REPEATS = 15


@pytest.fixture
def api(app: Flask, browser: Browser, croupier: Any, table: Any) -> Api:
    """Carla signed in, with a shift open at the table."""
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return Api(browser)


def twins(app: Flask, api: Api, url: str, body: dict[str, Any], key: str) -> list[Any]:
    """POST ``body`` from :data:`TWINS` clients with the same cookie and key, all at once."""
    cookie = api.b.client.get_cookie("session")
    assert cookie is not None
    headers = api.headers(key)
    gate = threading.Barrier(TWINS)

    def one(_n: int) -> tuple[int, Any]:
        client = app.test_client()
        client.set_cookie("session", cookie.value)
        gate.wait()
        resp = client.post(url, json=body, headers=headers)
        return resp.status_code, resp.get_json()

    with ThreadPoolExecutor(TWINS) as pool:
        return list(pool.map(one, range(TWINS)))


def test_a_double_tapped_round_start_is_created_once_and_the_twins_get_the_same_round(
        app: Flask, api: Api, table: Any) -> None:
    for n in range(REPEATS):
        answers = twins(app, api, f"/api/v1/tables/{table.id}/rounds",
                        {"boxes": [{"box": "1", "ante": 100}]}, f"start-{n}")
        statuses = sorted(status for status, _ in answers)
        assert statuses == [200] * (TWINS - 1) + [201], (n, answers)
        assert len({body["id"] for _, body in answers}) == 1
        rid = answers[0][1]["id"]
        # finish the round so the next try can start one
        for m, step in enumerate(STEPS):
            assert api.post(f"/api/v1/rounds/{rid}/events", step, key=f"{n}-{m}").status_code \
                == 201
        assert api.post(f"/api/v1/rounds/{rid}/events", {"type": "paid"},
                        key=f"{n}-paid").status_code == 201


def test_a_double_tapped_step_is_created_once_and_stored_once(app: Flask, api: Api,
                                                               table: Any) -> None:
    rid = api.post(f"/api/v1/tables/{table.id}/rounds", {"boxes": [{"box": "1", "ante": 100}]},
                   key="start").get_json()["id"]
    for n in range(REPEATS):
        step = STEPS[0] if n % 2 == 0 else {"type": "undo"}
        answers = twins(app, api, f"/api/v1/rounds/{rid}/events", step, f"tap-{n}")
        assert sorted(s for s, _ in answers) == [200] * (TWINS - 1) + [201], (n, answers)
        assert {len(body["events"]) for _, body in answers} == {n + 2}
    events = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]
    assert len(events) == REPEATS + 1


def test_a_resent_undo_without_cancels_is_answered_200_with_the_stored_round(
        api: Api, table: Any) -> None:
    rid = api.post(f"/api/v1/tables/{table.id}/rounds", {"boxes": [{"box": "1", "ante": 100}]},
                   key="start").get_json()["id"]
    api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="deal")
    first = api.post(f"/api/v1/rounds/{rid}/events", {"type": "undo"}, key="undo")
    again = api.post(f"/api/v1/rounds/{rid}/events", {"type": "undo"}, key="undo")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["events"] == first.get_json()["events"]
