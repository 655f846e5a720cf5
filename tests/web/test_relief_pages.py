"""Through the pages: a tablet bound to a table, a relief with a name (or a badge) and a
PIN, a mid-round relief with a pit boss's PIN, the PIN throttled, the device fenced in, revoked,
and one's own PIN set with the password. SQLite and PostgreSQL."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from sqlmodel import col, select

from dealer_assist import db
from dealer_assist.edge.device import COOKIE
from dealer_assist.models import ActSignature, DealerStint, LoginThrottle, Round, User
from dealer_assist.services.people import stints
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import shifts
from tests.factories import PIN, make_table, make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, opening_form, text


@pytest.fixture
def floor(app: Flask, table: Any) -> dict[str, Any]:
    """Carla (croupier) opened the table with Olga (pit boss); Dimitri (croupier, badge 4711)
    and Pavel (pit boss) are on the floor."""
    opening = opening_form(app)
    people = arrange(app, lambda s: {
        "carla": opening["croupier_id"], "olga": opening["pit_boss_id"],
        "dimitri": make_user(s, "dimitri", "croupier", badge="4711").id,
        "pavel": make_user(s, "pavel", "pit_boss").id})
    arrange(app, lambda s: _open(s, table.id, people))
    return {**people, "table": table.id}


def _open(session: Any, table_id: int, people: dict[str, int]) -> None:
    shifts.open_shift(session, table_id=table_id, user_id=people["carla"])


def _bind(browser: Browser, table_id: int, who: str = "olga") -> None:
    """A pit boss binds the tablet in front of him: his login on it ends, the cookie stays."""
    assert browser.login(who).status_code == 302
    resp = browser.post(f"/tables/{table_id}/device", {"label": "RP 1 tablet"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/device")
    assert COOKIE in resp.headers.get("Set-Cookie", "")


def _dealer(app: Flask, table_id: int) -> str | None:
    with db.session_scope(app) as dbs:
        shift = shifts.open_shift_of(dbs, table_id)
        assert shift is not None
        now = stints.current(dbs, shift.id)
        return now.dealer if now else None


def _relieve(browser: Browser, table_id: int, who: Any, pin: str = PIN, **extra: Any) -> Any:
    return browser.post(f"/tables/{table_id}/relief", {"dealer": who, "pin": pin, **extra})


def test_a_bound_tablet_shows_the_table_and_a_relief_hands_it_to_the_next_dealer(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    _bind(browser, floor["table"])
    home = browser.get("/device")
    assert home.status_code == 302 and home.headers["Location"].endswith(
        f"/tables/{floor['table']}/live")
    page = text(browser.get(f"/tables/{floor['table']}/live"))
    assert 'data-dealer="Carla"' in page and "Relieve dealer" in page and "Table device" in page
    assert 'href="/reports/' not in page and "Sign out" not in page
    relief = text(browser.get(f"/tables/{floor['table']}/relief"))
    assert 'data-person="Dimitri"' in relief and 'data-person="Carla"' not in relief
    pin_form = text(browser.get(f"/tables/{floor['table']}/relief?who={floor['dimitri']}"))
    assert 'data-who-name>Dimitri<' in pin_form and 'name="pin"' in pin_form
    resp = _relieve(browser, floor["table"], floor["dimitri"])
    assert resp.status_code == 303 and resp.headers["Location"].endswith(
        f"/tables/{floor['table']}/live")
    assert _dealer(app, floor["table"]) == "Dimitri"
    assert 'data-dealer="Dimitri"' in text(browser.get(f"/tables/{floor['table']}/live"))
    with db.session_scope(app) as dbs:
        signed = dbs.exec(select(ActSignature)).all()
        assert [(s.act, s.user_id, s.method) for s in signed] == [
            ("relief", floor["dimitri"], "pin")]
        assert signed[0].device_id is not None


def test_a_badge_number_typed_by_the_reader_finds_the_dealer(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    _bind(browser, floor["table"])
    page = text(browser.get(f"/tables/{floor['table']}/relief?who=4711"))
    assert "data-who-name>Dimitri<" in page
    assert _relieve(browser, floor["table"], "4711").status_code == 303
    assert _dealer(app, floor["table"]) == "Dimitri"


def test_a_wrong_pin_relieves_nobody_and_counts_as_a_failure(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    _bind(browser, floor["table"])
    resp = _relieve(browser, floor["table"], floor["dimitri"], pin="9999")
    assert resp.status_code == 401 and "Wrong PIN for Dimitri" in text(resp)
    assert _dealer(app, floor["table"]) == "Carla"
    with db.session_scope(app) as dbs:
        failures = dbs.exec(select(LoginThrottle)).all()
        assert [(f.username, f.failures) for f in failures] == [(f"pin:{floor['dimitri']}", 1)]
        assert failures[0].ip.startswith("device:")
        assert dbs.exec(select(DealerStint)).all()[-1].dealer_id == floor["carla"]


def test_pins_are_throttled_per_account_on_a_device(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    """Five wrong PINs lock the account on this tablet: the right PIN is then refused too
    (429), without being checked, until the lock runs out."""
    _bind(browser, floor["table"])
    codes = [_relieve(browser, floor["table"], floor["dimitri"], pin=f"{n:04d}").status_code
             for n in range(1, 6)]
    assert codes == [401] * 5
    locked = _relieve(browser, floor["table"], floor["dimitri"])
    assert locked.status_code == 429 and "Too many wrong PINs for Dimitri" in text(locked)
    assert _dealer(app, floor["table"]) == "Carla"


def test_a_relief_during_a_round_needs_a_pit_boss_pin_and_the_round_keeps_its_dealer(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    _bind(browser, floor["table"])
    assert taps.start(browser, floor["table"], "r1", ante_1="100").status_code == 201
    page = text(browser.get(f"/tables/{floor['table']}/relief?who={floor['dimitri']}"))
    assert "Round 1 is in progress" in page and 'name="pit_pin"' in page
    refused = _relieve(browser, floor["table"], floor["dimitri"])
    assert refused.status_code == 422 and "needs a pit boss" in text(refused)
    assert _dealer(app, floor["table"]) == "Carla"
    resp = _relieve(browser, floor["table"], floor["dimitri"], pit_boss=floor["pavel"],
                    pit_pin=PIN)
    assert resp.status_code == 303
    assert _dealer(app, floor["table"]) == "Dimitri"
    with db.session_scope(app) as dbs:
        rnd = dbs.exec(select(Round)).one()
        stint = dbs.exec(select(DealerStint).order_by(col(DealerStint.id).desc())).first()
        assert rnd.dealer_id == floor["carla"] and rnd.status == "open"
        assert stint is not None and (stint.kind, stint.round_id, stint.authorized_by) == (
            "mid_round", rnd.id, floor["pavel"])
    # Dimitri finishes Carla's round on the tablet
    with db.session_scope(app) as dbs:
        rid = live.open_round_id(dbs, floor["table"])
    assert rid is not None
    step = taps.tap(browser, rid, "fold", {"box": "1"}, key="f1")
    assert step.status_code == 201, text(step)
    with db.session_scope(app) as dbs:
        assert {e.actor_id for e in live.load(dbs, rid).events} == {floor["carla"],
                                                                     floor["dimitri"]}


def test_a_table_device_reaches_its_own_table_and_nothing_else(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    other = arrange(app, make_table, name="RP 2")
    _bind(browser, floor["table"])
    assert browser.get(f"/tables/{other.id}/live").status_code == 302
    assert browser.get(f"/tables/{other.id}/relief").status_code == 302
    for url in ("/", "/floor", "/reports/", "/disputes", "/admin/users", "/pin", "/rounds"):
        resp = browser.get(url)
        assert resp.status_code == 302 and resp.headers["Location"].endswith("/device"), url
    assert browser.post(f"/tables/{other.id}/live/rounds", {"key": "x"}).status_code == 403
    assert browser.get("/api/v1/tables/1/rounds/current").status_code == 401


def test_a_revoked_device_is_a_plain_browser_again(
        app: Flask, browser: Browser, other_browser: Browser, floor: dict[str, Any]) -> None:
    _bind(browser, floor["table"])
    assert browser.get(f"/tables/{floor['table']}/live").status_code == 200
    other_browser.login("pavel")
    floor_page = text(other_browser.get("/floor"))
    device_id = re.search(r'data-revoke="(\d+)"', floor_page)
    assert device_id is not None
    assert other_browser.post(f"/devices/{device_id.group(1)}/revoke",
                              {"next": "/floor"}).status_code == 303
    resp = browser.get(f"/tables/{floor['table']}/live")
    assert resp.status_code == 302 and "/login" in resp.headers["Location"]


def test_an_idle_stint_signs_nobody_out_of_the_table(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    """A signed-in session ends after the idle timeout; the table device does not."""
    _bind(browser, floor["table"])
    app.config["IDLE_TIMEOUT_MINUTES"] = 0
    assert browser.get(f"/tables/{floor['table']}/live").status_code == 200
    started = taps.start(browser, floor["table"], "r1", ante_1="100")
    assert started.status_code == 201 and started.get_json()["round"]["number"] == 1


def test_a_person_sets_his_pin_with_his_password(app: Flask, browser: Browser) -> None:
    arrange(app, make_user, "nina", "croupier", pin=None)
    browser.login("nina")
    assert 'href="/pin"' in text(browser.get("/"))
    bad = browser.post("/pin", {"password": "wrong", "pin": "2468", "confirm_pin": "2468"})
    assert bad.status_code == 401
    weak = browser.post("/pin", {"password": "correct horse battery", "pin": "1234",
                                 "confirm_pin": "1234"})
    assert weak.status_code == 422 and "too easy" in text(weak)
    ok = browser.post("/pin", {"password": "correct horse battery", "pin": "2468",
                               "confirm_pin": "2468"})
    assert ok.status_code == 302
    with db.session_scope(app) as dbs:
        nina = dbs.exec(select(User).where(User.username == "nina")).one()
        assert nina.pin_hash and "2468" not in nina.pin_hash


def test_the_parlour_page_hands_the_game_to_the_next_host_with_his_pin(
        app: Flask, browser: Browser) -> None:
    """"The same for poker tables and the parlour page": the host of the evening's board
    game is relieved with a name and a PIN; the page names who hosts, and each hand its host."""
    from dealer_assist.services.rounds import parlour

    ids = arrange(app, lambda s: {"carla": make_user(s, "carla", "croupier").id,
                                  "dimitri": make_user(s, "dimitri", "croupier").id})
    game = arrange(app, lambda s: parlour.create_game(s, name="Friday", players=["Ann", "Bob"],
                                                      actor_id=ids["carla"]))
    browser.login("carla")
    page = text(browser.get(f"/parlour/{game}"))
    assert 'data-dealer="Carla"' in page and "Relieve host" in page
    names = text(browser.get(f"/parlour/{game}/relief"))
    assert 'data-person="Dimitri"' in names and 'data-person="Carla"' not in names
    wrong = browser.post(f"/parlour/{game}/relief", {"dealer": ids["dimitri"], "pin": "9753"})
    assert wrong.status_code == 401
    resp = browser.post(f"/parlour/{game}/relief", {"dealer": ids["dimitri"], "pin": PIN})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/parlour/{game}")
    assert 'data-dealer="Dimitri"' in text(browser.get(f"/parlour/{game}"))
    with db.session_scope(app) as dbs:
        kinds = [(s.dealer_id, s.kind) for s in dbs.exec(
            select(DealerStint).where(DealerStint.parlour_game_id == game)
            .order_by(col(DealerStint.id))).all()]
    assert kinds == [(ids["carla"], "opening"), (ids["dimitri"], "relief")]
