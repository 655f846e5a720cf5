""""Edit" on a poker table opened the house-game form, preselected "Russian
poker", refused to save ("no profile 'americana-limit' for this game"), and with the profile
cleared silently turned the poker table into a Russian poker table. A poker table's name, pit
and stakes are edited on its own form; the setup list shows its own figures (its game's title,
its stakes, its seats), not "Ante 10-20, Max payout 20 RUB, Boxes 6" and "americana"."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.errors import Conflict
from dealer_assist.services.tables import poker as poker_tables
from dealer_assist.services.tables import tables
from tests.factories import make_user
from tests.web.conftest import Browser, arrange, text


@pytest.fixture
def poker(app: Flask) -> dict[str, int]:
    def build(session: Any) -> dict[str, int]:
        make_user(session, "root", "admin")
        am = poker_tables.open_table(session, name="AM 1", profile="americana-limit",
                                     stakes={"ante": 10}, seat_count=6)
        dr = poker_tables.open_table(session, name="DR 1", profile="draw32-no-limit",
                                     stakes={"small_blind": 5}, seat_count=5)
        return {"am": am.id, "dr": dr.id}

    return dict(arrange(app, build))


def test_the_setup_list_shows_a_poker_tables_own_game_stakes_and_seats(
        browser: Browser, poker: dict[str, int]) -> None:
    browser.login("root")
    page = text(browser.get("/admin/tables"))
    row = page[page.index(">AM 1<"):]
    row = row[:row.index("</tr>")]
    assert "Americana stud" in row and "Ante 10 / bring-in 20" in row and "6 seats" in row
    assert ">americana<" not in row and "Max payout" not in row
    draw = page[page.index(">DR 1<"):]
    draw = draw[:draw.index("</tr>")]
    assert "32-card draw" in draw and "Blinds 5/10/20" in draw and "5 seats" in draw


def test_edit_on_a_poker_table_opens_the_poker_form_with_its_own_stakes(
        browser: Browser, poker: dict[str, int]) -> None:
    browser.login("root")
    page = text(browser.get(f"/admin/tables/{poker['am']}"))
    assert 'name="ante" value="10"' in page and 'name="name" value="AM 1"' in page
    assert 'name="bring_in"' in page and 'name="pit"' in page
    assert 'name="game"' not in page and 'name="profile"' not in page
    assert "Russian poker" not in page
    draw = text(browser.get(f"/admin/tables/{poker['dr']}"))
    assert 'name="small_blind"' in draw and 'name="over_blind"' in draw


def test_a_poker_tables_name_pit_and_stakes_are_saved_and_its_game_kept(
        app: Flask, browser: Browser, poker: dict[str, int]) -> None:
    browser.login("root")
    resp = browser.post(f"/admin/tables/{poker['am']}",
                        {"name": "AM 2", "pit": "Зал 1", "ante": "20", "bring_in": "50"})
    assert resp.status_code == 302, text(resp)
    view = arrange(app, poker_tables.get, poker["am"])
    table = arrange(app, tables.get_table, poker["am"])
    assert (view.name, view.profile, view.stakes) == ("AM 2", "americana-limit",
                                                     {"ante": 20, "bring_in": 50})
    assert (table.game, table.pit, table.min_ante, table.max_ante) == \
        ("americana", "Зал 1", 20, 50)
    assert "Ante 20 / bring-in 50" in text(browser.get("/admin/tables"))


def test_a_poker_table_with_a_wrong_stake_is_refused_and_unchanged(
        app: Flask, browser: Browser, poker: dict[str, int]) -> None:
    browser.login("root")
    resp = browser.post(f"/admin/tables/{poker['dr']}",
                        {"name": "DR 1", "pit": "", "small_blind": "0", "big_blind": "10",
                         "over_blind": "20"})
    assert resp.status_code == 422
    assert arrange(app, poker_tables.get, poker["dr"]).stakes == \
        {"small_blind": 5, "big_blind": 10, "over_blind": 20}


def test_the_house_form_cannot_turn_a_poker_table_into_a_russian_poker_table(
        app: Flask, browser: Browser, poker: dict[str, int]) -> None:
    browser.login("root")
    resp = browser.post(f"/admin/tables/{poker['am']}",
                        {"name": "AM 1", "game": "russian", "profile": "", "min_ante": "10",
                         "max_ante": "20", "max_payout": "20", "boxes": "6"})
    assert resp.status_code in (302, 422)
    assert arrange(app, tables.get_table, poker["am"]).game == "americana"

    def house_form(session: Any) -> None:
        tables.update_table(session, poker["am"], tables.TableSpec(
            "AM 1", "russian", "", 10, 20, 20, 6))

    with pytest.raises(Conflict):
        arrange(app, house_form)
    assert arrange(app, tables.get_table, poker["am"]).game == "americana"
