"""Opening a shift from the dashboard and the table page: with its opening count, chip by
chip, signed by the croupier and the pit boss."""

from __future__ import annotations

from typing import Any

from flask import Flask

from dealer_assist import db
from dealer_assist.services.shifts import inventory
from tests.web.conftest import Browser, opening_form, text


def test_a_croupier_opens_a_shift_from_the_dashboard(browser: Browser, app: Flask,
                                                     croupier: Any, table: Any) -> None:
    browser.login("carla")
    assert "Open shift" in text(browser.get("/"))
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app))
    # the croupier came to deal: straight to the table screen, with the confirmation on it
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{table.id}/live"
    assert "Shift opened" in text(browser.get(resp.headers["Location"]))
    dashboard = text(browser.get("/"))
    assert "Shift open" in dashboard and "Carla" in dashboard


def test_a_second_shift_on_the_same_table_is_a_409_with_a_message(browser: Browser,
                                                                  app: Flask, croupier: Any,
                                                                  table: Any) -> None:
    browser.login("carla")
    browser.post(f"/tables/{table.id}/shifts", opening_form(app))
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app))
    assert resp.status_code == 409
    assert "already has an open shift" in text(resp)


def test_a_malformed_gaming_date_is_a_422_with_a_message(browser: Browser, app: Flask,
                                                        croupier: Any, table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app, gaming_date="31/12/2025"))
    assert resp.status_code == 422
    assert "must be a date" in text(resp)


def test_a_gaming_date_far_away_is_a_422(browser: Browser, app: Flask, croupier: Any,
                                         table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app, gaming_date="2001-01-01"))
    assert resp.status_code == 422 and "within a day" in text(resp)


def test_an_admin_may_not_open_a_shift(browser: Browser, admin: Any, table: Any) -> None:
    browser.login("root")
    assert "Open shift" not in text(browser.get("/"))
    assert browser.post(f"/tables/{table.id}/shifts").status_code == 403


def test_a_shift_on_an_unknown_table_is_a_404(browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    assert browser.post("/tables/4242/shifts").status_code == 404
    assert browser.get("/tables/4242").status_code == 404


def test_the_table_page_names_the_game_and_leads_to_the_table_screen_once_a_shift_is_open(
        browser: Browser, app: Flask, croupier: Any, table: Any) -> None:
    browser.login("carla")
    before = text(browser.get(f"/tables/{table.id}"))
    assert "Russian poker" in before and "Table screen" not in before
    browser.post(f"/tables/{table.id}/shifts", opening_form(app))
    after = text(browser.get(f"/tables/{table.id}"))
    assert f'href="/tables/{table.id}/live"' in after and "Table screen" in after


def test_the_table_page_asks_for_the_opening_count_by_denomination_and_the_co_signer(
        browser: Browser, croupier: Any, table: Any) -> None:
    browser.login("carla")
    page = text(browser.get(f"/tables/{table.id}"))
    for denom in ("1", "5", "25", "100", "500", "1000", "5000"):
        assert f'name="chips.{denom}"' in page
    assert 'name="pit_boss_id"' in page and 'inputmode="numeric"' in page


def test_opening_a_shift_records_the_opening_count_chip_by_chip_with_both_signers(
        browser: Browser, app: Flask, croupier: Any, table: Any) -> None:
    browser.login("carla")
    form = opening_form(app)
    assert browser.post(f"/tables/{table.id}/shifts", form).status_code == 302
    with db.session_scope(app) as session:
        from dealer_assist.services.shifts import shifts

        shift = shifts.open_shift_of(session, table.id)
        assert shift is not None
        opening = inventory.inventory_of(session, shift.id).opening
    assert opening is not None
    assert opening.amount == 40 * 100 + 80 * 25 + 100 * 5 == 6_500
    assert dict(opening.chips) == {1: 0, 5: 100, 25: 80, 100: 40, 500: 0, 1000: 0, 5000: 0}
    assert (opening.signed.croupier_id, opening.signed.pit_boss_id) == \
        (form["croupier_id"], form["pit_boss_id"])


def test_a_shift_is_not_opened_without_the_co_signer_and_nothing_is_stored(
        browser: Browser, app: Flask, croupier: Any, table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app, pit_boss_id=""))
    assert resp.status_code == 422 and "Choose the pit boss" in text(resp)
    assert "Shift open" not in text(browser.get(f"/tables/{table.id}"))


def test_a_bad_chip_count_names_its_denomination(browser: Browser, app: Flask,
                                                croupier: Any, table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", opening_form(app, **{"chips.25": "4.5"}))
    assert resp.status_code == 422
    page = text(resp)
    assert "25 chips must be a whole number" in page
    assert 'name="chips.25" value="4.5"' in page and 'aria-invalid="true"' in page
