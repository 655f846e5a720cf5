"""On the table screen in dealing order (defects 6-10, 13), through the test client.

Each test failed on main before the fix it covers (see the branch's report); the browser tests
in tests/browser/test_table_screen_floor.py tap the same things in Chromium.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.rounds import live
from tests.factories import make_table, record_step, start_round
from tests.web import taps
from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.test_live_pages import round_of, shown, start, step

#: the dealer's five cards: king high, no game (russian-classic qualifies with Ace-King)
NO_GAME = "kh qh 4s 5c 6d"
NO_GAME_TAPPED = ["Kh", "Qh", "4s", "5c", "6d"]  # as the screen sends them


def open_table(browser: Browser, app: Flask, **spec: Any) -> Any:
    table = arrange(app, make_table, **spec)
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return table


@pytest.fixture
def rp(browser: Browser, app: Flask, croupier: Any) -> Any:
    return open_table(browser, app, name="RP 9")


def screen_of(table: Any) -> str:
    return f"/tables/{table.id}/live"


def to_the_draw(browser: Browser, app: Flask, table: Any) -> None:
    """Box 1 bets, the dealer has no game, box 1 buys a game: the dealer draws."""
    start(browser, table, ante_1="100")
    for type, fields in (("bet", {"box": "1"}), ("reveal", {"cards": NO_GAME_TAPPED}),
                         ("buy_game", {"box": "1"})):
        assert step(browser, app, table, type, **fields).status_code == 201
    assert "dealer_draw" in {s.type for s in round_of(app, table).steps}


def refusal(resp: Any, status: int = 422) -> dict[str, Any]:
    """A refused tap: a problem body (the screen shows its detail beside ``field``)."""
    assert resp.status_code == status and resp.mimetype == "application/problem+json", text(resp)
    body: dict[str, Any] = resp.get_json()
    return body


# --- defect 9: a refusal is an answer, never a page; a resend stores nothing -------

def test_a_refused_step_answers_a_problem_and_sending_it_again_stores_nothing(
        browser: Browser, app: Flask, rp: Any) -> None:
    start(browser, rp, ante_1="100")
    before = round_of(app, rp)
    resent = []
    for _ in range(2):  # the same tap twice (a resend after no answer): the same refusal
        resp = step(browser, app, rp, "reveal", key="once", seq=before.last_seq,
                    cards=NO_GAME_TAPPED)  # box 1 has not decided
        resent.append(refusal(resp)["detail"])
    assert resent[0] == resent[1] and "box 1 has not bet or folded" in resent[0]
    page, rnd = taps.page_and_round(browser, rp.id)  # a reload: the round as it was, no message
    assert rnd is not None and rnd["last_seq"] == before.last_seq
    assert "box 1 has not bet or folded" not in page
    assert round_of(app, rp).events == before.events


def test_a_refused_start_answers_a_problem_for_the_refused_ante_and_starts_nothing(
        browser: Browser, app: Flask, rp: Any) -> None:
    resp = start(browser, rp, ante_1="100", ante_2="5")
    assert refusal(resp)["field"] == "ante_2"  # the screen marks that input, the rest stays
    page, rnd = taps.page_and_round(browser, rp.id)
    assert rnd is None and re.search(r'<form method="post" class="step bets" data-bets\s', page)


# --- defect 8: the refused value's message beside it, naming box and field ---------------------

def test_a_refused_ante_names_the_box_and_the_field_beside_its_input(
        browser: Browser, app: Flask, rp: Any) -> None:
    problem = refusal(start(browser, rp, ante_1="100", ante_2="5"))
    assert (problem["field"], problem["box"]) == ("ante_2", "2")
    assert problem["detail"] == "Box 2: ANTE 5 is below the table minimum 10"
    assert 'class="flash flash-error"' not in text(browser.get(screen_of(rp)))  # said once


def test_a_refused_insurance_names_the_box_the_step_and_the_amount_and_stays_offered(
        browser: Browser, app: Flask, rp: Any) -> None:
    start(browser, rp, ante_1="100")
    step(browser, app, rp, "bet", box="1")
    before = round_of(app, rp).events
    insure = taps.step_of(shown(browser, rp), "insure", "1")
    assert insure is not None
    resp = step(browser, app, rp, "insure", label=insure["said"], box="1", amount=5,
                cards=["As", "Ad", "Ah", "2c", "3d"])
    problem = refusal(resp)
    assert (problem["field"], problem["box"]) == ("amount", "1")
    assert problem["detail"].startswith("Box 1 · Insure: insurance must be from the table "
                                        "minimum 10")
    assert round_of(app, rp).events == before
    assert taps.step_of(shown(browser, rp), "insure", "1") is not None  # the form stays open


# --- defect 7: the free second replacement, one card at a time ---------------------------------

def test_the_dealer_draw_asks_for_one_card(browser: Browser, app: Flask, rp: Any) -> None:
    to_the_draw(browser, app, rp)
    draw = taps.step_of(shown(browser, rp), "dealer_draw")
    assert draw is not None
    (cards,) = draw["inputs"]
    # one card, recorded at its tap; a second only when the engine asks for it
    assert (cards["kind"], cards["count"], cards["most"], cards["auto"]) == ("cards", 1, 2, True)


def test_a_same_rank_card_asks_for_the_free_second_card_before_recording(
        browser: Browser, app: Flask, rp: Any) -> None:
    to_the_draw(browser, app, rp)
    before = len(round_of(app, rp).events)
    resp = step(browser, app, rp, "dealer_draw", cards=["Ks"])  # a king for the king: no game
    problem = refusal(resp)
    # the engine's own refusal: the screen keeps the card and asks for one more
    assert (problem["code"], problem["field"]) == ("card_count", "draw")
    assert "tap the free second card" in problem["detail"]
    assert len(round_of(app, rp).events) == before
    assert step(browser, app, rp, "dealer_draw", cards=["Ks", "9c"]).status_code == 201
    rnd = round_of(app, rp)
    assert rnd.events[-1].type == "dealer_draw" and rnd.settlement is not None
    assert rnd.events[-1].payload["cards"] == ["Ks", "9c"]  # both, and only both
    assert [c.code for c in rnd.settlement.dealer.new_cards] == ["9c", "Qh", "4s", "5c", "6d"]


def test_a_refused_draw_card_is_answered_with_its_message_on_the_cards_input(
        browser: Browser, app: Flask, rp: Any) -> None:
    to_the_draw(browser, app, rp)
    before = round_of(app, rp).events
    for typed, message in (("zz", "is not a card"), ("Kh", "Kh (card 1) is already")):
        problem = refusal(step(browser, app, rp, "dealer_draw", cards=[typed]))
        assert message in problem["detail"] and problem["field"] == "cards"
    assert round_of(app, rp).events == before


def test_a_card_beyond_what_the_bought_game_uses_is_refused(browser: Browser, app: Flask,
                                                            rp: Any) -> None:
    to_the_draw(browser, app, rp)
    before = round_of(app, rp).events
    # 7c replaces the king: one card
    problem = refusal(step(browser, app, rp, "dealer_draw", cards=["7c", "9c"]))
    assert "take the surplus card back" in problem["detail"]
    assert round_of(app, rp).events == before


# --- defect 10: Caribbean without buying: no game settles by itself ----------------------------

def test_caribbean_at_no_game_pays_without_a_tap(browser: Browser, app: Flask,
                                                 croupier: Any) -> None:
    cs = open_table(browser, app, name="CS 9", game="caribbean")
    start(browser, cs, ante_1="100", ante_2="50")
    for type, fields in (("deal_dealer", {"up": ["8c"]}), ("bet", {"box": "1"}),
                         ("bet", {"box": "2"}), ("reveal", {"cards": ["2s", "3d", "9h", "Jc"]})):
        resp = step(browser, app, cs, type, **fields)
        assert resp.status_code == 201, text(resp)
    rnd_shown = resp.get_json()["round"]
    assert rnd_shown["phase"] == "Pay out" and rnd_shown["can_pay"]  # "Paid ✓" is offered
    assert {s["type"] for s in rnd_shown["steps"]} & {"buy_game", "take_ante"} == set()
    rnd = round_of(app, cs)
    assert rnd.settlement is not None and [b.net for b in rnd.settlement.boxes] == [100, 50]
    assert [p["net"] for p in rnd_shown["payouts"]] == [100, 50]


# --- defect 6: Big/Small extra cards on the box; the split suggestion in dealing order ----------

def test_big_small_extra_cards_are_shown_on_the_box_once_entered(
        browser: Browser, app: Flask, croupier: Any) -> None:
    bs = open_table(browser, app, name="BS 9", game="split")
    start(browser, bs, ante_1="50")
    step(browser, app, bs, "deal_dealer", up=["9c"])
    resp = step(browser, app, bs, "extra", box="1", mode="bought", cards=["Ad", "7d"])
    assert resp.status_code == 201, text(resp)
    box = taps.box_of(resp.get_json()["round"], "1")
    assert box["extra"]["cards"] == ["Ad", "7d"]  # drawn as A♦ 7♦ on the box
    assert box["extra"]["said"] == "bought extra"


def test_the_split_suggestion_is_reachable_when_the_cards_come_in_dealing_order(
        browser: Browser, app: Flask, croupier: Any) -> None:
    bs = open_table(browser, app, name="BS 9", game="split")
    start(browser, bs, ante_1="50")
    step(browser, app, bs, "deal_dealer", up=["9c"])
    step(browser, app, bs, "extra", box="1", mode="bought")
    split = taps.step_of(shown(browser, bs), "split", "1")
    # the seven cards can be tapped (Big, then Small), then a suggestion asked
    assert split is not None and split["suggests"]
    assert [(i["name"], i["count"]) for i in split["inputs"]] == [("big", 5), ("small", 2)]
    before = len(round_of(app, bs).events)
    seven = ["As", "Kd", "7h", "4c", "2s", "Ad", "7d"]
    resp = taps.suggest(browser, round_of(app, bs).round.id, "split",
                        {"box": "1", "big": seven[:5], "small": seven[5:]})
    assert resp.status_code == 200 and len(round_of(app, bs).events) == before
    proposal = resp.get_json()
    assert "Suggested: Big Two pairs, aces and sevens" in proposal["said"]
    assert sorted(proposal["payload"]["small"]) == ["4c", "Kd"]
    assert sorted(proposal["payload"]["big"] + proposal["payload"]["small"]) == sorted(seven)
    assert step(browser, app, bs, "split", **proposal["payload"]).status_code == 201
    summary = round_of(app, bs).summary()["boxes"][0]
    assert sorted(summary["small"]) == ["4c", "Kd"]


# --- defect 13 on the table screen --------------------------------------------------------------

def test_money_has_thousands_separators_and_a_returned_box_reads_return(
        browser: Browser, app: Flask, croupier: Any) -> None:
    cs = open_table(browser, app, name="CS 9", game="caribbean", max_ante=1000)
    start(browser, cs, ante_1="600")
    resp = step(browser, app, cs, "deal_dealer", up=["8c"])
    bet = taps.step_of(resp.get_json()["round"], "bet", "1")
    assert bet is not None and (bet["said"], bet["amount_said"]) == ("Bet", "1,200")  # one name
    assert "Raise" not in text(resp)
    for type, fields in (("bet", {"box": "1"}), ("reveal", {"cards": ["Qs", "Qd", "5h", "6h"]}),
                         ("show", {"box": "1", "cards": ["Qh", "Qc", "5d", "6d", "8s"]})):
        resp = step(browser, app, cs, type, **fields)
        assert resp.status_code == 201, text(resp)
    rnd = resp.get_json()["round"]
    (line,) = rnd["payouts"]
    assert (line["action"], line["said"]) == ("RETURN", "RETURN") and "EVEN" not in text(resp)
    assert [(w["said"], w["amount_said"]) for w in line["wagers"]] == [("RETURN", "600"),
                                                                       ("RETURN", "1,200")]
    assert taps.box_of(rnd, "1")["stakes"] == "ANTE 600 · BET 1,200"


def test_the_api_refuses_a_surplus_dealer_card_too(app: Flask, croupier: Any) -> None:
    """The service refuses it, so every way in does (the JSON API records through it)."""
    from dealer_assist import db
    from dealer_assist.rules.errors import CardCountError

    table = arrange(app, make_table, name="RP 8")
    with db.session_scope(app) as dbs:
        from dealer_assist.services.shifts import shifts

        shifts.open_shift(dbs, table_id=table.id, user_id=croupier.id)
    with db.session_scope(app) as dbs:
        rnd = start_round(dbs, table_id=table.id, actor_id=croupier.id,
                               boxes=[live.BoxStake("1", 100, 0)], idempotency_key="k0")
        rid = rnd.round.id
        for i, (type, payload) in enumerate((("deal_dealer", {"up": []}), ("bet", {"box": "1"}),
                                             ("reveal", {"cards": NO_GAME}),
                                             ("buy_game", {"box": "1"}))):
            record_step(dbs, round_id=rid, actor_id=croupier.id, type=type,
                             payload=payload, idempotency_key=f"k{i + 1}")
    with db.session_scope(app) as dbs, pytest.raises(CardCountError, match="surplus"):
        record_step(dbs, round_id=rid, actor_id=croupier.id, type="dealer_draw",
                         payload={"cards": "7c 9c"}, idempotency_key="k9")
