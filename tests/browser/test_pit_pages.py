"""The pit boss's and the shift manager's first pages with something waiting, and opening a
shift with its opening count, in real headless Chromium at 1024x768 and 768x1024.

Screenshots: ``test-artifacts/browser/<test name>/``.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from sqlmodel import col, select

from dealer_assist import db
from dealer_assist.models import Round
from dealer_assist.rules.games.registry import start
from dealer_assist.services.disputes import disputes
from dealer_assist.services.rounds import voids
from dealer_assist.services.shifts import shifts
from tests.browser.conftest import Server, Shots
from tests.browser.test_disputes import NO_SCROLL, sign_in
from tests.factories import PIN, make_table, make_user
from tests.services.conftest_reports import T0, Floor, play_round, store_round

pytestmark = pytest.mark.browser
SIZES = [(1024, 768), (768, 1024)]


def _waiting_items(server: Server) -> None:
    """On RP 1: three paid rounds; a dispute escalated to the shift manager, an open one, and a
    pending void (the table is frozen). A Caribbean table without a shift."""
    with db.session_scope(server.app) as dbs:
        people = {n: make_user(dbs, n, r).id for n, r in (
            ("pavel", "pit_boss"), ("maria", "shift_manager"), ("dimitri", "croupier"))}
        carla = dbs.exec(select(Round.id)).first()  # no rounds yet
        assert carla is None
        table_id = server.tables["russian"]
        shift = shifts.open_shift_of(dbs, table_id)
        assert shift is not None
        from dealer_assist.services.tables import tables

        table = tables.get_table(dbs, table_id)
        croupier = shift.opened_by
        floor = Floor(croupier, people["dimitri"], people["pavel"], people["maria"], 0,
                      table_id, shift.id, table.profile,
                      (table.min_ante, table.max_ante, table.max_payout))
        engine, empty = start("russian", table.profile, *floor.limits)
        rng = random.Random(5)
        for i in range(3):
            store_round(dbs, floor, play_round(rng, engine, empty, floor.limits, boxes=3,
                                               void_rate=0.0, undo_rate=0.0),
                        actor_id=croupier, at=T0 + timedelta(minutes=5 * i))
        ids = list(dbs.exec(select(Round.id).where(Round.shift_id == shift.id)
                            .order_by(col(Round.number))).all())
        one = disputes.file_dispute(dbs, round_id=ids[0], box="1", claim="Paid short by 100",
                                    claimed_amount=100, croupier_note="", actor_id=croupier)
        disputes.decide(dbs, dispute_id=one.id, outcome="escalated",
                        note="above my authority", adjustment=0, actor_id=people["pavel"])
        disputes.file_dispute(dbs, round_id=ids[1], box="1", claim="My flush was paid as a "
                              "straight", claimed_amount=40, croupier_note="",
                              actor_id=croupier)
        voids.request_change(dbs, round_id=ids[2], kind="void", reason="Misdeal: a card "
                             "exposed", actor_id=croupier)
        # a table with no shift yet (the server fixture opens one at each of its tables)
        server.tables["unopened"] = make_table(dbs, name="CS 2", game="caribbean", boxes=5).id


@pytest.mark.parametrize("page", SIZES, indirect=True, ids=["landscape", "portrait"])
@pytest.mark.parametrize("who", ["pavel", "maria"])
def test_the_pit_sees_what_waits_for_it_first(page: Any, server: Server, shots: Shots,
                                              who: str) -> None:
    _waiting_items(server)
    sign_in(page, server, who)
    assert page.is_visible("section.waiting")
    assert page.is_visible("[data-frozen]")
    badge = page.inner_text("a[data-disputes] .badge")
    assert badge == "1"
    shots("first-page")
    assert page.evaluate(NO_SCROLL), "first-page scrolls sideways"
    page.click("a[data-disputes]")
    page.wait_for_load_state("load")
    queue = page.inner_text("main")
    assert "waiting for you (1)" in queue
    if who == "maria":
        assert "Paid short by 100" in queue and "flush was paid" not in queue
    else:
        assert "flush was paid" in queue and "Paid short by 100" not in queue
    shots("disputes")
    assert page.evaluate(NO_SCROLL), "disputes scrolls sideways"
    page.click("a[data-approvals]")
    page.wait_for_load_state("load")
    assert "RP 1" in page.inner_text("section.change h2")
    shots("approvals")
    assert page.evaluate(NO_SCROLL), "approvals scrolls sideways"


@pytest.mark.parametrize("page", SIZES, indirect=True, ids=["landscape", "portrait"])
def test_a_pit_boss_opens_a_shift_with_its_opening_count(page: Any, server: Server,
                                                         shots: Shots) -> None:
    _waiting_items(server)
    sign_in(page, server, "pavel")
    page.goto(f"{server.url}/tables/{server.tables['unopened']}")  # CS 2, no shift yet
    assert "count the float" in page.inner_text("h2").lower()
    assert page.get_attribute('input[name="chips.25"]', "inputmode") == "numeric"
    page.fill('input[name="chips.25"]', "80")
    page.fill('input[name="chips.100"]', "40")
    assert page.inner_text("[data-chip-total]") == "6,000"
    shots("opening-count")
    assert page.evaluate(NO_SCROLL), "opening-count scrolls sideways"
    page.select_option('select[name="croupier_id"]', label="Dimitri")
    page.fill('input[name="croupier_pin"]', PIN)  # the croupier co-signs with his PIN
    page.click("form.open-shift button[type=submit]")
    page.wait_for_load_state("load")
    assert "Shift opened" in page.inner_text("main")
    page.goto(f"{server.url}/tables/{server.tables['unopened']}")
    page.click("text=Inventory, fills and credits")
    page.wait_for_load_state("load")
    assert "6,000" in page.inner_text("main")
    shots("inventory")
    assert page.evaluate(NO_SCROLL), "inventory scrolls sideways"
