"""The security probe (items 23 and 24), sent as a guesser or a forged link would send
them: ``/pin`` throttles password guesses as ``/password`` does, and the device revoke form
redirects only to paths of this site. SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import LoginThrottle, TableDevice, User
from tests.factories import PASSWORD, make_table, make_user
from tests.web.conftest import Browser, arrange, text


def _pin_form(password: str) -> dict[str, str]:
    return {"password": password, "pin": "2468", "confirm_pin": "2468"}


def test_wrong_passwords_on_the_pin_page_are_throttled_like_the_password_page(
        app: Flask, browser: Browser) -> None:
    """"/pin does not throttle password guesses (12 wrong passwords, 0
    throttle rows; /password locks)". Each wrong password counts like a failed login; after
    LOGIN_MAX_FAILURES the page is locked (429), the right password included, and the PIN is
    not set."""
    arrange(app, make_user, "nina", "croupier", pin=None)
    assert browser.login("nina").status_code == 302
    most = int(app.config["LOGIN_MAX_FAILURES"])
    codes = [browser.post("/pin", _pin_form(f"guess {n}")).status_code for n in range(most)]
    assert codes == [401] * most
    locked = browser.post("/pin", _pin_form(PASSWORD))
    assert locked.status_code == 429 and "Try again in" in text(locked)
    with db.session_scope(app) as dbs:
        rows = dbs.exec(select(LoginThrottle).where(LoginThrottle.username == "nina")).all()
        assert [r.failures for r in rows] == [most]
        nina = dbs.exec(select(User).where(User.username == "nina")).one()
        assert nina.pin_hash is None


def test_a_right_password_on_the_pin_page_still_sets_the_pin(
        app: Flask, browser: Browser) -> None:
    arrange(app, make_user, "nina", "croupier", pin=None)
    browser.login("nina")
    assert browser.post("/pin", _pin_form("a wrong one")).status_code == 401
    assert browser.post("/pin", _pin_form(PASSWORD)).status_code == 302
    with db.session_scope(app) as dbs:
        assert dbs.exec(select(User).where(User.username == "nina")).one().pin_hash


@pytest.fixture
def device(app: Flask, browser: Browser) -> int:
    """A tablet bound to RP 1 by Olga; Pavel (pit boss) signed in on this browser."""
    def floor(s: Any) -> int:
        olga = make_user(s, "olga", "pit_boss")
        make_user(s, "pavel", "pit_boss")
        row = TableDevice(table_id=make_table(s, name="RP 1").id, token_hash="0" * 64,
                          label="RP 1 tablet", bound_by=olga.id)
        s.add(row)
        s.flush()
        assert row.id is not None
        return row.id

    found = int(arrange(app, floor))
    assert browser.login("pavel").status_code == 302
    return found


@pytest.mark.parametrize("target", ["/\t/evil.example", "//evil.example", "/\\evil.example",
                                    "https://evil.example/floor", "http:/evil.example",
                                    " //evil.example", "javascript:alert(1)"])
def test_the_revoke_form_redirects_only_to_a_path_of_this_site(
        browser: Browser, device: int, target: str) -> None:
    """``next=/%09/evil.example`` answered ``Location: //evil.example``."""
    resp = browser.post(f"/devices/{device}/revoke", {"next": target})
    assert resp.status_code == 303
    assert resp.headers["Location"] == "/floor", resp.headers["Location"]


def test_the_revoke_form_keeps_a_same_site_next(browser: Browser, device: int) -> None:
    resp = browser.post(f"/devices/{device}/revoke", {"next": "/tables/1?tab=devices"})
    assert resp.headers["Location"] == "/tables/1?tab=devices"


@pytest.mark.parametrize(("referer", "location"), [
    ("https://evil.example/floor", "/floor"), ("http://localhost/floor?x=1", "/floor?x=1"),
    ("//evil.example/", "/floor")])
def test_a_refused_revoke_goes_back_only_to_a_page_of_this_site(
        browser: Browser, device: int, referer: str, location: str) -> None:
    """A refusal redirected to whatever the Referer named."""
    resp = browser.post(f"/devices/{device + 99}/revoke", {"next": "/floor"},
                        headers={"Referer": referer})
    assert resp.status_code == 302 and resp.headers["Location"] == location
