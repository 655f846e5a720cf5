"""The pages fit a landscape tablet: no horizontal scroll at 1024x768 and 1280x800, and every
control is at least 44 px tall. Real headless Chromium (Debian's, via Playwright)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer_assist import create_app, db
from dealer_assist.services.shifts import shifts
from tests.conftest import FAST_ARGON2
from tests.factories import PASSWORD, make_table, make_user

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
VIEWPORTS = [(1024, 768), (1280, 800)]
CONTROLS = "button, .button, input:not([type=hidden]), select, nav a, .who a"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(f"{CHROMIUM} is required in CI", pytrace=False)
        pytest.skip(f"{CHROMIUM} not installed (run scripts/system-deps.sh as root)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def live_app(tmp_path: Path, sqlite_template: Path) -> Iterator[tuple[Flask, str]]:
    from werkzeug.serving import make_server

    path = tmp_path / "live.sqlite3"
    shutil.copyfile(sqlite_template, path)
    app = create_app({"SECRET_KEY": "s", "DATABASE_URL": f"sqlite:///{path}", **FAST_ARGON2})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    db.dispose(app)


def test_every_page_fits_a_landscape_tablet_with_large_touch_targets(
        chromium: Any, live_app: tuple[Flask, str]) -> None:
    app, base = live_app
    with db.session_scope(app) as session:
        make_user(session, "root", "admin")
        boss = make_user(session, "pete", "pit_boss")
        long_name = make_table(session, name="Russian poker table with a long name 12")
        make_table(session, name="RP 2", boxes=7, max_payout=1_000_000_000)
        shift = shifts.open_shift(session, table_id=long_name.id, user_id=boss.id)
    problems: list[str] = []
    for width, height in VIEWPORTS:
        for user, pages in (("root", ["/", "/admin/users", "/admin/tables", "/admin/profiles",
                                      f"/admin/tables/{long_name.id}", "/password"]),
                            ("pete", ["/", f"/tables/{long_name.id}", "/tables/2", "/reports/",
                                      f"/reports/shifts/{shift.id}/inventory"])):
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/login")
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            for url in pages:
                page.goto(base + url)
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - window.innerWidth")
                if overflow > 0:
                    problems.append(f"{width}x{height} {url}: {overflow}px horizontal scroll")
                small = page.evaluate(f"""() => [...document.querySelectorAll({CONTROLS!r})]
                    .filter(e => e.offsetParent !== null)
                    .map(e => [e.outerHTML.slice(0, 60), e.getBoundingClientRect().height])
                    .filter(([_, h]) => h < 44)""")
                problems += [f"{width}x{height} {url}: {h:.0f}px tall: {html}"
                             for html, h in small]
            page.close()
    assert problems == []


def _sign_in(chromium: Any, base: str, user: str, width: int, height: int) -> Any:
    page = chromium.new_page(viewport={"width": width, "height": height})
    page.goto(f"{base}/login")
    page.fill("input[name=username]", user)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("header .who")
    page.wait_for_load_state("load")  # the stylesheet applied
    return page


HEADER_ROWS = """() => {
    const bar = document.querySelector('header.bar');
    const tops = [...bar.children].map(e => Math.round(e.getBoundingClientRect().top));
    return {height: bar.getBoundingClientRect().height, tops: tops};
}"""


@pytest.mark.parametrize("role", ["admin", "shift_manager", "pit_boss", "croupier"])
def test_the_header_is_a_single_row_at_1024_by_768_for_every_role(
        chromium: Any, live_app: tuple[Flask, str], role: str) -> None:
    app, base = live_app
    with db.session_scope(app) as session:
        make_user(session, "konstantinopoulou_alexandra", role)  # a long name, truncated
    page = _sign_in(chromium, base, "konstantinopoulou_alexandra", 1024, 768)
    got = page.evaluate(HEADER_ROWS)
    page.close()
    assert len(set(got["tops"])) == 1, got
    assert 44 <= got["height"] < 2 * 44, got


def test_the_admin_menu_reaches_every_administration_page_with_large_targets(
        chromium: Any, live_app: tuple[Flask, str]) -> None:
    app, base = live_app
    with db.session_scope(app) as session:
        make_user(session, "root", "admin")
    page = _sign_in(chromium, base, "root", 1024, 768)
    page.click("summary:has-text('Admin')")
    links = page.evaluate("""() => [...document.querySelectorAll('details.menu[open] a')]
        .filter(e => e.offsetParent !== null)
        .map(e => [new URL(e.href).pathname, e.getBoundingClientRect().height])""")
    page.click("h1")  # a tap elsewhere closes the menu
    closed = page.evaluate("document.querySelectorAll('details.menu[open]').length")
    page.close()
    # "/parlour": the parlour board game sits in the admin menu for administrators;
    # "/floor": the pit's live floor, a pit boss's first link, an admin's in the menu
    assert {path for path, _h in links} == {"/admin/users", "/admin/tables", "/admin/profiles",
                                            "/audit", "/parlour", "/floor"}
    assert all(h >= 44 for _p, h in links), links
    assert closed == 0


def test_a_croupier_sees_no_admin_menu_but_can_change_the_password_and_sign_out(
        chromium: Any, live_app: tuple[Flask, str]) -> None:
    app, base = live_app
    with db.session_scope(app) as session:
        make_user(session, "carla", "croupier")
    page = _sign_in(chromium, base, "carla", 1024, 768)
    admin = page.locator("summary:has-text('Admin')").count()
    page.click(".who summary")
    page.click("a:has-text('Change password')")
    on_password_page = page.url.endswith("/password")
    page.click("button:has-text('Sign out')")
    signed_out = "/login" in page.url
    page.close()
    assert (admin, on_password_page, signed_out) == (0, True, True)
