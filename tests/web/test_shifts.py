"""Opening a shift from the dashboard and the table page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Browser, text


def test_a_croupier_opens_a_shift_from_the_dashboard(browser: Browser, croupier: Any,
                                                     table: Any) -> None:
    browser.login("carla")
    assert "Open shift" in text(browser.get("/"))
    resp = browser.post(f"/tables/{table.id}/shifts")
    # the croupier came to deal: straight to the table screen, with the confirmation on it
    assert resp.status_code == 302 and resp.headers["Location"] == f"/tables/{table.id}/live"
    assert "Shift opened" in text(browser.get(resp.headers["Location"]))
    dashboard = text(browser.get("/"))
    assert "Shift open" in dashboard and "Carla" in dashboard


def test_a_second_shift_on_the_same_table_is_a_409_with_a_message(browser: Browser,
                                                                  croupier: Any,
                                                                  table: Any) -> None:
    browser.login("carla")
    browser.post(f"/tables/{table.id}/shifts")
    resp = browser.post(f"/tables/{table.id}/shifts")
    assert resp.status_code == 409
    assert "already has an open shift" in text(resp)


def test_a_malformed_gaming_date_is_a_422_with_a_message(browser: Browser, croupier: Any,
                                                        table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", {"gaming_date": "31/12/2025"})
    assert resp.status_code == 422
    assert "must be a date" in text(resp)


def test_a_gaming_date_far_away_is_a_422(browser: Browser, croupier: Any, table: Any) -> None:
    browser.login("carla")
    resp = browser.post(f"/tables/{table.id}/shifts", {"gaming_date": "2001-01-01"})
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
        browser: Browser, croupier: Any, table: Any) -> None:
    browser.login("carla")
    before = text(browser.get(f"/tables/{table.id}"))
    assert "Russian poker" in before and "Table screen" not in before
    browser.post(f"/tables/{table.id}/shifts")
    after = text(browser.get(f"/tables/{table.id}"))
    assert f'href="/tables/{table.id}/live"' in after and "Table screen" in after
