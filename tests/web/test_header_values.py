"""A value a user chose never breaks a response header. A pit named "Зал 1"
(an administrator may create it) went into the floor's ETag and waitress could not encode it
(``UnicodeEncodeError: 'latin-1'``); a CR/LF in a pit or a ``next`` made Werkzeug refuse the
header (``ValueError``): every ``GET /floor/cards`` answered 500. Every header value a view
builds from user input goes through ``edge.header_values`` (ETag, Content-Disposition
filenames, redirect targets), and a last net in the security-headers hook encodes whatever
else is not plain ASCII."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import tables
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange


def _plain_ascii(resp: TestResponse) -> None:
    """What waitress needs of every header: latin-1 encodable; what RFC 9110 wants: visible
    ASCII and spaces, no line break."""
    for name, value in resp.headers.items():
        assert value.isascii() and value.isprintable(), (name, value)
        value.encode("latin-1")


@pytest.fixture
def cyrillic_pit(app: Flask) -> dict[str, Any]:
    def build(session: Any) -> dict[str, Any]:
        carla = make_user(session, "carla", "croupier").id
        make_user(session, "pavel", "pit_boss")
        t = make_table(session, name="RP 1")
        tables.update_table(session, t.id, tables.TableSpec(
            "RP 1", "russian", t.profile, 10, 500, 50_000, 6, pit="Зал 1"))
        shifts.open_shift(session, table_id=t.id, user_id=carla)
        return {"table": t.id}

    return dict(arrange(app, build))


def test_a_cyrillic_pit_name_keeps_the_floors_live_updates_working(
        app: Flask, browser: Browser, cyrillic_pit: dict[str, Any]) -> None:
    browser.login("pavel")
    first = browser.get("/floor/cards", query_string={"pit": "Зал 1"})
    assert first.status_code == 200 and 'data-table="RP 1"' in first.get_data(as_text=True)
    _plain_ascii(first)
    again = browser.get("/floor/cards", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    _plain_ascii(again)
    page = browser.get("/floor")
    assert page.status_code == 200
    _plain_ascii(page)


def test_a_pit_with_a_line_break_neither_fails_nor_adds_a_header(
        app: Flask, browser: Browser, cyrillic_pit: dict[str, Any]) -> None:
    browser.login("pavel")
    resp = browser.get("/floor/cards", query_string={"pit": "A\r\nX-Injected: 1"})
    assert resp.status_code == 200
    assert "X-Injected" not in resp.headers
    _plain_ascii(resp)


def test_every_pit_gives_a_different_etag_and_the_same_pit_the_same(
        app: Flask, browser: Browser, cyrillic_pit: dict[str, Any]) -> None:
    browser.login("pavel")
    tags = {pit: browser.get("/floor/cards", query_string={"pit": pit}).headers["ETag"]
            for pit in ("Зал 1", "Зал 2", "A")}
    assert len(set(tags.values())) == 3
    assert browser.get("/floor/cards", query_string={"pit": "Зал 1"}).headers["ETag"] \
        == tags["Зал 1"]


def test_a_sign_in_whose_next_has_a_line_break_goes_home_not_to_a_500(
        app: Flask, browser: Browser, cyrillic_pit: dict[str, Any]) -> None:
    resp = browser.post("/login", {"username": "pavel", "password": "correct horse battery",
                                   "next": "/floor\r\nX-Injected: 1"})
    assert resp.status_code == 302 and "X-Injected" not in resp.headers
    assert "\n" not in resp.headers["Location"]
    _plain_ascii(resp)


def test_a_sign_in_whose_next_is_cyrillic_is_sent_there_encoded(
        app: Flask, browser: Browser, cyrillic_pit: dict[str, Any]) -> None:
    resp = browser.post("/login", {"username": "pavel", "password": "correct horse battery",
                                   "next": "/floor?pit=Зал 1"})
    assert resp.status_code == 302
    assert resp.headers["Location"].endswith("/floor?pit=%D0%97%D0%B0%D0%BB%201")
    _plain_ascii(resp)


def test_a_download_named_in_cyrillic_carries_an_ascii_name_and_the_utf8_one() -> None:
    from dealer_assist.edge import header_values

    value = header_values.attachment('shift-3-Зал "1"-2026-11-28.pdf')
    assert value.isascii() and "\n" not in value
    assert value.startswith('attachment; filename="shift-3-')
    assert "filename*=UTF-8''shift-3-%D0%97%D0%B0%D0%BB%20%221%22-2026-11-28.pdf" in value
    assert header_values.attachment("hold-2026-11-28.csv") == \
        'attachment; filename="hold-2026-11-28.csv"'


def test_any_other_header_that_is_not_ascii_is_encoded_by_the_last_net(app: Flask) -> None:
    from dealer_assist.edge import public

    @app.get("/test-only/header")
    @public
    def _header() -> Any:
        from flask import Response
        resp = Response("ok")
        resp.headers["X-Said"] = "Зал 1"
        return resp

    resp = app.test_client().get("/test-only/header")
    assert resp.headers["X-Said"] == "%D0%97%D0%B0%D0%BB 1"
    _plain_ascii(resp)
