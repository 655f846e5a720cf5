"""``/floor`` through the pages: a pit's tables as cards in both languages, the live
fragment answered 304 while nothing changed and 200 after a step, the pit's rotation interval,
a dealer's page, and who may read it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import tables
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, text


@pytest.fixture
def pit(app: Flask) -> dict[str, Any]:
    def build(session: Any) -> dict[str, Any]:
        carla = make_user(session, "carla", "croupier").id
        make_user(session, "pavel", "pit_boss")
        ids = {}
        for name, pit_name in (("RP 1", "A"), ("RP 2", "A"), ("CS 1", "B")):
            t = make_table(session, name=name)
            tables.update_table(session, t.id, tables.TableSpec(
                name, "russian", t.profile, 10, 500, 50_000, 6, pit=pit_name))
            ids[name] = t.id
        shifts.open_shift(session, table_id=ids["RP 1"], user_id=carla)
        return {"carla": carla, **ids}

    return dict(arrange(app, build))


def test_the_floor_shows_a_pits_tables_with_their_dealer(app: Flask, browser: Browser,
                                                         pit: dict[str, Any]) -> None:
    browser.login("pavel")
    page = text(browser.get("/floor?pit=A"))
    assert 'data-table="RP 1"' in page and 'data-table="RP 2"' in page
    assert 'data-table="CS 1"' not in page
    assert 'data-dealer="Carla"' in page and "Waiting for the first round" in page
    assert "No open shift" in page and 'data-pit="B"' in page
    assert 'data-poll="2' in page and "floor.js" in page
    # the pit is remembered: the fragment shows the same tables
    cards = text(browser.get("/floor/cards"))
    assert 'data-table="RP 2"' in cards and 'data-table="CS 1"' not in cards
    ru = browser.post("/language", {"language": "ru", "next": "/floor"})
    assert ru.status_code == 302
    page_ru = text(browser.get("/floor"))
    assert "Ожидание первого раунда" in page_ru and "На перерыве" in page_ru


def test_the_live_fragment_is_304_until_something_happens(app: Flask, browser: Browser,
                                                          pit: dict[str, Any]) -> None:
    browser.login("pavel")
    first = browser.get("/floor/cards?pit=A")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag
    again = browser.get("/floor/cards", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.get_data() == b""
    browser.post(f"/floor/tables/{pit['RP 2']}/rotation", {"rotation_minutes": "30"})
    changed = browser.get("/floor/cards", headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_the_pit_sets_a_tables_rotation_interval(app: Flask, browser: Browser,
                                                 pit: dict[str, Any]) -> None:
    browser.login("pavel")
    assert 'data-rotation="RP 1"' in text(browser.get("/floor?pit=A"))
    resp = browser.post(f"/floor/tables/{pit['RP 1']}/rotation", {"rotation_minutes": "25"})
    assert resp.status_code == 303
    bad = browser.post(f"/floor/tables/{pit['RP 1']}/rotation", {"rotation_minutes": "2"})
    assert bad.status_code == 303
    assert "5 to 240 minutes" in text(browser.get("/floor"))
    data = browser.get("/floor/data?pit=A").get_json()
    assert [t["rotation_minutes"] for t in data["tables"]] == [25, 40]


def test_a_dealers_page_lists_his_shifts(app: Flask, browser: Browser,
                                         pit: dict[str, Any]) -> None:
    browser.login("pavel")
    page = text(browser.get(f"/dealers/{pit['carla']}"))
    assert "Carla" in page and 'data-shift="1"' in page and 'data-total="stints">1<' in page


def test_a_croupier_reads_neither_the_floor_nor_a_dealers_page(
        app: Flask, browser: Browser, pit: dict[str, Any]) -> None:
    browser.login("carla")
    for url in ("/floor", "/floor/cards", "/floor/data", f"/dealers/{pit['carla']}"):
        assert browser.get(url).status_code == 403, url
    assert browser.post(f"/floor/tables/{pit['RP 1']}/rotation",
                        {"rotation_minutes": "30"}).status_code == 403
