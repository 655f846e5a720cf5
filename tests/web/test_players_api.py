"""Through the edge: who plays a box at ``place`` (the rounds API and the table screen),
seed 001's rules for a player's boxes refused with their field, player cards, and the ratings API
with its roles. Both databases."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.players import cards
from tests.factories import make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.test_live_api import Api

A = {"seat": "A"}


@pytest.fixture
def api(browser: Browser, app: Flask, croupier: Any, table: Any) -> Api:
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return Api(browser)


def _start(api: Api, table: Any, boxes: list[dict[str, Any]], key: str = "start") -> Any:
    return api.post(f"/api/v1/tables/{table.id}/rounds", {"boxes": boxes}, key=key)


def _boxes(n: int, player: dict[str, str] = A, ante: int = 100) -> list[dict[str, Any]]:
    return [{"box": str(b), "ante": ante, "player": player} for b in range(1, n + 1)]


def _problem(resp: Any, field: str) -> dict[str, Any]:
    body: dict[str, Any] = resp.get_json()
    assert resp.status_code == 422 and body["field"] == field, body
    return body


def test_a_fifth_box_and_unequal_antes_are_refused_at_place_with_their_field(
        api: Api, table: Any) -> None:
    # seed 001: "The maximum number the boxes in the game - 4." "All bets of one player should
    # be equal."
    body = _problem(_start(api, table, _boxes(5), "five"), "boxes[4].player")
    assert "player A may play at most 4 boxes" in body["detail"]
    unequal = [*_boxes(1), {"box": "2", "ante": 200, "player": A}]
    _problem(_start(api, table, unequal, "unequal"), "boxes[1].ante")
    assert api.b.client.get(f"/api/v1/tables/{table.id}/rounds/current").status_code == 404


def test_a_dark_box_sent_before_the_first_course_is_a_422_and_nothing_is_stored(
        api: Api, table: Any) -> None:
    # seed 001: "At first you should make a decision on the first course of boxing
    # distribution, then on the second."
    started = _start(api, table, _boxes(4))
    assert started.status_code == 201
    rid = started.get_json()["id"]
    api.post(f"/api/v1/rounds/{rid}/events", {"type": "deal_dealer", "payload": {"up": []}},
             key="deal")
    refused = api.post(f"/api/v1/rounds/{rid}/events",
                       {"type": "bet", "payload": {"box": "4"}}, key="early")
    body = _problem(refused, "decision")
    assert "box 4 plays in the dark" in body["detail"] and body["value"] == "4"
    state = api.b.client.get(f"/api/v1/rounds/{rid}").get_json()
    assert len(state["events"]) == 2
    offered = {s["box"] for s in state["state"]["next_steps"] if s["type"] == "bet"}
    assert offered == {"1", "2"}
    for n, box in enumerate(("1", "2", "4", "3")):
        resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": "bet", "payload": {"box": box}},
                        key=f"bet{n}")
        assert resp.status_code == 201, resp.get_json()
    place = state["events"][0]["payload"]["boxes"]
    assert [b["player"] for b in place] == [A] * 4


def test_a_player_card_must_be_registered_before_a_box_names_it(
        app: Flask, api: Api, table: Any, croupier: Any) -> None:
    _problem(_start(api, table, _boxes(1, {"card": "777"}), "unknown"), "boxes[0].player.card")
    arrange(app, cards.sit_down, table_id=table.id, card="777", actor_id=croupier.id)
    started = _start(api, table, _boxes(2, {"card": "777"}), "known")
    assert started.status_code == 201
    rid = started.get_json()["id"]
    later = api.post(f"/api/v1/rounds/{rid}/events",
                     {"type": "place", "payload": {"boxes": _boxes(1, {"card": "778"})}},
                     key="later")
    _problem(later, "boxes[0].player.card")


def test_an_old_client_without_player_still_starts_rounds_as_before(
        api: Api, table: Any) -> None:
    resp = _start(api, table, [{"box": "1", "ante": 100}, {"box": "2", "ante": 200}])
    assert resp.status_code == 201
    place = resp.get_json()["events"][0]["payload"]["boxes"]
    assert place == [{"box": "1", "seat": "1", "ante": 100, "bonus": 0},
                     {"box": "2", "seat": "2", "ante": 200, "bonus": 0}]
    assert all("player" not in b for b in resp.get_json()["state"]["boxes"])


# --- the ratings API ----------------------------------------------------------------------------

def test_the_ratings_api_is_for_pit_and_management_and_names_its_errors(
        app: Flask, browser: Browser, other_browser: Browser, croupier: Any, table: Any) -> None:
    pit = arrange(app, make_user, "pavel", "pit_boss")
    arrange(app, make_user, "audrey", "auditor")
    arrange(app, cards.sit_down, table_id=table.id, card="C-1", name="Anna K",
            actor_id=pit.id)
    browser.login("carla")
    assert browser.get("/api/v1/players/C-1/ratings").status_code == 403
    other_browser.login("audrey")
    assert other_browser.get("/api/v1/players/C-1/ratings").status_code == 403
    browser.client.post("/logout", data={"csrf_token": browser.csrf()})
    browser.login("pavel")
    got = browser.get("/api/v1/players/c-1/ratings")
    assert got.status_code == 200
    assert got.get_json() == {"card": "C-1", "name": "Anna K", "day": None, "total": None,
                              "days": []}
    assert browser.get("/api/v1/players/NOPE/ratings").status_code == 404
    bad = browser.get("/api/v1/players/C-1/ratings?day=26.11.2026").get_json()
    assert bad["status"] == 422 and bad["field"] == "day"


# --- the table screen ---------------------------------------------------------------------------

def test_the_bets_form_names_each_boxs_player_and_a_fifth_box_is_shown_beside_its_choice(
        app: Flask, browser: Browser, croupier: Any, table: Any) -> None:
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    page = text(browser.get(f"/tables/{table.id}/live"))
    assert 'name="player_1"' in page and 'data-link-player="2"' in page
    assert 'name="name"' not in page  # the croupier enters no name
    form = {**{f"ante_{n}": "100" for n in range(1, 6)},
            **{f"player_{n}": "seat:A" for n in range(1, 6)}}
    refused = taps.start(browser, table.id, "k1", **form)
    problem = refused.get_json()
    assert refused.status_code == 422 and problem["field"] == "player_5"  # beside its choice
    assert "at most 4 boxes" in problem["detail"]
    form["player_5"] = "seat:B"
    started = taps.start(browser, table.id, "k2", **form)
    assert started.status_code == 201, text(started)
    dark = {b["box"]: b.get("dark") for b in started.get_json()["round"]["boxes"]}
    # player A's second course waits for his first; player B's one box does not
    assert dark == {"1": None, "2": None, "3": "In the dark · decides after boxes 1, 2",
                    "4": "In the dark · decides after boxes 1, 2", "5": None}


def test_a_rated_player_sits_down_in_one_step_and_leaves_with_one_tap(
        app: Flask, browser: Browser, croupier: Any, table: Any) -> None:
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    refused = text(browser.post(f"/tables/{table.id}/live/players",
                                {"card": "555", "name": "Ivan"}, follow_redirects=True))
    assert "Only the pit enters a player&#39;s name." in refused
    page = text(browser.post(f"/tables/{table.id}/live/players", {"card": "555"},
                             follow_redirects=True))
    assert "Card 555 is seated" in page and 'value="card:555"' in page
    page = text(browser.post(f"/tables/{table.id}/live/players/leave", {"card": "555"},
                             follow_redirects=True))
    assert "Card 555 has left the table." in page and 'value="card:555"' not in page
    bad = text(browser.post(f"/tables/{table.id}/live/players", {"card": "5 5"},
                            follow_redirects=True))
    assert 'data-error-for="card"' in bad


def test_the_csv_of_a_days_slips_keeps_formulas_out(app: Flask, browser: Browser) -> None:
    from dealer_assist.web.players import _cell

    assert _cell("=HYPERLINK(1)") == "'=HYPERLINK(1)" and _cell("-200") == "-200"
    assert _cell(None) == "" and _cell("RP 1") == "RP 1"
    arrange(app, make_user, "pavel", "pit_boss")
    browser.login("pavel")
    resp = browser.get("/players/slips.csv?day=2026-01-02")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    assert text(resp).splitlines() == ["card,table,game,start,end,average_bet,wagered,win,"
                                       "theoretical"]
    assert "rating-slips-2026-01-02.csv" in resp.headers["Content-Disposition"]


def test_a_buy_in_recorded_with_his_card_is_in_his_rating_slip_and_total(
        app: Flask, api: Api, croupier: Any, table: Any) -> None:
    """The cash a rated player exchanged at the table, recorded with his card
    (once before the round, once mid-round), is his slip's and his total's ``buy_ins``; a buy-in
    with another card or none is not his."""
    from tests.web.test_live_api import STEPS

    pit = arrange(app, make_user, "pavel", "pit_boss")
    arrange(app, cards.sit_down, table_id=table.id, card="C-7", actor_id=pit.id)
    buy = f"/api/v1/tables/{table.id}/buy-ins"
    assert api.post(buy, {"amount": 5000, "player": "C-7"}, key="b1").status_code == 201
    assert api.post(buy, {"amount": 800, "seat": "3"}, key="b2").status_code == 201
    started = _start(api, table, [{"box": "1", "ante": 100, "player": {"card": "C-7"}}])
    rid = started.get_json()["id"]
    assert api.post(buy, {"amount": 2000, "player": "C-7"}, key="b3").status_code == 201
    for n, step in enumerate(STEPS):
        assert api.post(f"/api/v1/rounds/{rid}/events", step, key=f"s{n}").status_code == 201
    assert api.post(f"/api/v1/rounds/{rid}/events", {"type": "paid"}, key="pay").status_code == 201
    api.b.client.post("/logout", data={"csrf_token": api.b.csrf()})
    api.b.login("pavel")
    got = api.b.get("/api/v1/players/C-7/ratings").get_json()
    (day,) = got["days"]
    (slip,) = day["sessions"]
    assert slip["buy_ins"] == day["buy_ins"] == got["total"]["buy_ins"] == 7000
    assert slip["rounds"] == 1
