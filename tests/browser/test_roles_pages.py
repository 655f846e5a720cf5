"""In real Chromium at 1024x768 and 768x1024, in English and Russian: the
administrator creates a count team member and a cage cashier on the users page (item 7), and
the Profiles page shows each profile's pay tables (item 30: the README sends people there to
choose one). Screenshots: ``test-artifacts/browser/<test name>/``."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from tests.browser.conftest import Server, Shots
from tests.browser.test_disputes import NO_SCROLL, sign_in
from tests.factories import make_user

pytestmark = pytest.mark.browser
SIZES = [(1024, 768), (768, 1024)]


def _admin(server: Server) -> None:
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "root", "admin")


def _russian(page: Any) -> None:
    page.click('form.lang input[type="submit"]')
    page.wait_for_selector('html[lang="ru"]')


@pytest.mark.parametrize("page", SIZES, indirect=True, ids=["landscape", "portrait"])
def test_the_admin_creates_a_count_team_member_and_a_cage_cashier_in_both_languages(
        page: Any, server: Server, shots: Shots) -> None:
    _admin(server)
    sign_in(page, server, "root")
    page.goto(f"{server.url}/admin/users")
    form = page.locator('form[action$="/admin/users"]')
    options = form.locator('select[name="role"]').inner_text()
    assert "Count team (soft count)" in options and "Cage cashier" in options
    form.locator('input[name="display_name"]').fill("Kira Count")
    form.locator('input[name="username"]').fill("kira")
    form.locator('select[name="role"]').select_option("count_team")
    shots("new-count-team-member-en")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector("text=kira")
    page.goto(f"{server.url}/admin/users")
    assert "Count team (soft count)" in page.inner_text("table.list")
    assert page.evaluate(NO_SCROLL)
    shots("users-with-count-team-en")
    _russian(page)
    form = page.locator('form[action$="/admin/users"]')
    options = form.locator('select[name="role"]').inner_text()
    assert "Счётная группа (подсчёт дропа)" in options and "Кассир кассы" in options
    form.locator('input[name="display_name"]').fill("Клео Касса")
    form.locator('input[name="username"]').fill("cleo")
    form.locator('select[name="role"]').select_option("cage_cashier")
    shots("new-cage-cashier-ru")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector("text=cleo")
    page.goto(f"{server.url}/admin/users")
    listed = page.inner_text("table.list")
    assert "Кассир кассы" in listed and "Счётная группа (подсчёт дропа)" in listed
    assert page.evaluate(NO_SCROLL)
    shots("users-with-the-new-roles-ru")


@pytest.mark.parametrize("page", SIZES, indirect=True, ids=["landscape", "portrait"])
def test_the_profiles_page_shows_each_profiles_pay_tables_in_both_languages(
        page: Any, server: Server, shots: Shots) -> None:
    _admin(server)
    sign_in(page, server, "root")
    page.goto(f"{server.url}/admin/profiles")
    russian = page.inner_text('[data-pays="russian-classic"]')
    assert "Pay table (n:1): Royal flush 100 · Straight flush 50" in russian
    assert "Ace-King 1" in russian and "Bonus (n:1): Royal flush 1000" in russian
    assert "Straight 4" in page.inner_text('[data-pays="caribbean-classic"]')
    assert page.locator('[data-pays^="americana"]').count() == 0  # the room pays no table
    assert page.evaluate(NO_SCROLL)
    shots("profiles-pay-tables-en")
    _russian(page)
    russian = page.inner_text('[data-pays="russian-classic"]')
    assert "Таблица выплат (n:1)" in russian and "Бонус (n:1)" in russian
    assert page.evaluate(NO_SCROLL)
    shots("profiles-pay-tables-ru")
