"""The rounds API checks a body against its documented shape before anything is stored
: what the view's field reader refuses keeps its 422, as before; a body the reader
took but that breaks the shape is a 400 naming the field, and the round is left as it was."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import Browser, opening_form
from tests.web.test_live_api import STEPS, Api, create


@pytest.fixture
def api(browser: Browser, app: Flask, croupier: Any, table: Any) -> Api:
    """Carla signed in, with her table's shift open (as in ``test_live_api``)."""
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return Api(browser)


def test_a_step_whose_body_breaks_the_documented_shape_is_a_400_and_stores_nothing(
        api: Api, table: Any) -> None:
    rid = create(api, table).get_json()["id"]
    # the header's key is the one used, so the reader takes the body; its idempotency_key
    # field must still be a string, as the document says
    resp = api.post(f"/api/v1/rounds/{rid}/events", {**STEPS[0], "idempotency_key": 7},
                    key="header-key")
    assert resp.status_code == 400 and resp.mimetype == "application/problem+json"
    assert (resp.get_json()["title"], resp.get_json()["field"]) == ("Malformed request",
                                                                     "idempotency_key")
    assert len(api.b.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]) == 1


def test_a_rule_the_reader_checks_keeps_its_422_before_the_shape(api: Api, table: Any) -> None:
    rid = create(api, table).get_json()["id"]
    resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": "bet", "payload": [],
                                                     "idempotency_key": 7})
    assert resp.status_code == 422 and resp.get_json()["field"] == "payload"
