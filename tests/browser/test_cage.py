"""The "Done when" in real Chromium, portrait 768x1024 and landscape 1024x768: a buy-in
recorded in the middle of a round on the table screen; a fill on a numbered slip; the shift
closed; the soft count with two PINs; a slip's PDF rendered to PNG; the day/MTD/YTD hold report
in English and Russian (preview and PDF, rendered to PNG). Screenshots and PNGs go to
``test-artifacts/browser/<test>/``."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import create_app, db
from dealer_assist.models import Round
from dealer_assist.services.rounds import voids
from dealer_assist.services.shifts import inventory
from tests.browser.conftest import LAYOUT, Server, Shots, served
from tests.conftest import FAST_ARGON2
from tests.factories import PASSWORD, PIN, SIGNED, make_table, make_user

pytestmark = pytest.mark.browser
SIZES = [(768, 1024), (1024, 768)]


@pytest.fixture
def cage_server(tmp_path: Path) -> Iterator[Server]:
    """Carla (croupier), Pavel (pit boss), Maria (shift manager), Kira and Kostya (the count
    team), Cleo (the cage); RP 1 opened with a float of 100,000 counted by Carla and Pavel."""
    url = f"sqlite:///{tmp_path / 'cage.sqlite3'}"
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": url, **FAST_ARGON2})
    db.upgrade(db.get_engine(app))
    with db.session_scope(app) as dbs:
        people = {n: make_user(dbs, n, r).id for n, r in (
            ("carla", "croupier"), ("pavel", "pit_boss"), ("maria", "shift_manager"),
            ("kira", "count_team"), ("kostya", "count_team"), ("cleo", "cage_cashier"))}
        table = make_table(dbs, name="RP 1")
        inventory.open_shift_with_count(dbs, table_id=table.id, actor_id=people["carla"],
                                        croupier_id=people["carla"],
                                        pit_boss_id=people["pavel"], chips={1000: 100},
                                        credential=SIGNED)
    with served(app, {"RP 1": table.id, **people}) as running:
        yield running


def _login(page: Any, server: Server, who: str) -> None:
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', who)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/")


def _png(pdf: bytes, out: Path) -> list[Path]:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(out.with_suffix(".pdf")), str(out)],
                   check=True, timeout=60)
    return sorted(out.parent.glob(out.name + "*.png"))


def _fits(page: Any) -> None:
    layout = page.evaluate(LAYOUT, ["button, a.button, input:not([type=hidden])", 0])
    assert layout["scroll"] <= layout["inner"], layout


def _sign_out(page: Any, context: Any) -> None:
    page.click("text=Sign out") if page.is_visible("text=Sign out") else None
    context.clear_cookies()


def _void_the_round(server: Server) -> None:
    with db.session_scope(server.app) as dbs:
        rnd = dbs.exec(select(Round)).one()
        asked = voids.request_change(dbs, round_id=rnd.id, kind="void", reason="redeal",
                                     actor_id=server.tables["carla"])
        voids.decide_change(dbs, request_id=asked.id, approve=True, note="ok",
                            actor_id=server.tables["pavel"])


@pytest.mark.parametrize("size", SIZES, ids=["768x1024", "1024x768"])
def test_buy_in_mid_round_soft_count_with_two_pins_slip_pdf_and_hold_report(
        chromium: Any, cage_server: Server, size: tuple[int, int],
        request: pytest.FixtureRequest) -> None:
    server, table = cage_server, cage_server.tables["RP 1"]
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                                   has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    shots = Shots(page, request.node.name)
    try:
        _login(page, server, "carla")
        page.goto(f"{server.url}/tables/{table}/live")
        page.fill('input[name="ante_1"]', "100")
        page.click('[data-step="start"]')
        page.wait_for_selector("text=Round 1")
        page.click("[data-buy-in] summary")
        page.fill('[data-buy-in] input[name="buy_in"]', "20000")
        page.fill('[data-buy-in] input[name="seat"]', "2")
        shots("buy-in-form-mid-round")
        page.click("[data-record-buy-in]")
        page.wait_for_selector("text=Buy-in 20,000")
        # the round goes on: its title is drawn by the page's renderer once its scripts ran
        page.wait_for_selector("[data-round-title]:has-text('Round 1')")
        assert "Round 1" in page.inner_text("h1")
        _fits(page)
        shots("buy-in-recorded-round-goes-on")
        _void_the_round(server)
        _sign_out(page, context)

        _login(page, server, "cleo")  # the cage issues the fill
        page.click("[data-cage-link]")
        form = page.locator("[data-issue-form]")
        form.locator('select[name="table"]').select_option(label="RP 1")
        form.locator('input[name="amount"]').fill("5000")
        shots("cage-issues-a-fill-en")
        form.locator('button[type="submit"]').click()
        page.wait_for_selector("text=Fill of 5,000 issued to RP 1")
        assert "waiting" in page.inner_text("[data-issued]")
        _fits(page)
        shots("cage-issued-waiting-en")
        page.click('form.lang input[type="submit"]')
        page.wait_for_selector("text=Касса: пополнения и изъятия")
        _fits(page)
        shots("cage-issued-waiting-ru")
        _sign_out(page, context)

        _login(page, server, "pavel")
        with db.session_scope(server.app) as dbs:
            shift_id = dbs.exec(select(Round.shift_id)).one()
        page.goto(f"{server.url}/reports/shifts/{shift_id}/inventory")
        fill = page.locator(f'form[action$="/reports/shifts/{shift_id}/transfers"]')
        assert "5,000 · Cleo" in fill.locator('select[name="issue_id"]').inner_text()
        shots("table-signs-for-the-cages-fill")
        fill.locator('input[name="chips.1000"]').fill("5")  # by denomination: 5 x 1,000
        fill.locator('select[name="croupier_id"]').select_option(label="Carla")
        fill.locator('input[name="croupier_pin"]').fill(PIN)
        fill.locator('button[type="submit"]').click()
        page.wait_for_selector('[data-slip="2"]')
        shots("fill-on-slip-2")
        close = page.locator(f'form[action$="/reports/shifts/{shift_id}/close"]')
        close.locator('input[name="chips.1000"]').fill("85")  # 100,000 + 5,000 - 20,000
        close.locator('select[name="croupier_id"]').select_option(label="Carla")
        close.locator('input[name="croupier_pin"]').fill(PIN)
        close.locator('input[name="confirm"]').check()
        close.locator('button[type="submit"]').click()
        page.wait_for_selector("text=Shift closed")
        _sign_out(page, context)

        _login(page, server, "kira")  # the count team counts the drop
        page.click("nav [data-drop-link]")
        page.click(f'[data-count="{table}"]')
        page.fill('input[name="cash.5000"]', "4")
        page.select_option('select[name="counter_a"]', label="Kira")
        page.fill('input[name="counter_a_pin"]', PIN)
        page.select_option('select[name="counter_b"]', label="Kostya")
        page.fill('input[name="counter_b_pin"]', PIN)
        shots("soft-count-two-pins")
        page.click("[data-record-count]")
        page.wait_for_selector("text=Drop counted: 20,000")
        assert "Kira · Kostya" in page.inner_text("[data-drop-boxes]")
        _fits(page)
        shots("soft-count-recorded-en")
        page.click('form.lang input[type="submit"]')
        page.wait_for_selector("text=Подсчёт дропа")
        _fits(page)
        shots("soft-count-recorded-ru")
        _sign_out(page, context)
        _login(page, server, "pavel")

        out = shots.dir
        page.goto(f"{server.url}/cage/slips/2")
        assert "№ 2" in page.inner_text("[data-slip-number]")
        shots("slip-2-preview")
        slip = page.request.get(f"{server.url}/cage/slips/2.pdf")
        assert slip.ok and slip.headers["content-type"] == "application/pdf"
        assert "5 × 1,000" in page.inner_text("body") or "1,000" in page.inner_text("table")
        assert _png(slip.body(), out / "slip-2")

        page.goto(f"{server.url}/cage/hold")
        assert "0.00 %" in page.inner_text('[data-period="day"]')
        shots("hold-report-en")
        assert _png(page.request.get(f"{server.url}/cage/hold.pdf").body(), out / "hold-en")
        page.goto(f"{server.url}/reports/")  # the hold report is a print page: no header
        page.click('form.lang input[type="submit"]')
        page.goto(f"{server.url}/cage/hold")
        assert "Выигрыш, дроп и холд" in page.inner_text("h1")
        shots("hold-report-ru")
        assert _png(page.request.get(f"{server.url}/cage/hold.pdf").body(), out / "hold-ru")
        csv = page.request.get(f"{server.url}/cage/hold.csv")
        assert csv.ok and "Стол" in csv.body().decode("utf-8-sig").splitlines()[0]
    finally:
        context.close()
    assert shutil.which("pdftoppm")
