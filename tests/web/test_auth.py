"""Signing in and out, CSRF, throttling, revocation and the idle timeout, through HTTP."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlmodel import update

from dealer_assist import db
from dealer_assist.models import AuthSession, utcnow
from dealer_assist.services.people import users
from tests.factories import PASSWORD, make_user
from tests.web.conftest import Browser, arrange, text


def test_an_anonymous_visitor_is_sent_to_the_login_page(browser: Browser) -> None:
    resp = browser.get("/")
    assert resp.status_code == 302
    assert resp.headers["Location"].startswith("/login")


def test_the_login_form_carries_a_csrf_token(browser: Browser) -> None:
    page = text(browser.get("/login"))
    assert 'name="csrf_token"' in page and 'name="password"' in page


def test_a_croupier_signs_in_sees_the_tables_and_signs_out(browser: Browser,
                                                           croupier: Any) -> None:
    resp = browser.login("carla")
    assert resp.status_code == 302 and resp.headers["Location"] == "/"
    home = browser.get("/")
    assert home.status_code == 200 and "Carla" in text(home)
    out = browser.post("/logout")
    assert out.status_code == 302
    assert browser.get("/").status_code == 302


def test_logout_revokes_the_session_on_the_server_not_just_the_cookie(browser: Browser,
                                                                      croupier: Any) -> None:
    browser.login("carla")
    stolen = browser.client.get_cookie("session")
    assert stolen is not None
    browser.post("/logout")
    browser.client.set_cookie("session", stolen.value)
    resp = browser.get("/")
    assert resp.status_code == 302 and resp.headers["Location"].startswith("/login")


def test_a_wrong_password_shows_a_message_and_a_401(browser: Browser, croupier: Any) -> None:
    resp = browser.login("carla", "not my password")
    assert resp.status_code == 401
    assert "Wrong username or password" in text(resp)


def test_the_sixth_attempt_after_five_failures_is_refused_with_429(browser: Browser,
                                                                   croupier: Any) -> None:
    for _ in range(5):
        assert browser.login("carla", "nope").status_code == 401
    resp = browser.login("carla")
    assert resp.status_code == 429
    assert "Too many failed attempts" in text(resp)
    assert int(resp.headers["Retry-After"]) > 0


def test_a_form_without_its_csrf_token_is_refused_with_400(browser: Browser,
                                                          croupier: Any) -> None:
    resp = browser.post("/login", {"username": "carla", "password": PASSWORD}, csrf=False)
    assert resp.status_code == 400
    assert "expired" in text(resp)
    browser.login("carla")
    assert browser.post("/logout", csrf=False).status_code == 400


def test_a_forged_csrf_token_is_refused(browser: Browser, croupier: Any) -> None:
    browser.csrf()
    resp = browser.client.post("/login", data={"username": "carla", "password": PASSWORD,
                                               "csrf_token": "forged"})
    assert resp.status_code == 400


def test_a_one_time_password_must_be_changed_before_anything_else(app: Flask,
                                                                  browser: Browser) -> None:
    arrange(app, make_user, "newbie", "croupier", must_change=True)
    resp = browser.login("newbie")
    assert resp.headers["Location"] == "/password"
    assert browser.get("/").headers["Location"] == "/password"
    resp = browser.post("/password", {"current_password": PASSWORD,
                                      "new_password": "my own long secret",
                                      "confirm_password": "my own long secret"})
    assert resp.status_code == 302
    assert browser.get("/").status_code == 200


def test_a_too_short_new_password_is_a_422_with_the_reason(browser: Browser,
                                                          croupier: Any) -> None:
    browser.login("carla")
    resp = browser.post("/password", {"current_password": PASSWORD, "new_password": "short",
                                      "confirm_password": "short"})
    assert resp.status_code == 422
    assert "at least 10 characters" in text(resp)


def test_disabling_an_account_ends_its_open_session(app: Flask, browser: Browser,
                                                   croupier: Any, admin: Any) -> None:
    browser.login("carla")
    assert browser.get("/").status_code == 200
    arrange(app, users.set_active, croupier.id, False, actor_id=admin.id)
    resp = browser.get("/")
    assert resp.status_code == 302 and resp.headers["Location"].startswith("/login")
    assert browser.login("carla").status_code == 401


def test_after_the_idle_timeout_the_user_must_sign_in_again(app: Flask, browser: Browser,
                                                            croupier: Any) -> None:
    browser.login("carla")
    with db.session_scope(app) as session:
        session.exec(update(AuthSession).values(  # type: ignore[call-overload]
            last_seen_at=utcnow() - timedelta(minutes=31)))
    resp = browser.get("/")
    assert resp.status_code == 302 and resp.headers["Location"].startswith("/login")
    assert "without activity" in text(browser.get(resp.headers["Location"]))


def test_the_idle_timeout_is_configurable(db_url: str, croupier: Any) -> None:
    from dealer_assist import create_app
    from tests.conftest import FAST_ARGON2

    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": db_url, "IDLE_TIMEOUT_MINUTES": 60,
                      **FAST_ARGON2})
    try:
        browser = Browser(app.test_client())
        browser.login("carla")
        with db.session_scope(app) as session:
            session.exec(update(AuthSession).values(  # type: ignore[call-overload]
                last_seen_at=utcnow() - timedelta(minutes=31)))
        assert browser.get("/").status_code == 200
    finally:
        db.dispose(app)


def test_login_never_redirects_off_site(browser: Browser, croupier: Any) -> None:
    resp = browser.post("/login", {"username": "carla", "password": PASSWORD,
                                   "next": "//evil.example/"})
    assert resp.headers["Location"] == "/"


def test_signing_in_again_revokes_the_browsers_previous_session(browser: Browser,
                                                                croupier: Any) -> None:
    browser.login("carla")
    earlier = browser.client.get_cookie("session")
    assert earlier is not None
    browser.login("carla")
    assert browser.get("/").status_code == 200
    browser.client.set_cookie("session", earlier.value)
    assert browser.get("/").status_code == 302


# --- long passwords are judged, never a 500; every answer has Cache-Control --

def _long(length: int) -> str:
    """A password of ``length`` characters that no guesser would try (random words of letters)."""
    import secrets

    return ("Tablet four am " + secrets.token_urlsafe(length))[:length]


def _otp_of(page: str) -> str:
    import re

    found = re.search(r'<code class="secret">([^<]+)</code>', page)
    assert found, "no one-time password on the page"
    return found.group(1)


def _signed_in_for(flow: str, app: Flask, browser: Browser, name: str) -> str:
    """Sign ``name`` in the way each password field is reached; the current password."""
    if flow == "first sign-in":
        arrange(app, make_user, name, "croupier", must_change=True)
        assert browser.login(name).headers["Location"] == "/password"
        return PASSWORD
    if flow == "reset":
        user = arrange(app, make_user, name, "croupier")
        arrange(app, make_user, f"{name}-admin", "admin")
        admin = Browser(app.test_client())
        admin.login(f"{name}-admin")
        otp = _otp_of(text(admin.post(f"/admin/users/{user.id}/reset-password")))
        assert browser.login(name, otp).headers["Location"] == "/password"
        return otp
    arrange(app, make_user, name, "croupier")
    assert browser.login(name).status_code == 302
    return PASSWORD


@pytest.mark.parametrize("flow", ["first sign-in", "change", "reset"])
def test_a_long_new_password_is_judged_and_never_a_500(app: Flask, flow: str) -> None:
    """"POST /password with a new password of 73-256 characters answers 500:
    ValueError: Password exceeds max length of 72 characters" (zxcvbn)."""
    for length in (73, 256, 10_000):
        browser = Browser(app.test_client())
        current = _signed_in_for(flow, app, browser, f"u{length}")
        new = _long(length)
        resp = browser.post("/password", {"current_password": current, "new_password": new,
                                          "confirm_password": new})
        if length <= 256:
            assert resp.status_code == 302, (length, text(resp)[:300])
            assert browser.get("/").status_code == 200
            assert Browser(app.test_client()).login(f"u{length}", new).status_code == 302
        else:
            assert resp.status_code == 422, (length, resp.status_code)
            assert "too long (256 characters at most)" in text(resp)


