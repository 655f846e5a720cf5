"""The wording and layout items in real Chromium, landscape 1024x768 and portrait
768x1024, in English and Russian, photographed into ``test-artifacts/browser/<test name>/``:

* item 21: the dealer's free second card ("the first is kept" said the opposite), Oasis's BET
  (not "raise") paid, "Hands paid by category" reconciled, the rating CSV's win said to be the
  house's;
* item 4: a poker table's own figures under Table setup and its own Edit form;
* item 12: a box that names no player is "Box 1" among the decisions judged;
* item 14: a hold report with no hold known does not say the holds are inside the band;
* item 15: the Oasis round's history shows the dealer's up card.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.services.rounds import live
from dealer_assist.services.tables import poker as poker_tables
from tests.browser.conftest import Server, Shots
from tests.browser.test_floor_screens import LANGS, SIZES, no_clipped_words, speak
from tests.browser.test_live_round import Table
from tests.factories import PASSWORD, make_user, pay_round, record_step, start_round

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"draw": "The first new card is replaced too, free: tap the free second card",
           "bet": "BET paid 7:1", "up": "face up", "box": "Box 1", "other": "Other wins", "no_hold":
           "No hold to compare with the band yet", "csv": "win is the house's win",
           "stakes": "Ante 10 / bring-in 20", "seats": "6 seats", "edit": "Bring-in"},
    "ru": {"draw": "Первая новая карта тоже заменяется, бесплатно: нажмите бесплатную вторую карту",
           "bet": "БЕТ оплачен 7:1", "up": "открыта", "box": "Бокс 1",
           "other": "Прочие выигрыши", "no_hold": "Пока нечего сравнивать с коридором",
           "csv": "выигрыш заведения у игрока", "stakes": "Анте 10 / бринг-ин 20",
           "seats": "6 мест", "edit": "Бринг-ин"},
}


def _arrange(server: Server, lang: str) -> dict[str, int]:
    """The people (in the language under test), a paid Russian round with a full house and a
    bonus (the report's hands paid and decisions), a paid Oasis round, a poker table."""
    with db.session_scope(server.app) as dbs:
        carla = next(u for u in live_users(dbs) if u[1] == "carla")[0]
        for name, role in (("root", "admin"), ("pavel", "pit_boss"), ("maria", "shift_manager")):
            make_user(dbs, name, role, language=lang)
        ids = {}
        for game, steps in (
                ("russian", (("deal_box", {"box": "1", "cards": "as ad ah 9c 9d"}),
                             ("deal_dealer", {"cards": "kh ks 4s 5c 6d"}),
                             ("bet", {"box": "1"}), ("reveal", {}))),
                ("oasis", (("deal_dealer", {"up": ["Kh"]}), ("bet", {"box": "1"}),
                           ("reveal", {"cards": ["Kd", "4s", "5c", "6d"]}),
                           ("show", {"box": "1", "cards": ["As", "Ad", "Ah", "9c", "9d"]})))):
            rnd = start_round(dbs, table_id=server.tables[game], actor_id=carla,
                                   boxes=[live.BoxStake("1", 100, 50 if game == "russian"
                                                        else 0)],
                                   idempotency_key=f"{game}-start")
            for n, (type, payload) in enumerate(steps):
                record_step(dbs, round_id=rnd.round.id, actor_id=carla, type=type,
                                 payload=payload, idempotency_key=f"{game}-{n}")
            pay_round(dbs, round_id=rnd.round.id, actor_id=carla, idempotency_key=f"{game}-p")
            ids[game] = rnd.round.id
            ids[f"{game}-shift"] = rnd.round.shift_id
        ids["poker"] = poker_tables.open_table(dbs, name="AM 1", profile="americana-limit",
                                               stakes={"ante": 10}, seat_count=6).id
    return ids


def live_users(dbs: Any) -> list[tuple[int, str]]:
    from sqlmodel import select

    from dealer_assist.models import User
    return [(u.id, u.username) for u in dbs.exec(select(User)).all()]


def sign_in(page: Any, server: Server, username: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/")


def look(page: Any, shots: Shots, label: str) -> str:
    page.wait_for_load_state("load")
    shots(label)
    layout = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    no_clipped_words(page, label)
    text: str = page.inner_text("body")
    return text if layout[0] <= layout[1] or label.startswith("report") else \
        pytest.fail(f"{label}: horizontal scroll {layout}")


@SIZES
@LANGS
def test_the_wording_and_layout_items_read_right_in_both_languages(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    w = WORDS[lang]
    ids = _arrange(server, lang)
    # item 21: the free second card, on the table screen
    sign_in(page, server, "carla")
    speak(page, lang)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t = Table(page, shots)
    t.type('input[name="ante_1"]', "100")
    t.tap('button[data-step="start"]', "started")
    t.box("1", "bet", "box-1-bet")
    t.cards("Qh Jd 4d 5h 6c", "revealed", auto=True)
    t.box("1", "buy_game", "box-1-buys")
    t.tap('.card-grid button[data-card="Qs"]')  # the queen for the queen: no game yet
    assert w["draw"] in " ".join(look(page, shots, "draw-free-second-card").split())
    # the pit: the report, the hold report, the Oasis round, the players page
    sign_in(page, server, "pavel")
    page.goto(f"{server.url}/reports/shifts/{ids['russian-shift']}", timeout=180_000)
    report = look(page, shots, "report-shift")
    assert w["other"] in report and w["box"] in report
    page.goto(f"{server.url}/cage/hold")
    assert w["no_hold"] in look(page, shots, "report-hold")
    page.goto(f"{server.url}/rounds/{ids['oasis']}")
    history = look(page, shots, "oasis-round")
    assert w["up"] in history and w["bet"] in history
    page.goto(f"{server.url}/players/")
    assert w["csv"] in look(page, shots, "players")
    # item 4: the poker table under Table setup and its own form
    sign_in(page, server, "root")
    page.goto(f"{server.url}/admin/tables")
    setup = " ".join(look(page, shots, "table-setup").split())
    assert w["stakes"] in setup and w["seats"] in setup
    page.goto(f"{server.url}/admin/tables/{ids['poker']}")
    form = look(page, shots, "poker-table-form")
    assert w["edit"] in form and page.locator('select[name="game"]').count() == 0
