"""Every other screen it changed, in real Chromium at 1024x768 and 768x1024, in English
and Russian, looked at as the person who uses it: the tables list (poker tables read as the floor
says them), Table setup's way to a poker table, the new poker table form, a stud showdown (pots
with a colon, Muck only where allowed), a round's page (fees COLLECTED, the history's card
count), a shift manager's review (no escalation), the approvals (reasons in the reader's words),
the shift report (percentages by locale, no developer command), the password form. Each page: no
sideways scroll, no word wider than its button; photographed into
``test-artifacts/browser/<test name>/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import User
from dealer_assist.services.disputes import disputes
from dealer_assist.services.rounds import live, poker_hands, voids
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.browser.conftest import Server, Shots
from tests.browser.test_disputes import JUDGING, NO_SCROLL, sign_in
from tests.browser.test_floor_screens import CLIPPED
from tests.factories import make_user, record_step, start_round
from tests.web.test_poker_room_pages import TO_SHOWDOWN

pytestmark = pytest.mark.browser


def _round(dbs: Any, table_id: int, carla: int, key: str,
           steps: list[tuple[str, dict[str, Any]]]) -> int:
    rnd = start_round(dbs, table_id=table_id, actor_id=carla,
                           boxes=[live.BoxStake("1", 20), live.BoxStake("2", 20)],
                           idempotency_key=key)
    for n, (type, payload) in enumerate(steps):
        record_step(dbs, round_id=rnd.round.id, actor_id=carla, type=type, payload=payload,
                         idempotency_key=f"{key}-{n}")
    return rnd.round.id


def _floor(server: Server, lang: str) -> dict[str, int]:
    """A paid Russian round with fees, its dispute escalated; a redeal waiting for a pit boss;
    two poker tables, the stud one at its showdown."""
    with db.session_scope(server.app) as dbs:
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        carla.language = lang
        ids = {name: make_user(dbs, name, role, language=lang).id for name, role in (
            ("root", "admin"), ("pavel", "pit_boss"), ("maria", "shift_manager"),
            ("dora", "croupier"))}
        rp = server.tables["russian"]
        paid = _round(dbs, rp, carla.id, "r1", [
            ("deal_dealer", {"up": []}), ("exchange", {"box": "1", "count": 2}),
            ("bet", {"box": "1"}), ("bet", {"box": "2"}),
            ("reveal", {"cards": "Qh 9c 4s 5c 2d"}), ("buy_game", {"box": "1"}),
            ("take_ante", {"box": "2"}), ("dealer_draw", {"cards": "Qs 4d"}),
            ("show", {"box": "1", "cards": "Kh Kd 7s 7d 3c"}), ("paid", {})])
        filed = disputes.file_dispute(dbs, round_id=paid, box="1", claim="Paid short",
                                      claimed_amount=40, croupier_note="", actor_id=carla.id)
        disputes.decide(dbs, dispute_id=filed.id, outcome="escalated", note="over my limit",
                        actor_id=ids["pavel"])
        _round(dbs, rp, carla.id, "r2", [("deal_dealer", {"up": []}),
                                         ("redeal", {"box": "2", "cards_received": 6})])
        stud = poker_tables.open_table(dbs, name="AS 1", profile="americana-limit",
                                       stakes={"ante": 10}, seat_count=6)
        poker_tables.open_table(dbs, name="DR 1", profile="draw32-pot-limit",
                                stakes={"small_blind": 5}, seat_count=5)
        # Dora deals the poker table: Carla's round at RP 1 waits for its void, and a dealer
        # deals one round at a time
        shifts.open_shift(dbs, table_id=stud.id, user_id=ids["dora"])
        for seat, (name, chips) in zip("1234", (("Ann", 1000), ("Masha", 30), ("Cy", 1000),
                                                ("Dee", 1000)), strict=True):
            poker_tables.seat_player(dbs, stud.id, seat=seat, player=name, buy_in=chips)
        hand = poker_hands.start_hand(dbs, table_id=stud.id, user_id=ids["dora"])
        for n, action in enumerate(TO_SHOWDOWN):
            hand = poker_hands.record(dbs, round_id=hand.round.id, user_id=ids["dora"],
                                      action=action, idempotency_key=f"p{n}")
        shift = shifts.open_shift_of(dbs, rp)
        assert shift is not None
        assert voids.changes(dbs, status=voids.PENDING)
        return {"round": paid, "dispute": filed.id, "stud": stud.id, "shift": shift.id}


def _as(page: Any, server: Server, username: str) -> None:
    page.context.clear_cookies()  # a shared tablet: the next person signs in
    sign_in(page, server, username)


def _look(page: Any, shots: Shots, url: str, label: str) -> str:
    page.goto(url, timeout=JUDGING)  # a round's page and a review judge its decisions
    page.wait_for_load_state("load")
    shots(label)
    assert page.evaluate(NO_SCROLL), f"{label} scrolls sideways"
    clipped = page.evaluate(CLIPPED, "button, a.button, input[type=submit]")
    assert not clipped, f"{label}: words wider than their button: {clipped}"
    return str(page.inner_text("body"))


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["1024x768", "768x1024"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_changed_screen_at_both_sizes_in_both_languages(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    ids = _floor(server, lang)
    ru = lang == "ru"
    _as(page, server, "carla")
    home = _look(page, shots, f"{server.url}/", "tables")
    assert ("Ante 10 / bring-in 20 · 6 seats" in home) or ("Анте 10 / бринг-ин 20 · 6 мест"
                                                            in home)
    showdown = _look(page, shots, f"{server.url}/poker/{ids['stud']}", "stud-showdown")
    assert ("Side pot 1: 60" in showdown) or ("Побочный банк 1: 60" in showdown)
    assert page.locator('button[data-act="muck"]').count() == 0  # seat 2 shows first
    paid = _look(page, shots, f"{server.url}/rounds/{ids['round']}", "round-page")
    assert ("ВЗЯТО 20" if ru else "COLLECTED 20") in paid
    _look(page, shots, f"{server.url}/password", "password")
    _as(page, server, "maria")
    review = _look(page, shots, f"{server.url}/disputes/{ids['dispute']}", "review-by-manager")
    assert page.locator('input[name="outcome"][value="escalated"]').count() == 0
    assert review
    report = _look(page, shots, f"{server.url}/reports/shifts/{ids['shift']}", "report")
    assert "flask" not in report
    _as(page, server, "pavel")
    approvals = _look(page, shots, f"{server.url}/changes", "approvals")
    assert ("пересдача: бокс 2 получил карт: 6" if ru else "redeal: box 2 received 6 cards") \
        in approvals
    _as(page, server, "root")
    setup = _look(page, shots, f"{server.url}/admin/tables", "table-setup")
    assert page.locator("a[data-new-poker-table]").count() == 1 and setup
    _look(page, shots, f"{server.url}/poker/new", "new-poker-table")
