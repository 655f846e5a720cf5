"""Administration through HTTP: roles, accounts with one-time passwords, tables, profiles."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist.edge import PUBLIC, declared_roles, undeclared_endpoints
from dealer_assist.services.tables import profiles
from tests.factories import table_spec
from tests.web.conftest import Browser, text

ADMIN_PAGES = ["/admin/", "/admin/users", "/admin/tables", "/admin/profiles"]


def _table_form(**overrides: Any) -> dict[str, Any]:
    spec = table_spec()
    form = {"name": "RP 1", "game": "russian", "profile": spec.profile, "min_ante": "10",
            "max_ante": "500", "max_payout": "50 000", "boxes": "6"}
    form.update(overrides)
    return form


def test_every_route_declares_who_may_reach_it(app: Flask) -> None:
    assert undeclared_endpoints(app) == []
    assert declared_roles(app, "auth.login") == {PUBLIC}
    assert declared_roles(app, "admin.users_page") == {"admin"}


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_a_croupier_cannot_reach_admin_pages(browser: Browser, croupier: Any, url: str) -> None:
    browser.login("carla")
    assert browser.get(url).status_code == 403


def test_a_croupier_cannot_create_accounts(browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    resp = browser.post("/admin/users", {"username": "x1", "display_name": "X",
                                         "role": "admin"})
    assert resp.status_code == 403


def test_an_admin_creates_a_croupier_who_signs_in_with_the_one_time_password(
        app: Flask, browser: Browser, other_browser: Browser, admin: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/users", {"username": "Dana", "display_name": "Dana Novak",
                                         "role": "croupier"})
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == "no-store"
    page = text(resp)
    otp = re.search(r'class="secret">([^<]+)<', page)
    assert otp and "dana" in page
    login = other_browser.login("dana", otp.group(1))
    assert login.headers["Location"] == "/password"
    assert otp.group(1) not in text(browser.get("/admin/users"))


def test_a_taken_username_is_a_409_with_the_form_kept(browser: Browser, admin: Any,
                                                     croupier: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/users", {"username": "carla", "display_name": "Carla Two",
                                         "role": "croupier"})
    assert resp.status_code == 409
    assert "already taken" in text(resp) and "Carla Two" in text(resp)


def test_an_unknown_role_is_a_422_not_a_500(browser: Browser, admin: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/users", {"username": "x1", "display_name": "X",
                                         "role": "owner"})
    assert resp.status_code == 422 and "Unknown role" in text(resp)


def test_an_admin_disables_an_account_and_its_session_ends(browser: Browser,
                                                          other_browser: Browser, admin: Any,
                                                          croupier: Any) -> None:
    other_browser.login("carla")
    browser.login("root")
    assert browser.post(f"/admin/users/{croupier.id}/disable").status_code == 302
    assert other_browser.get("/").status_code == 302
    assert "Disabled" in text(browser.get("/admin/users"))


def test_an_admin_cannot_disable_themselves(browser: Browser, admin: Any) -> None:
    browser.login("root")
    resp = browser.post(f"/admin/users/{admin.id}/disable")
    assert resp.status_code == 409 and "own account" in text(resp)


def test_resetting_a_password_shows_a_new_one_time_password(browser: Browser,
                                                            other_browser: Browser,
                                                            admin: Any, croupier: Any) -> None:
    browser.login("root")
    resp = browser.post(f"/admin/users/{croupier.id}/reset-password")
    otp = re.search(r'class="secret">([^<]+)<', text(resp))
    assert resp.status_code == 200 and otp
    assert other_browser.login("carla", otp.group(1)).headers["Location"] == "/password"


def test_resetting_an_unknown_user_is_a_404_page(browser: Browser, admin: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/users/9999/reset-password")
    assert resp.status_code == 404 and "No user" in text(resp)


def test_an_admin_creates_a_table_that_appears_on_the_dashboard(browser: Browser,
                                                                admin: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/tables", _table_form(name="RP 7"))
    assert resp.status_code == 302
    assert "RP 7" in text(browser.get("/admin/tables"))
    assert "RP 7" in text(browser.get("/"))


@pytest.mark.parametrize(("overrides", "message"), [
    ({"min_ante": "ten"}, "The minimum ante must be a whole number"),
    ({"max_ante": "99.5"}, "The maximum ante must be a whole number"),
    ({"min_ante": "600"}, "maximum ante cannot be below the minimum"),
    ({"boxes": "12"}, "1 to 9 boxes"),
    ({"game": "blackjack"}, "Unknown game"),
    ({"name": ""}, "A table name is 1 to 64 characters"),
])
def test_bad_table_input_gives_a_clear_message_and_a_422(browser: Browser, admin: Any,
                                                        overrides: dict[str, str],
                                                        message: str) -> None:
    browser.login("root")
    resp = browser.post("/admin/tables", _table_form(**overrides))
    assert resp.status_code == 422
    assert message in text(resp)
    assert 'aria-invalid="true"' in text(resp)


def test_a_duplicate_table_name_is_a_409(browser: Browser, admin: Any, table: Any) -> None:
    browser.login("root")
    resp = browser.post("/admin/tables", _table_form(name="RP 1"))
    assert resp.status_code == 409 and "already exists" in text(resp)


def test_an_admin_edits_a_tables_limits(browser: Browser, admin: Any, table: Any) -> None:
    browser.login("root")
    assert browser.get(f"/admin/tables/{table.id}").status_code == 200
    resp = browser.post(f"/admin/tables/{table.id}", _table_form(max_ante="900"))
    assert resp.status_code == 302
    assert "10–900" in text(browser.get("/admin/tables"))


def test_editing_an_unknown_table_is_a_404(browser: Browser, admin: Any) -> None:
    browser.login("root")
    assert browser.get("/admin/tables/4242").status_code == 404


def test_the_profiles_page_lists_what_the_engine_knows(browser: Browser, admin: Any) -> None:
    browser.login("root")
    resp = browser.get("/admin/profiles")
    assert resp.status_code == 200
    for game in profiles.engine_games().values():
        assert game.default_profile in text(resp)
    if not profiles.engine_games():
        assert "no games registered" in text(resp)


def test_the_profiles_page_survives_an_empty_engine(browser: Browser, admin: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiles, "engine_games", lambda: {})
    monkeypatch.setattr(profiles, "engine_profiles", lambda game=None: [])
    browser.login("root")
    resp = browser.get("/admin/profiles")
    assert resp.status_code == 200 and "no games registered" in text(resp)


def test_an_unknown_page_is_a_404_page_not_a_crash(browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    resp = browser.get("/no/such/page")
    assert resp.status_code == 404 and "Not found" in text(resp)
