"""A dispute from the table to the pit boss's decision, in real headless Chromium.

The croupier plays a Russian poker round on the table screen, pays it, opens it from *Rounds*
and files a dispute on box 2; she cannot decide on it herself (no form, and a forged POST is
refused). A pit boss signs in, finds it in the queue, sees the engine's recomputation match the
settlement as paid, and upholds it with an adjustment, which becomes a correction.
Screenshots: ``test-artifacts/browser/disputes/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.services.disputes import disputes
from tests.browser.conftest import Server, Shots
from tests.browser.test_live_round import settle
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.browser
NO_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
JUDGING = 300_000  # ms: a page that judges the round's decisions


def sign_in(page: Any, server: Server, username: str) -> None:
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/")


def record(page: Any, selector: str) -> None:
    page.click(selector, timeout=JUDGING)  # the pages it lands on show the judged decisions
    page.wait_for_load_state("load")
    error = page.query_selector(".flash-error")
    assert error is None, error.inner_text()


def tap(page: Any, selector: str) -> None:
    """A tap on the table screen: one request, its answer drawn, no page load."""
    settle(page, lambda: page.click(selector))
    error = page.query_selector(".field-msg.error")
    assert error is None, error.inner_text()


def enter_cards(page: Any, cards: str) -> None:
    """The cards typed into the step's field: the last of an exact count records the step."""
    settle(page, lambda: (page.fill(".entry input[data-cards]", cards),
                          page.dispatch_event(".entry input[data-cards]", "change")))
    error = page.query_selector(".field-msg.error")
    assert error is None, error.inner_text()


def play_a_round(page: Any, server: Server) -> None:
    """Box 1: ANTE 100 + bonus 50, three aces; box 2: ANTE 100, ace-high; the dealer has no
    game and both boxes take the ANTE: box 1 is paid 50 (bonus), box 2 is paid 100."""
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    page.fill('input[name="ante_1"]', "100")
    page.fill('input[name="bonus_1"]', "50")
    page.fill('input[name="ante_2"]', "100")
    tap(page, 'button[data-step="start"]')  # dealing order: no card before the decisions
    for box in ("1", "2"):
        tap(page, f'article.box[data-box="{box}"] [data-step="bet"]')
    enter_cards(page, "Kh Qh 4s 5c 6d")  # the reveal
    for box in ("1", "2"):
        tap(page, f'article.box[data-box="{box}"] [data-step="take_ante"]')
    enter_cards(page, "As Ad Ah 2c 3d")  # box 1 shows its hand for the bonus
    tap(page, 'button[data-step="paid"]')
    assert "Round 1 paid" in page.inner_text("main")


def test_a_croupier_files_a_dispute_and_a_pit_boss_upholds_it(chromium: Any, page: Any,
                                                             server: Server) -> None:
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "pavel", "pit_boss")
    shots = Shots(page, "disputes")

    sign_in(page, server, "carla")
    play_a_round(page, server)
    shots("round-paid")
    page.click('nav a:has-text("Rounds")')
    page.wait_for_load_state("load")
    shots("rounds")
    # the round page judges the round's decisions (a first judging can take long on a busy
    # machine, as in test_judged_review.py); the later pages read it from the memo
    page.click('tr[data-round] a:has-text("Open")', timeout=JUDGING)
    page.wait_for_load_state("load")
    assert page.locator('tr[data-box="2"] [data-net="100"]').count() == 1
    assert page.locator(".timeline .dc.red").count() > 0  # hearts and diamonds in red
    assert page.locator(".timeline .dc.black").count() > 0
    assert page.evaluate(NO_SCROLL)
    shots("round")
    page.click('a[data-dispute-box="2"]')
    page.wait_for_load_state("load")
    page.fill('textarea[name="claim"]', "Says the dealer had a pair of kings, so the BET "
                                        "should have been paid")
    page.fill('input[name="claimed_amount"]', "200")
    page.fill('textarea[name="croupier_note"]', "Dealer's hand was King high; player insists")
    page.fill('input[name="camera"]', "C4")
    page.fill('input[name="camera_time"]', "21:14:05")
    assert page.evaluate(NO_SCROLL)
    shots("filing")
    record(page, 'button:has-text("File dispute")')
    assert "Dispute 1 filed on box 2" in page.inner_text(".flash-success")
    assert page.locator("[data-why-not]").count() == 1
    assert page.locator("form.decide").count() == 0
    shots("filed-croupier-view")

    forged = page.evaluate("""async () => {
        const token = document.querySelector('input[name="csrf_token"]').value;
        const body = new URLSearchParams({csrf_token: token, outcome: 'upheld',
                                          adjustment: '200', note: 'self-approved'});
        const resp = await fetch('/disputes/1/decisions', {method: 'POST', body});
        return resp.status;
    }""")
    assert forged == 403
    with db.session_scope(server.app, write=False) as dbs:
        assert disputes.get(dbs, 1).status == "open"
    page.click('button:has-text("Sign out")')
    page.wait_for_load_state("load")

    sign_in(page, server, "pavel")
    page.click('nav a:has-text("Disputes")')
    page.wait_for_load_state("load")
    row = page.locator('tr[data-dispute="1"]')
    assert row.count() == 1 and "RP 1 · 1 · box 2" in row.inner_text()
    assert row.locator("td.age").inner_text().endswith("min")
    assert page.evaluate(NO_SCROLL)
    shots("queue")
    row.locator('a:has-text("Review")').click(timeout=JUDGING)
    page.wait_for_load_state("load")
    assert page.get_attribute("[data-recompute]", "data-recompute") == "match"
    assert "matches the settlement as paid" in page.inner_text(".verdict")
    assert "camera C4 at 21:14:05" in page.inner_text(".claim-card")
    assert page.evaluate(NO_SCROLL)
    shots("review")
    page.check('input[name="outcome"][value="upheld"]')
    page.fill('input[name="adjustment"]', "100")
    page.fill('textarea[name="note"]', "Camera C4 shows the bet was placed before the reveal")
    shots("deciding")
    record(page, 'button:has-text("Record decision")')
    assert "Dispute 1 upheld: pay 100" in page.inner_text(".flash-success")
    assert "Upheld" in page.inner_text("h1")
    shots("upheld")
    with db.session_scope(server.app, write=False) as dbs:
        found = disputes.get(dbs, 1)
        corrections = disputes.corrections(dbs, round_id=found.round_id)
    assert found.status == "upheld" and found.latest is not None
    assert found.latest.decided_by_name == "Pavel"
    assert [(c.box, c.amount) for c in corrections] == [("2", 100)]
