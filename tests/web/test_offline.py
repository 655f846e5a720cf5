"""The server side: steps recorded on the tablet while the network was down.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its stored
events are the record. Anything a second person signs waits for the server."
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import OfflineRefusal, TableDevice, utcnow
from dealer_assist.services.rounds import store, voids
from tests.factories import make_user
from tests.web.conftest import Browser, arrange, text
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)

TAPPED = "2026-11-29T07:01:02.345Z"


def start(browser: Browser, table_id: int, **extra: Any) -> Any:
    return browser.post(f"/tables/{table_id}/live/rounds",
                        {"key": "start-1", "ante_1": "100", **extra})


def step(browser: Browser, round_id: int, type: str, payload: dict[str, Any], key: str,
          **extra: Any) -> Any:
    return browser.client.post(f"/live/rounds/{round_id}/steps",
                               headers={"X-CSRF-Token": browser.csrf()},
                               json={"type": type, "payload": payload,
                                     "idempotency_key": key, **extra})


def _events(app: Flask, round_id: int) -> list[store.EventView]:
    with db.session_scope(app) as dbs:
        return store.events(dbs, round_id)


def tapped_ago() -> str:
    """A tap a minute ago, by the tablet's clock (the tests run at any date)."""
    return (utcnow() - timedelta(minutes=1)).isoformat().replace("+00:00", "Z")


