""""The language button on a table device changes the dealing croupier's own
account language; the report preview page has no header (no language button)."
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from dealer_assist import db
from dealer_assist.models import User
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, text
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)


def _language(app: Flask, user_id: int) -> str | None:
    with db.session_scope(app) as dbs:
        user = dbs.get(User, user_id)
        assert user is not None
        return user.language


def test_the_language_switch_on_a_table_device_is_the_tablet_s_not_the_dealer_s_account(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    live = f"/tables/{floor['table']}/live"
    assert "Start round" in text(browser.get(live))  # Carla deals; her account: no language
    switched = browser.post("/language", {"language": "ru", "next": live})
    assert switched.status_code == 302
    assert "Начать раунд" in text(browser.get(live))  # the tablet speaks Russian now
    assert _language(app, floor["carla"]) is None  # her own account is untouched
    other_browser.login("carla")  # Carla at another screen: her own language, English
    assert "Tables" in text(other_browser.get("/"))
    back = browser.post("/language", {"language": "en", "next": live})
    assert back.status_code == 302 and "Start round" in text(browser.get(live))
    assert _language(app, floor["carla"]) is None


def test_a_signed_in_person_s_switch_still_keeps_the_language_in_his_account(
        app: Flask, browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    assert browser.post("/language", {"language": "ru", "next": "/"}).status_code == 302
    assert _language(app, croupier.id) == "ru"


def test_the_report_preview_has_the_language_switch(app: Flask, browser: Browser) -> None:
    def build(session: Any) -> int:
        make_user(session, "maria", "shift_manager")
        carla = make_user(session, "carla", "croupier")
        table = make_table(session, name="RP 1")
        return int(shifts.open_shift(session, table_id=table.id, user_id=carla.id).id)

    shift_id = arrange(app, build)
    browser.login("maria")
    page = text(browser.get(f"/reports/shifts/{shift_id}"))
    assert "Shift report" in page and 'name="language" value="ru"' in page
    switched = browser.post("/language", {"language": "ru",
                                          "next": f"/reports/shifts/{shift_id}"})
    assert switched.headers["Location"].endswith(f"/reports/shifts/{shift_id}")
    russian = text(browser.get(f"/reports/shifts/{shift_id}"))
    assert "Отчёт смены" in russian and 'name="language" value="en"' in russian
