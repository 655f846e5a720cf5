"""An explicit ``take_ante`` where the reveal already took the ANTE (Caribbean
stud, Oasis: no game can be bought, so taking the ANTE is the only outcome and nobody taps it,
) answered 422 "box 1 has already chosen": a client written to the earlier contract,
which sent it, broke. It is now answered as a no-op: 200, the round as it is, nothing stored
(docs/api.md)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.factories import make_table
from tests.web.conftest import Browser, arrange, opening_form
from tests.web.test_live_api import Api


@pytest.fixture(params=["caribbean", "oasis"])
def game_table(request: pytest.FixtureRequest, app: Flask, croupier: Any) -> Any:
    return arrange(app, make_table, name="CS 1", game=request.param)


@pytest.fixture
def api(browser: Browser, app: Flask, game_table: Any) -> Api:
    browser.login("carla")
    assert browser.post(f"/tables/{game_table.id}/shifts", opening_form(app)).status_code == 302
    return Api(browser)


def _no_game_round(api: Api, table: Any) -> int:
    rid: int = api.post(f"/api/v1/tables/{table.id}/rounds",
                        {"boxes": [{"box": "1", "ante": 100}]}, key="start").get_json()["id"]
    for n, (type, payload) in enumerate((
            ("deal_box", {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}),
            ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}),
            ("bet", {"box": "1"}), ("reveal", {}))):
        resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                        key=f"s{n}")
        assert resp.status_code == 201, resp.get_json()
    return rid


def test_a_take_ante_the_reveal_already_took_is_answered_200_and_stores_nothing(
        api: Api, game_table: Any) -> None:
    rid = _no_game_round(api, game_table)
    before = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()
    assert before["settlement"]["boxes"][0]["wagers"]["ante"]["net"] == 100
    resp = api.post(f"/api/v1/rounds/{rid}/events",
                    {"type": "take_ante", "payload": {"box": "1"}}, key="old-client")
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["events"] == before["events"] and body["settlement"] == before["settlement"]
    again = api.post(f"/api/v1/rounds/{rid}/events",
                     {"type": "take_ante", "payload": {"box": "1"}}, key="old-client-2")
    assert again.status_code == 200
    paid = api.post(f"/api/v1/rounds/{rid}/events", {"type": "paid"}, key="pay")
    assert paid.status_code == 201 and paid.get_json()["status"] == "settled"


def test_a_take_ante_for_a_box_that_folded_is_still_refused(
        api: Api, game_table: Any) -> None:
    rid: int = api.post(f"/api/v1/tables/{game_table.id}/rounds",
                        {"boxes": [{"box": "1", "ante": 100}, {"box": "2", "ante": 100}]},
                        key="start").get_json()["id"]
    for n, (type, payload) in enumerate((
            ("deal_box", {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}),
            ("deal_box", {"box": "2", "cards": ["7s", "8d", "9h", "2h", "3s"]}),
            ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}),
            ("bet", {"box": "1"}), ("fold", {"box": "2"}), ("reveal", {}))):
        assert api.post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                        key=f"s{n}").status_code == 201
    resp = api.post(f"/api/v1/rounds/{rid}/events",
                    {"type": "take_ante", "payload": {"box": "2"}}, key="x")
    assert resp.status_code == 422 and "folded" in resp.get_json()["detail"]