def test_a_queued_step_stores_the_tapped_time_beside_the_received_time(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    """The tapped time is stored beside the received time (RULES.md: "the server re-checks
    every queued step on reconnect and its stored events are the record")."""
    assert browser.login("carla").status_code == 302
    tapped = tapped_ago()
    started = start(browser, floor["table"], tapped_at=tapped, offline="true")
    assert started.status_code == 201, text(started)
    rid = int(started.get_json()["round"]["id"])
    later = (utcnow() - timedelta(seconds=30)).isoformat()
    dealt = step(browser, rid, "bet", {"box": "1"}, "q2",
                  tapped_at=later, offline=True, label="Deal")
    assert dealt.status_code == 201, text(dealt)
    online = step(browser, rid, "reveal", {"cards": "kh qh 4s 5c 6d"}, "q3")
    assert online.status_code == 201, text(online)
    events = _events(app, rid)
    # the dealer's cards dealt face down follow the start in the same write: the same tap
    assert [(e.type, e.offline) for e in events] == [
        ("place", True), ("deal_dealer", True), ("bet", True), ("reveal", False)]
    assert events[0].tapped_at is not None and events[0].tapped_at.isoformat().startswith(
        tapped[:19])
    assert events[1].tapped_at == events[0].tapped_at
    assert events[0].tapped_at < events[0].created_at  # tapped a minute before it arrived
    assert events[2].tapped_at is not None and events[2].tapped_at.isoformat() == later
    assert events[3].tapped_at is None
    api = browser.client.get(f"/api/v1/rounds/{rid}").get_json()
    first = events[0].tapped_at.isoformat()
    assert [(e["tapped_at"], e["offline"]) for e in api["events"]] == [
        (first, True), (first, True), (later, True), (None, False)]


def test_the_api_takes_the_tapped_time_of_a_round_and_of_an_event(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    assert browser.login("carla").status_code == 302
    headers = {"X-CSRF-Token": browser.csrf()}
    tapped = tapped_ago()
    made = browser.client.post(f"/api/v1/tables/{floor['table']}/rounds", headers=headers,
                               json={"boxes": [{"box": "1", "ante": 100}], "tapped_at": tapped,
                                     "offline": True, "idempotency_key": "a1"})
    assert made.status_code == 201, made.get_json()
    rid = made.get_json()["id"]
    step = browser.client.post(f"/api/v1/rounds/{rid}/events", headers=headers,
                               json={"type": "deal_box", "idempotency_key": "a2",
                                     "payload": {"box": "1", "cards": "as ad ah 2c 3d"},
                                     "tapped_at": tapped, "offline": True})
    assert step.status_code == 201, step.get_json()
    events = step.get_json()["events"]
    assert all(e["offline"] and e["tapped_at"] is not None for e in events)
    assert events[0]["tapped_at"] == events[1]["tapped_at"]


def test_a_malformed_tapped_time_is_400_and_one_in_the_future_is_422_naming_the_field(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    assert browser.login("carla").status_code == 302
    rid = int(start(browser, floor["table"]).get_json()["round"]["id"])
    ahead = (utcnow() + timedelta(minutes=6)).isoformat()
    for tapped, status in (("yesterday", 400), ("2026-11-29T07:01:02", 400), (12, 400),
                           (ahead, 422)):
        resp = step(browser, rid, "bet", {"box": "1"}, "x",
                     tapped_at=tapped)
        assert resp.status_code == status, (tapped, text(resp))
        assert resp.get_json()["field"] == "tapped_at"
        api = browser.client.post(f"/api/v1/rounds/{rid}/events",
                                  headers={"X-CSRF-Token": browser.csrf()},
                                  json={"type": "deal_box", "idempotency_key": "y",
                                        "payload": {"box": "1", "cards": "as ad ah 2c 3d"},
                                        "tapped_at": tapped})
        assert api.status_code == status, (tapped, api.get_json())
    assert step(browser, rid, "bet", {"box": "1"}, "x",
                 offline="maybe").status_code == 400
    assert len(_events(app, rid)) == 2  # nothing stored (the start and its dealer's deal)
    # five minutes ahead is a tablet clock a little fast: taken
    soon = (utcnow() + timedelta(minutes=4)).isoformat()
    assert step(browser, rid, "bet", {"box": "1"}, "x",
                 tapped_at=soon).status_code == 201


def void(app: Flask, people: dict[str, Any], rid: int) -> None:
    """Olga asks for the void and Pavel (pit boss) approves it while the tablet is offline."""
    def run(s: Any) -> None:
        asked = voids.request_change(s, round_id=rid, kind="void", reason="misdeal",
                                     actor_id=people["olga"])
        voids.decide_change(s, request_id=asked.id, approve=True, note="",
                            actor_id=people["pavel"])
    arrange(app, run)


def _refusals(app: Flask) -> list[OfflineRefusal]:
    with db.session_scope(app) as dbs:
        return list(dbs.exec(select(OfflineRefusal)).all())


def test_a_queued_step_of_a_round_voided_meanwhile_is_refused_kept_once_and_stores_nothing(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    """RULES.md: "the server re-checks every queued step on reconnect": a step of a round a pit
    boss voided while the tablet was offline is refused, the round is left as it was, and
    the refusal is kept (nothing dropped silently)."""
    _bind(browser, floor["table"])
    rid = int(start(browser, floor["table"]).get_json()["round"]["id"])
    void(app, floor, rid)
    tapped = tapped_ago()
    refused = step(browser, rid, "bet", {"box": "1"}, "q1",
                    tapped_at=tapped, offline=True, label="Deal")
    assert refused.status_code == 409, text(refused)
    body = refused.get_json()
    assert body["status"] == 409 and "voided" in body["detail"]
    rows = _refusals(app)
    assert [r.id for r in rows] == [body["offline_refusal"]]
    row = rows[0]
    assert (row.table_id, row.round_id, row.type, row.status, row.idempotency_key) == (
        floor["table"], rid, "bet", 409, "q1")
    assert row.actor_id == floor["carla"] and row.device_id is not None
    assert row.tapped_at is not None and row.detail == body["detail"]
    assert [e.type for e in _events(app, rid)] == ["place", "deal_dealer"]  # as it was
    again = step(browser, rid, "bet", {"box": "1"}, "q1",
                  tapped_at=tapped, offline=True)
    assert again.status_code == 409 and again.get_json()["offline_refusal"] == row.id
    assert len(_refusals(app)) == 1  # a resend adds no second row
    online = step(browser, rid, "bet", {"box": "1"}, "q9")
    assert online.status_code == 409 and "offline_refusal" not in online.get_json()
    assert len(_refusals(app)) == 1  # a step tapped online is refused on the screen, as ever


def test_a_queued_start_refused_after_the_shift_closed_is_kept_with_the_table(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    assert browser.login("carla").status_code == 302
    from dealer_assist.models import Shift, ShiftStatus

    def close(s: Any) -> None:
        shift = s.exec(select(Shift).where(Shift.table_id == floor["table"])).one()
        shift.status = ShiftStatus.CLOSED.value
        s.add(shift)
    arrange(app, close)
    resp = browser.client.post(f"/tables/{floor['table']}/live/rounds",
                               headers={"X-CSRF-Token": browser.csrf()},
                               json={"key": "start-9", "ante_1": 100, "tapped_at": tapped_ago(),
                                     "offline": True})
    assert resp.status_code == 409, text(resp)
    rows = _refusals(app)
    assert [r.id for r in rows] == [resp.get_json()["offline_refusal"]]
    assert (rows[0].table_id, rows[0].round_id, rows[0].type) == (floor["table"], None, "place")
    assert rows[0].shift_id is not None


def test_the_tablets_ping_answers_now_and_stores_its_queue_figures(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    since = tapped_ago()
    resp = browser.client.post(f"/tables/{floor['table']}/live/ping",
                               headers={"X-CSRF-Token": browser.csrf()},
                               json={"queued_steps": 7, "queued_rounds": 2,
                                     "offline_since": since})
    assert resp.status_code == 200, text(resp)
    assert resp.get_json()["ok"] is True and resp.get_json()["now"]
    with db.session_scope(app) as dbs:
        device = dbs.exec(select(TableDevice)).one()
    assert (device.queued_steps, device.queued_rounds) == (7, 2)
    assert device.heard_at is not None and utcnow() - device.heard_at < timedelta(seconds=5)
    assert device.offline_since is not None
    bad = browser.client.post(f"/tables/{floor['table']}/live/ping",
                              headers={"X-CSRF-Token": browser.csrf()},
                              json={"queued_steps": "many", "queued_rounds": 0,
                                    "offline_since": None})
    assert bad.status_code == 400


def test_an_auditor_may_not_ping_a_tables_screen_but_its_croupier_may(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    """The ping is the table screen's, with the live page's roles (who records rounds)."""
    assert browser.login("carla").status_code == 302
    ok = browser.client.post(f"/tables/{floor['table']}/live/ping",
                             headers={"X-CSRF-Token": browser.csrf()}, json={})
    assert ok.status_code == 200
    arrange(app, make_user, "audrey", "auditor")
    assert other_browser.login("audrey").status_code == 302
    refused = other_browser.client.post(f"/tables/{floor['table']}/live/ping",
                                        headers={"X-CSRF-Token": other_browser.csrf()},
                                        json={})
    assert refused.status_code in (302, 403)
