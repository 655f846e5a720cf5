"""The stateful rounds API: session cookie + X-CSRF-Token, idempotency keys, problem bodies."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import Browser, opening_form

STEPS: list[dict[str, Any]] = [
    {"type": "deal_box", "payload": {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}},
    {"type": "deal_dealer", "payload": {"cards": "kh qh 4s 5c 6d"}},
    {"type": "bet", "payload": {"box": "1"}},
    {"type": "reveal", "payload": {}},
    {"type": "take_ante", "payload": {"box": "1"}},
]


class Api:
    def __init__(self, browser: Browser) -> None:
        self.b = browser

    def headers(self, key: str | None = None, csrf: bool = True) -> dict[str, str]:
        out = {"X-CSRF-Token": self.b.csrf()} if csrf else {}
        if key:
            out["Idempotency-Key"] = key
        return out

    def post(self, url: str, body: Any, key: str | None = "k", csrf: bool = True) -> Any:
        return self.b.client.post(url, json=body, headers=self.headers(key, csrf))


@pytest.fixture
def api(browser: Browser, app: Flask, croupier: Any, table: Any) -> Api:
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return Api(browser)


def create(api: Api, table: Any, key: str = "start") -> Any:
    return api.post(f"/api/v1/tables/{table.id}/rounds",
                    {"boxes": [{"box": "1", "ante": 100}]}, key=key)


def test_a_round_is_created_played_and_paid_through_the_api(api: Api, table: Any) -> None:
    resp = create(api, table)
    assert resp.status_code == 201
    rid = resp.get_json()["id"]
    for n, step in enumerate(STEPS):
        resp = api.post(f"/api/v1/rounds/{rid}/events", step, key=f"s{n}")
        assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert body["settlement"]["boxes"][0]["wagers"]["ante"]["net"] == 100
    assert body["state"]["phase"] == "Pay out"
    resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": "paid"}, key="pay")
    body = resp.get_json()
    assert resp.status_code == 201 and body["status"] == "settled"
    assert body["stored_settlement"] == body["settlement"]
    got = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()
    assert [e["type"] for e in got["events"]] == ["place"] + [s["type"] for s in STEPS] + ["paid"]


def test_a_resent_event_is_recorded_once_and_answered_200(api: Api, table: Any) -> None:
    rid = create(api, table).get_json()["id"]
    first = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="same")
    again = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="same")
    assert (first.status_code, again.status_code) == (201, 200)
    assert len(again.get_json()["events"]) == 2
    assert create(api, table).status_code == 200  # a resent create, too


def test_a_rule_break_is_a_422_problem_naming_the_field(api: Api, table: Any) -> None:
    rid = create(api, table).get_json()["id"]
    resp = api.post(f"/api/v1/rounds/{rid}/events",
                    {"type": "deal_box", "payload": {"box": "1", "cards": "as kd zz 2c 3d"}})
    problem = resp.get_json()
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    assert problem["code"] == "card_parse_error" and problem["field"] == "cards"
    assert len(api.b.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]) == 1


@pytest.mark.parametrize(("body", "status", "title"), [
    ("{not json", 400, "Malformed JSON"),
    ('{"type": "bet", "payload": []}', 422, "The request breaks a rule"),
    ('{"type": "shuffle"}', 422, "The request breaks a rule"),
])
def test_malformed_requests_get_problem_bodies(api: Api, table: Any, body: str, status: int,
                                              title: str) -> None:
    rid = create(api, table).get_json()["id"]
    resp = api.b.client.post(f"/api/v1/rounds/{rid}/events", data=body,
                             content_type="application/json", headers=api.headers("x"))
    assert resp.status_code == status and resp.get_json()["title"] == title


def test_unknown_rounds_and_conflicts_have_their_statuses(api: Api, table: Any) -> None:
    assert api.b.client.get("/api/v1/rounds/999").status_code == 404
    assert api.post("/api/v1/rounds/999/events", STEPS[0]).status_code == 404
    rid = create(api, table).get_json()["id"]
    api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key="a")
    reused = api.post(f"/api/v1/rounds/{rid}/events", STEPS[1], key="a")
    stale = api.post(f"/api/v1/rounds/{rid}/events", {**STEPS[1], "expected_seq": 1}, key="b")
    assert (reused.status_code, stale.status_code) == (409, 409)
    assert "changed on another device" in stale.get_json()["detail"]


def test_writes_need_the_csrf_header_and_a_key(api: Api, table: Any) -> None:
    assert create(api, table).status_code == 201
    rid = api.b.client.get(f"/api/v1/tables/{table.id}/rounds/current").get_json()["id"]
    no_csrf = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], csrf=False)
    no_key = api.post(f"/api/v1/rounds/{rid}/events", STEPS[0], key=None)
    assert no_csrf.status_code == 403 and no_key.status_code == 422


def test_the_api_needs_a_signed_in_table_staff_member(browser: Browser, admin: Any,
                                                      table: Any) -> None:
    assert browser.client.get("/api/v1/rounds/1").status_code == 401
    browser.login("root")
    resp = browser.client.get(f"/api/v1/tables/{table.id}/rounds/current")
    assert resp.status_code == 403


def test_a_redeal_through_the_api_asks_for_a_void_and_freezes_the_round(api: Api,
                                                                       table: Any) -> None:
    rid = create(api, table).get_json()["id"]
    for n, step in enumerate(STEPS[:2]):
        assert api.post(f"/api/v1/rounds/{rid}/events", step, key=f"d{n}").status_code == 201
    redeal = {"type": "redeal", "payload": {"box": "1", "cards_received": 6}}
    resp = api.post(f"/api/v1/rounds/{rid}/events", redeal, key="r")
    body = resp.get_json()
    assert resp.status_code == 202 and body["status"] == "open"
    assert body["void_request"]["status"] == "pending"
    assert body["void_request"]["reason"] == "redeal: box 1 received 6 cards"
    assert body["state"]["next_steps"] == [] and body["state"]["undoable"] is None
    assert [e["type"] for e in body["events"]] == ["place", "deal_box", "deal_dealer"]
    assert api.post(f"/api/v1/rounds/{rid}/events", redeal, key="r2").status_code == 200
    refused = api.post(f"/api/v1/rounds/{rid}/events", STEPS[2], key="b")
    assert refused.status_code == 409 and "waits for a pit boss" in refused.get_json()["detail"]
    assert create(api, table, key="next").status_code == 409


EVENT_TYPES = ["deal_box", "deal_dealer", "bet", "fold", "exchange", "sixth_card", "insure",
               "reveal", "take_ante", "buy_game", "dealer_draw", "redeal", "undo", "paid",
               "place", "void", "nonsense"]
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**9) | st.floats(allow_nan=False)
    | st.text(max_size=10) | st.sampled_from(["1", "2", "As", "as kd", "Kh Qh 4s 5c 6d"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["box", "cards", "discard", "draw", "card", "amount", "cancels",
                         "boxes", "ante", "x"]), inner, max_size=4),
    max_leaves=10)


def test_arbitrary_events_never_get_a_500_and_a_refused_one_changes_nothing(
        api: Api, table: Any) -> None:
    """Hypothesis sends random event bodies into one live round (SQLite and PostgreSQL): each
    answer is 200/201 or a 4xx problem body, and a refused event leaves the events as they were."""
    rid = create(api, table).get_json()["id"]
    url = f"/api/v1/rounds/{rid}/events"
    counter = iter(range(10**6))

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(kind=st.sampled_from(EVENT_TYPES), payload=ANY_JSON, whole=st.booleans())
    def send(kind: str, payload: Any, whole: bool) -> None:
        before = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]
        body = payload if whole else {"type": kind, "payload": payload}
        resp = api.post(url, body, key=f"fuzz-{next(counter)}")
        assert resp.status_code in (200, 201, 400, 404, 409, 422), resp.get_data()[:300]
        if resp.status_code >= 400:
            assert resp.mimetype == "application/problem+json" and resp.get_json()["detail"]
            after = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()["events"]
            assert after == before

    send()