def test_a_long_current_or_login_password_is_refused_never_a_500(app: Flask,
                                                                  browser: Browser,
                                                                  croupier: Any) -> None:
    """Item 17: every password field takes 73, 256 and 10,000 characters without a 500."""
    for length in (73, 256, 10_000):
        assert Browser(app.test_client()).login("carla", _long(length)).status_code == 401
    browser.login("carla")
    for length in (73, 256, 10_000):
        resp = browser.post("/password", {"current_password": _long(length),
                                          "new_password": "a long new secret here",
                                          "confirm_password": "a long new secret here"})
        assert resp.status_code == 401, (length, resp.status_code)


ANONYMOUS = [("get", "/login"), ("get", "/"), ("get", "/no-such-page"),
             ("get", "/static/app.css"), ("get", "/api/v1/openapi.json"),
             ("post", "/login"), ("post", "/language"), ("post", "/logout"),
             ("post", "/api/v1/russian/settle"), ("post", "/api/v1/poker/hand"),
             ("get", "/api/v1/rounds/1")]


def test_every_response_has_a_cache_control_header(browser: Browser, croupier: Any) -> None:
    """Item 17: "Two anonymous responses lack Cache-Control: give every response one"."""
    missing = []
    for signed_in in (False, True):
        if signed_in:
            browser.login("carla")
        for method, url in ANONYMOUS:
            resp = getattr(browser.client, method)(url)
            if not resp.headers.get("Cache-Control"):
                missing.append((signed_in, method, url, resp.status_code))
    assert missing == []
