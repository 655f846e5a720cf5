"""A disputed round's review shows each shown box's decisions against the best option,
in real headless Chromium, portrait 768x1024 and landscape 1024x768, in English and Russian.

The round is recorded as a card-reading shoe would (all cards first) through the services: box
1 holds two pairs and buys the dealer's game, box 2 bets a queen-high hand and takes the ANTE;
a dispute is filed on box 2 and a pit boss opens its review. Screenshots:
``test-artifacts/browser/judged-review-<size>-<language>/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import GameTable, Shift, User
from dealer_assist.rules.games.registry import start
from dealer_assist.services.disputes import disputes
from tests.browser.conftest import Server, Shots
from tests.browser.test_disputes import NO_SCROLL, sign_in
from tests.factories import make_user
from tests.services.conftest_reports import T0, Floor, Played, store_round, table_step

pytestmark = pytest.mark.browser
STEPS: list[tuple[str, dict[str, Any]]] = [
    ("place", {"boxes": [{"box": "1", "seat": "1", "ante": 100},
                         {"box": "2", "seat": "2", "ante": 100}]}),
    ("deal_box", {"box": "1", "cards": ["As", "Ad", "7c", "7h", "Ks"]}),
    ("deal_box", {"box": "2", "cards": ["2s", "5d", "9h", "Jc", "Qd"]}),
    ("deal_dealer", {"cards": ["Kh", "Qh", "4s", "5c", "6d"]}),
    ("bet", {"box": "1"}), ("bet", {"box": "2"}), ("reveal", {}),
    ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}),
    ("dealer_draw", {"cards": ["3h", "8c"]}),
]


def _record(server: Server) -> int:
    engine, empty = start("russian", "russian-classic", 10, 1000, 50000)
    state, events = empty, []
    for kind, payload in STEPS:
        state, stored = table_step(engine, state, kind, payload)
        events.append((kind, stored))
    events.append(("paid", {}))
    with db.session_scope(server.app) as dbs:
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        table = dbs.get(GameTable, server.tables["russian"])
        shift = dbs.exec(select(Shift).where(Shift.table_id == table.id)).one()
        floor = Floor(carla.id, carla.id, 0, 0, 0, table.id, shift.id, table.profile)
        rid = store_round(dbs, floor, Played(events, engine.settle(state).to_dict()),
                          actor_id=carla.id, at=T0)
        disputes.file_dispute(dbs, round_id=rid, box="2", claim="Says he should have folded",
                              claimed_amount=100, croupier_note="", actor_id=carla.id)
        make_user(dbs, "pavel", "pit_boss")
        return disputes.queue(dbs, round_id=rid)[0].id


@pytest.mark.parametrize("page", [(768, 1024), (1024, 768)], indirect=True,
                         ids=["portrait", "landscape"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_review_shows_each_shown_boxs_decisions_against_the_best_option(
        page: Any, server: Server, language: str) -> None:
    dispute_id = _record(server)
    with db.session_scope(server.app) as dbs:
        pavel = dbs.exec(select(User).where(User.username == "pavel")).one()
        pavel.language = language
    size = page.viewport_size
    shots = Shots(page, f"judged-review-{size['width']}x{size['height']}-{language}")
    sign_in(page, server, "pavel")
    # the first judgement in a process builds the lab's tables (seconds): a longer wait
    page.goto(f"{server.url}/disputes/{dispute_id}", timeout=300_000)
    page.wait_for_load_state("load")
    section = page.locator("[data-judged]")
    section.scroll_into_view_if_needed()
    rows = section.locator("table.judged tbody tr")
    stages = {(r.get_attribute("data-box"), r.get_attribute("data-stage"))
              for r in rows.all()}
    assert {("1", "deal"), ("1", "no_game"), ("2", "deal"), ("2", "no_game")} <= stages
    box2_deal = section.locator('tr[data-box="2"][data-stage="deal"]')
    assert "differs" in (box2_deal.get_attribute("class") or "")
    text = section.inner_text()
    if language == "ru":
        assert "Решения против лучшей стратегии" in text and "Фолд" in text
    else:
        assert "Decisions against the best strategy" in text and "Fold" in text
    buy = section.locator('tr[data-box="1"][data-stage="no_game"]').inner_text()
    assert ("Купить игру" if language == "ru" else "Buy a game") in buy
    shots("review")
    assert page.evaluate(NO_SCROLL)
    section.screenshot(path=str(shots.dir / "decisions.png"))
