"""The security probe: a croupier's acts belong to the table he deals, sent as a
croupier of another table would send them (pages and API), and the table's own device seats and
unseats a rated player like any other step. SQLite and PostgreSQL.

RULES.md, "People at the table": "a croupier acts only at the table he is dealing (its device
or his own stint there)". docs/operations.md, "A relief": "on the table's tablet: Relieve dealer
-> tap your name (or scan your badge) -> type your PIN"."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlmodel import func, select

from dealer_assist import db
from dealer_assist.edge.device import COOKIE
from dealer_assist.models import DealerStint, Dispute, PlayerVisit, RoundChangeRequest
from dealer_assist.models.cage import BuyIn
from dealer_assist.services.people import stints
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import PIN, SIGNED, make_table, make_user
from tests.services.test_disputes import Floor, play
from tests.web.conftest import Browser, arrange, text
from tests.web.test_live_api import Api


@pytest.fixture
def tables(app: Flask) -> dict[str, int]:
    """Carla deals RP 1 and Dimitri RP 2 (each counted his table's float with Olga); Pavel is
    a pit boss."""
    def floor(s: Any) -> dict[str, int]:
        ids = {name: make_user(s, name, role).id for name, role in (
            ("carla", "croupier"), ("dimitri", "croupier"), ("olga", "pit_boss"),
            ("pavel", "pit_boss"))}
        for name, croupier in (("RP 1", "carla"), ("RP 2", "dimitri")):
            table = make_table(s, name=name)
            shift, _ = inventory.open_shift_with_count(
                s, table_id=table.id, actor_id=ids[croupier], croupier_id=ids[croupier],
                pit_boss_id=ids["olga"], chips={"100": 1000}, credential=SIGNED)
            ids[name] = table.id
            ids[f"{name} shift"] = shift.id
        return ids

    return dict(arrange(app, floor))


def _count(app: Flask, model: Any) -> int:
    with db.session_scope(app) as dbs:
        return int(dbs.exec(select(func.count()).select_from(model)).one())


def _dealer(app: Flask, table_id: int) -> str | None:
    with db.session_scope(app) as dbs:
        shift = shifts.open_shift_of(dbs, table_id)
        now = stints.current(dbs, shift.id) if shift else None
        return now.dealer if now else None


def _played(app: Flask, t: dict[str, int]) -> int:
    """A settled round at RP 1, dealt by Carla."""
    return int(arrange(app, play, Floor(t["carla"], t["dimitri"], t["olga"], t["pavel"],
                                        t["olga"], t["RP 1"], t["RP 1 shift"])))


# --- item 1: the table's device seats a rated player ------------------------------------------

def test_the_tables_device_seats_a_rated_player_and_taps_his_leave(
        app: Flask, browser: Browser, tables: dict[str, int]) -> None:
    """"Seating a rated player is a table-device act like any other step": the tablet bound to
    RP 1, where Carla deals, seats card 555 and records his leave (before: a 403)."""
    table = tables["RP 1"]
    browser.login("olga")
    bound = browser.post(f"/tables/{table}/device", {"label": "RP 1 tablet"})
    assert bound.status_code == 303 and COOKIE in bound.headers.get("Set-Cookie", "")
    seated = browser.post(f"/tables/{table}/live/players", {"card": "555"})
    assert seated.status_code == 303 and seated.headers["Location"].endswith(
        f"/tables/{table}/live")
    page = text(browser.get(f"/tables/{table}/live"))
    assert "Card 555 is seated" in page and 'value="card:555"' in page
    left = browser.post(f"/tables/{table}/live/players/leave", {"card": "555"})
    assert left.status_code == 303
    assert "Card 555 has left the table." in text(browser.get(f"/tables/{table}/live"))
    with db.session_scope(app) as dbs:
        visit = dbs.exec(select(PlayerVisit)).one()
        assert (visit.sat_by, visit.left_by) == (tables["carla"], tables["carla"])


def test_the_tables_device_says_in_the_readers_language_what_it_may_not_do(
        app: Flask, browser: Browser, tables: dict[str, int]) -> None:
    """Before: a generic English 403 ("You don't have the permission...")."""
    browser.login("olga")
    assert browser.post(f"/tables/{tables['RP 1']}/device", {}).status_code == 303
    refused = browser.post(f"/tables/{tables['RP 2']}/live/players", {"card": "555"})
    assert refused.status_code == 403
    assert "records its own table's steps and the relief" in text(refused).replace("&#39;", "'")
    browser.post("/language", {"language": "ru"})
    refused = browser.post(f"/tables/{tables['RP 2']}/live/players", {"card": "555"})
    assert refused.status_code == 403 and "Планшет стола" in text(refused)


# --- item 6: a croupier acts only at the table he deals ---------------------------------------

def test_a_croupier_in_his_own_browser_takes_no_other_table_with_or_without_a_pin(
        app: Flask, browser: Browser, other_browser: Browser, tables: dict[str, int]) -> None:
    """Dimitri, signed in on his own browser, posts a relief of Carla's table naming himself:
    with an empty PIN (before: a relief signed by his session) and with his PIN. Both are 403;
    Carla still deals and records her round."""
    table = tables["RP 1"]
    browser.login("dimitri")
    stints_before = _count(app, DealerStint)
    for pin in ("", PIN):
        resp = browser.post(f"/tables/{table}/relief", {"dealer": tables["dimitri"], "pin": pin})
        assert resp.status_code == 403, pin
        assert "takes a table on its tablet" in text(resp)
    assert _dealer(app, table) == "Carla" and _count(app, DealerStint) == stints_before
    other_browser.login("carla")
    started = other_browser.post(f"/tables/{table}/live/rounds", {"key": "r1", "ante_1": "100"})
    assert started.status_code == 201  # the table screen's answer: the round as it draws it


def test_the_dealer_in_his_own_browser_still_hands_his_table_over_with_the_next_pin(
        app: Flask, browser: Browser, tables: dict[str, int]) -> None:
    """The dealer of record may hand his table over from his signed-in browser: the incoming
    dealer (Pavel, a pit boss) signs with his PIN."""
    browser.login("carla")
    resp = browser.post(f"/tables/{tables['RP 1']}/relief", {"dealer": "pavel", "pin": PIN})
    assert resp.status_code == 303 and _dealer(app, tables["RP 1"]) == "Pavel"


def test_a_croupier_records_no_buy_in_at_another_table_by_page_or_api(
        app: Flask, browser: Browser, tables: dict[str, int]) -> None:
    table = tables["RP 1"]
    browser.login("dimitri")
    page = browser.post(f"/cage/tables/{table}/buy-ins", {"buy_in": "500", "key": "b1"},
                        follow_redirects=True)
    assert "Carla deals at this table now" in text(page)
    api = Api(browser)
    refused = api.post(f"/api/v1/tables/{table}/buy-ins", {"amount": 500}, key="b2")
    assert refused.status_code == 403, refused.get_json()
    assert _count(app, BuyIn) == 0
    own = api.post(f"/api/v1/tables/{tables['RP 2']}/buy-ins", {"amount": 500}, key="b3")
    assert own.status_code == 201 and _count(app, BuyIn) == 1


def test_a_croupier_freezes_no_other_tables_round_with_a_void_request(
        app: Flask, browser: Browser, other_browser: Browser, tables: dict[str, int]) -> None:
    table = tables["RP 1"]
    other_browser.login("carla")
    assert other_browser.post(f"/tables/{table}/live/rounds",
                              {"key": "r1", "ante_1": "100"}).status_code == 201
    with db.session_scope(app) as dbs:
        round_id = live.open_round_id(dbs, table)
    browser.login("dimitri")
    resp = browser.post(f"/rounds/{round_id}/changes", {"kind": "void", "reason": "misdeal"})
    assert resp.status_code == 403 and "Carla deals at this table now" in text(resp)
    assert _count(app, RoundChangeRequest) == 0
    step = other_browser.client.post(
        f"/live/rounds/{round_id}/steps", headers={"X-CSRF-Token": other_browser.csrf()},
        json={"type": "fold", "payload": {"box": "1"}, "idempotency_key": "f1"})
    assert step.status_code == 201, step.get_json()  # not frozen


def test_a_croupier_files_no_dispute_on_another_tables_round(
        app: Flask, browser: Browser, other_browser: Browser, tables: dict[str, int]) -> None:
    round_id = _played(app, tables)
    form = {"box": "1", "claim": "paid short", "claimed_amount": "100"}
    browser.login("dimitri")
    resp = browser.post(f"/rounds/{round_id}/disputes", form)
    assert resp.status_code == 403 and "Carla deals at this table now" in text(resp)
    assert _count(app, Dispute) == 0
    other_browser.login("carla")
    assert other_browser.post(f"/rounds/{round_id}/disputes", form).status_code == 303


def test_a_croupier_seats_and_unseats_no_player_at_another_table(
        app: Flask, browser: Browser, other_browser: Browser, tables: dict[str, int]) -> None:
    table = tables["RP 1"]
    other_browser.login("carla")
    assert other_browser.post(f"/tables/{table}/live/players", {"card": "555"}).status_code \
        == 303
    browser.login("dimitri")
    for url in (f"/tables/{table}/live/players", f"/tables/{table}/live/players/leave"):
        page = text(browser.post(url, {"card": "555"}, follow_redirects=True))
        assert "Carla deals at this table now" in page, url
    with db.session_scope(app) as dbs:
        visits = dbs.exec(select(PlayerVisit)).all()
        assert [(v.table_id, v.left_at) for v in visits] == [(table, None)]
        assert visits[0].sat_by == tables["carla"]


def test_a_croupier_sells_no_chips_to_a_seat_of_another_poker_table(
        app: Flask, browser: Browser, other_browser: Browser, tables: dict[str, int]) -> None:
    """A poker seat's buy-in, rebuy and cash-out are buy-ins too: PK 1's float was counted by
    Carla; Dimitri (dealing at RP 2) is refused by page and API, Carla is not."""
    from dealer_assist.models.poker import PokerSeat
    from dealer_assist.services.tables import poker as poker_tables

    def poker(s: Any) -> int:
        table = poker_tables.open_table(s, name="PK 1", profile="draw32-limit",
                                        stakes={"small_blind": 10}, seat_count=4)
        inventory.open_shift_with_count(
            s, table_id=table.id, actor_id=tables["olga"], croupier_id=tables["carla"],
            pit_boss_id=tables["olga"], chips={"100": 100}, credential=SIGNED)
        return int(table.id)

    table = arrange(app, poker)
    browser.login("dimitri")
    seat = {"seat": "1", "player": "Ann", "buy_in": "1000", "change": "seat"}
    assert browser.post(f"/poker/{table}/seats", seat).status_code == 403
    api = Api(browser)
    body = {"seat": "1", "player": "Ann", "buy_in": 1000}
    refused = api.post(f"/api/v1/poker/tables/{table}/seats", body, key="s1")
    assert refused.status_code == 403, refused.get_json()
    assert _count(app, PokerSeat) == 0
    other_browser.login("carla")
    assert Api(other_browser).post(f"/api/v1/poker/tables/{table}/seats", body,
                                   key="s2").status_code == 201
    for change in ({"change": "rebuy", "amount": 500}, {"change": "left"}):
        resp = api.post(f"/api/v1/poker/tables/{table}/seats/1", change, key="s3")
        assert resp.status_code == 403, change
    with db.session_scope(app) as dbs:
        row = dbs.exec(select(PokerSeat)).one()
        assert (row.bought_in, row.status) == (1000, "playing")
