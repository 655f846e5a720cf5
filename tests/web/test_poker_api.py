"""The stateful rounds API for poker hands: a table opened and seated, a 4-player limit draw
hand played to the showdown action by action, equal to the calculator fed the same actions."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import Browser, opening_form
from tests.web.test_live_api import Api

#: seat 1 on the button; SB 10 (seat 2), BB 20 (seat 3), OB 40 (seat 4) open round 1
DRAW_HAND: list[dict[str, Any]] = [
    {"type": "call", "seat": "1"}, {"type": "call", "seat": "2"},
    {"type": "call", "seat": "3"}, {"type": "check", "seat": "4"},
    {"type": "draw", "seat": "2", "discard": 1}, {"type": "draw", "seat": "3", "discard": 4},
    {"type": "draw", "seat": "4", "discard": 2}, {"type": "draw", "seat": "1", "discard": 0},
    {"type": "parole", "agreed": False},
    {"type": "bet", "seat": "1", "to": 80}, {"type": "call", "seat": "2"},
    {"type": "fold", "seat": "3"}, {"type": "call", "seat": "4"},
    {"type": "show", "seat": "1", "cards": ["Qs", "Qd", "Qh", "8c", "9c"]},
    {"type": "show", "seat": "2", "cards": ["As", "Ad", "Kc", "Kd", "7h"]},
    {"type": "muck", "seat": "4"},
]


@pytest.fixture
def api(app: Flask, browser: Browser, croupier: Any) -> Api:
    browser.login("carla")
    return Api(browser)


@pytest.fixture
def opening(app: Flask, croupier: Any) -> dict[str, Any]:
    """The opening count and co-signer: a shift opens with its float counted."""
    return opening_form(app)


def open_draw_table(api: Api, opening: dict[str, Any]) -> int:
    made = api.post("/api/v1/poker/tables", {"name": "PK 1", "profile": "draw32-limit",
                                             "stakes": {"small_blind": 10}, "seat_count": 5})
    assert made.status_code == 201, made.get_json()
    tid: int = made.get_json()["id"]
    opened = api.b.post(f"/tables/{tid}/shifts", opening)  # chips are sold from its tray
    assert opened.status_code == 302
    for seat in "1234":
        resp = api.post(f"/api/v1/poker/tables/{tid}/seats",
                        {"seat": seat, "player": f"P{seat}", "buy_in": 1000})
        assert resp.status_code == 201, resp.get_json()
    return tid


def test_a_limit_draw_hand_is_played_through_the_api_as_the_calculator_plays_it(
        api: Api, opening: dict[str, Any]) -> None:
    tid = open_draw_table(api, opening)
    started = api.post(f"/api/v1/poker/tables/{tid}/hands", {}, key="deal-1")
    assert started.status_code == 201, started.get_json()
    again = api.post(f"/api/v1/poker/tables/{tid}/hands", {}, key="deal-1")
    assert again.status_code == 200 and again.get_json()["id"] == started.get_json()["id"]
    hid = started.get_json()["id"]
    for n, action in enumerate(DRAW_HAND):
        resp = api.post(f"/api/v1/poker/hands/{hid}/actions",
                        {"action": action, "expected_seq": n}, key=f"a{n}")
        assert resp.status_code == 201, (n, resp.get_json())
    body = resp.get_json()
    rules = {k: v for k, v in body["rules"].items() if k != "idempotency_key"}
    calc = api.b.client.post("/api/v1/poker/hand", json={**rules, "actions": DRAW_HAND})
    assert body["hand"] == calc.get_json()
    assert body["status"] == "settled"
    assert body["hand"]["pots"][0]["winners"] == ["1"]
    seats = api.b.client.get(f"/api/v1/poker/tables/{tid}").get_json()["seats"]
    assert {s["seat"]: s["stack"] for s in seats} == body["hand"]["stacks"]
    assert body["hand"]["stacks"] == {"1": 1000 - 120 + 400, "2": 880, "3": 960, "4": 880}


def test_a_refused_action_is_a_422_naming_the_action_and_stores_nothing(
        api: Api, opening: dict[str, Any]) -> None:
    tid = open_draw_table(api, opening)
    hid = api.post(f"/api/v1/poker/tables/{tid}/hands", {}, key="d").get_json()["id"]
    resp = api.post(f"/api/v1/poker/hands/{hid}/actions",
                    {"action": {"type": "raise", "seat": "1", "to": 55}}, key="x")
    assert resp.status_code == 422
    assert resp.get_json()["field"] == "actions[0]"
    assert api.b.client.get(f"/api/v1/poker/hands/{hid}").get_json()["last_seq"] == 0
    stale = api.post(f"/api/v1/poker/hands/{hid}/actions",
                     {"action": DRAW_HAND[0], "expected_seq": 3}, key="y")
    assert stale.status_code == 409
    second = api.post(f"/api/v1/poker/tables/{tid}/hands", {}, key="other")
    assert second.status_code == 409


def test_the_house_rounds_api_and_table_screen_refuse_a_poker_table_without_a_server_error(
        api: Api, opening: dict[str, Any]) -> None:
    """A poker hand is a round too: the house games' endpoints answer it with a problem (or
    its data), never a 500; the poker endpoints are the ones that deal it."""
    tid = open_draw_table(api, opening)
    hid = api.post(f"/api/v1/poker/tables/{tid}/hands", {}, key="deal-1").get_json()["id"]
    answers = {
        "get round": api.b.get(f"/api/v1/rounds/{hid}"),
        "current": api.b.get(f"/api/v1/tables/{tid}/rounds/current"),
        "start": api.post(f"/api/v1/tables/{tid}/rounds",
                          {"boxes": [{"box": "1", "ante": 10}]}, key="house-1"),
        "step": api.post(f"/api/v1/rounds/{hid}/events",
                         {"type": "deal_box", "payload": {"box": "1"}}, key="house-2"),
        "screen": api.b.get(f"/tables/{tid}/live"),
    }
    assert {name: r.status_code for name, r in answers.items()} == {
        "get round": 409, "current": 409, "start": 409, "step": 409, "screen": 302}
    assert "poker table" in answers["start"].get_json()["detail"]
    assert answers["screen"].headers["Location"] == f"/poker/{tid}"
    assert api.b.get(f"/api/v1/poker/hands/{hid}").get_json()["last_seq"] == 0
