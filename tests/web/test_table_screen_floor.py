"""Issue 10 on the table screen in dealing order (defects 6-10, 13), through the test client.

Each test failed on main before the fix it covers (see the branch's report); the browser tests
in tests/browser/test_table_screen_floor.py tap the same things in Chromium.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.rounds import live
from tests.factories import make_table
from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.test_live_pages import round_of, start, step

#: the dealer's five cards: king high, no game (russian-classic qualifies with Ace-King)
NO_GAME = "kh qh 4s 5c 6d"


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
    for type, fields in (("bet", {"box": "1"}), ("reveal", {"cards": NO_GAME}),
                         ("buy_game", {"box": "1"})):
        assert step(browser, app, table, type, **fields).status_code == 303
    assert "dealer_draw" in {s.type for s in round_of(app, table).steps}


# --- defect 9: redirect after POST, always ------------------------------------------------------

def test_a_refused_step_answers_a_redirect_to_the_screen_and_a_reload_submits_nothing(
        browser: Browser, app: Flask, rp: Any) -> None:
    start(browser, rp, ante_1="100")
    before = round_of(app, rp).events
    resp = step(browser, app, rp, "reveal", cards=NO_GAME)  # box 1 has not decided
    assert resp.status_code == 303 and resp.headers["Location"].endswith(screen_of(rp))
    first = text(browser.get(screen_of(rp)))
    assert "box 1 has not bet or folded" in first
    again = text(browser.get(screen_of(rp)))  # a reload: a GET, the message shown once
    assert "box 1 has not bet or folded" not in again
    assert round_of(app, rp).events == before


def test_a_refused_start_redirects_and_keeps_the_bets_typed(browser: Browser, app: Flask,
                                                            rp: Any) -> None:
    resp = start(browser, rp, ante_1="100", ante_2="5")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(screen_of(rp))
    page = text(browser.get(screen_of(rp)))
    assert 'name="ante_1" inputmode="numeric"' in page and 'value="100"' in page
    with_value = re.search(r'name="ante_2"[^>]*aria-invalid="true"[^>]*value="5"', page)
    assert with_value, "the refused ANTE is highlighted and kept"


# --- defect 8: the refused value stays, its message beside it, naming box and field ------------

def test_a_refused_ante_names_the_box_and_the_field_beside_its_input(
        browser: Browser, app: Flask, rp: Any) -> None:
    start(browser, rp, ante_1="100", ante_2="5")
    page = text(browser.get(screen_of(rp)))
    msg = re.search(r'<p class="field-msg error" id="msg-ante_2" data-error-for="ante_2" '
                    r'role="alert">([^<]+)</p>', page)
    assert msg and msg.group(1) == "Box 2: ANTE 5 is below the table minimum 10"
    assert 'class="flash flash-error"' not in page  # said once, where the value is


def test_a_refused_insurance_keeps_the_form_open_with_the_typed_amount(
        browser: Browser, app: Flask, rp: Any) -> None:
    start(browser, rp, ante_1="100")
    step(browser, app, rp, "bet", box="1")
    resp = step(browser, app, rp, "insure", box="1", amount="5", cards="as ad ah 2c 3d")
    assert resp.status_code == 303
    page = text(browser.get(screen_of(rp)))
    assert 'data-entry="insure"' in page and "Box 1: Insure" in page  # the form is open
    assert re.search(r'name="amount"[^>]*aria-invalid="true"[^>]*value="5"', page)
    assert 'value="as ad ah 2c 3d"' in page
    msg = re.search(r'data-error-for="amount" role="alert">([^<]+)<', page)
    assert msg and msg.group(1).startswith("Box 1 · Insure: insurance must be from the table "
                                           "minimum 10")


# --- defect 7: the free second replacement, one card at a time ---------------------------------

def test_the_dealer_draw_asks_for_one_card(browser: Browser, app: Flask, rp: Any) -> None:
    to_the_draw(browser, app, rp)
    page = text(browser.get(screen_of(rp)))
    assert 'data-entry="dealer_draw"' in page
    assert re.search(r'id="cards"[^>]*data-max="1"', page) and "data-auto" in page


def test_a_same_rank_card_asks_for_the_free_second_card_before_recording(
        browser: Browser, app: Flask, rp: Any) -> None:
    to_the_draw(browser, app, rp)
    before = len(round_of(app, rp).events)
    resp = step(browser, app, rp, "dealer_draw", cards="ks")  # a king for the king: no game
    assert resp.status_code == 303 and len(round_of(app, rp).events) == before
    page = text(browser.get(screen_of(rp)))
    assert re.search(r'id="cards"[^>]*data-max="2"', page) and 'value="ks"' in page
    assert "the dealer gets a free second card" in page
    assert step(browser, app, rp, "dealer_draw", cards="ks 9c").status_code == 303
    rnd = round_of(app, rp)
    assert rnd.events[-1].type == "dealer_draw" and rnd.settlement is not None
    assert rnd.events[-1].payload["cards"] == ["Ks", "9c"]  # both, and only both
    assert [c.code for c in rnd.settlement.dealer.new_cards] == ["9c", "Qh", "4s", "5c", "6d"]


def test_a_refused_draw_card_is_shown_again_with_its_message(browser: Browser, app: Flask,
                                                             rp: Any) -> None:
    to_the_draw(browser, app, rp)
    for typed, message in (("zz", "is not a card"), ("kh", "Kh (card 1) is already")):
        assert step(browser, app, rp, "dealer_draw", cards=typed).status_code == 303
        resp = browser.get(screen_of(rp))
        assert resp.status_code == 200 and message in text(resp)
        assert f'value="{typed}"' in text(resp)


def test_a_card_beyond_what_the_bought_game_uses_is_refused(browser: Browser, app: Flask,
                                                            rp: Any) -> None:
    to_the_draw(browser, app, rp)
    before = round_of(app, rp).events
    step(browser, app, rp, "dealer_draw", cards="7c 9c")  # 7c replaces the king: one card
    page = text(browser.get(screen_of(rp)))
    assert "take the surplus card back" in page
    assert round_of(app, rp).events == before


# --- defect 10: Caribbean without buying: no game settles by itself ----------------------------

def test_caribbean_at_no_game_pays_without_a_tap(browser: Browser, app: Flask,
                                                 croupier: Any) -> None:
    cs = open_table(browser, app, name="CS 9", game="caribbean")
    start(browser, cs, ante_1="100", ante_2="50")
    for type, fields in (("deal_dealer", {"cards": "8c"}), ("bet", {"box": "1"}),
                         ("bet", {"box": "2"}), ("reveal", {"cards": "2s 3d 9h jc"})):
        assert step(browser, app, cs, type, **fields).status_code == 303
    page = text(browser.get(screen_of(cs)))
    assert "Pay out" in page and "Paid ✓" in page
    assert "buy a game" not in page and 'data-step="take_ante"' not in page
    rnd = round_of(app, cs)
    assert rnd.settlement is not None and [b.net for b in rnd.settlement.boxes] == [100, 50]


# --- defect 6: Big/Small extra cards on the box; the split suggestion in dealing order ----------

def test_big_small_extra_cards_are_shown_on_the_box_once_entered(
        browser: Browser, app: Flask, croupier: Any) -> None:
    bs = open_table(browser, app, name="BS 9", game="split")
    start(browser, bs, ante_1="50")
    step(browser, app, bs, "deal_dealer", cards="9c")
    assert step(browser, app, bs, "extra", box="1", mode="bought",
                cards="ad 7d").status_code == 303
    page = text(browser.get(screen_of(bs)))
    extra = re.search(r'<p class="cards extra" data-extra-cards>(.*?)</p>', page, re.S)
    assert extra and "A♦" in extra.group(1) and "7♦" in extra.group(1)


def test_the_split_suggestion_is_reachable_when_the_cards_come_in_dealing_order(
        browser: Browser, app: Flask, croupier: Any) -> None:
    bs = open_table(browser, app, name="BS 9", game="split")
    start(browser, bs, ante_1="50")
    step(browser, app, bs, "deal_dealer", cards="9c")
    step(browser, app, bs, "extra", box="1", mode="bought")
    page = text(browser.get(f"{screen_of(bs)}?do=split&box=1"))
    assert "data-suggest" in page  # the seven cards can be tapped, then a suggestion asked
    before = len(round_of(app, bs).events)
    resp = step(browser, app, bs, "split", box="1", cards="as kd 7h 4c 2s ad 7d",
                suggest="1")
    assert resp.status_code == 303 and len(round_of(app, bs).events) == before
    page = text(browser.get(screen_of(bs)))
    assert "Suggested: Big Two pairs, aces and sevens" in page and "Accept split" in page
    cards = re.search(r'id="cards"[^>]*value="([^"]+)"', page, re.S)
    assert cards is not None
    seven = cards.group(1).split()
    assert sorted(seven[5:]) == ["4c", "Kd"]  # the Small Hand last, as the field reads it
    assert step(browser, app, bs, "split", box="1", cards=" ".join(seven)).status_code == 303
    summary = round_of(app, bs).summary()["boxes"][0]
    assert sorted(summary["small"]) == ["4c", "Kd"]


# --- defect 13 on the table screen --------------------------------------------------------------

def test_money_has_thousands_separators_and_a_returned_box_reads_return(
        browser: Browser, app: Flask, croupier: Any) -> None:
    cs = open_table(browser, app, name="CS 9", game="caribbean", max_ante=1000)
    start(browser, cs, ante_1="600")
    step(browser, app, cs, "deal_dealer", cards="8c")
    page = text(browser.get(screen_of(cs)))
    assert "ANTE 10–1,000" not in page  # the bets form is gone: now the round
    assert ">Bet 1,200</button>" in page and "Raise" not in page  # one name: BET
    for type, fields in (("bet", {"box": "1"}), ("reveal", {"cards": "qs qd 5h 6h"}),
                         ("show", {"box": "1", "cards": "qh qc 5d 6d 8s"})):
        assert step(browser, app, cs, type, **fields).status_code == 303
    page = text(browser.get(screen_of(cs)))
    assert '<span class="net">RETURN</span>' in page and "EVEN" not in page
    assert "RETURN 1,200" in page and "RETURN 600" in page
    assert "BET 1,200" in page


def test_the_api_refuses_a_surplus_dealer_card_too(app: Flask, croupier: Any) -> None:
    """The service refuses it, so every way in does (the JSON API records through it)."""
    from dealer_assist import db
    from dealer_assist.rules.errors import CardCountError

    table = arrange(app, make_table, name="RP 8")
    with db.session_scope(app) as dbs:
        from dealer_assist.services.shifts import shifts

        shifts.open_shift(dbs, table_id=table.id, user_id=croupier.id)
    with db.session_scope(app) as dbs:
        rnd = live.start_round(dbs, table_id=table.id, actor_id=croupier.id,
                               boxes=[live.BoxStake("1", 100, 0)], idempotency_key="k0")
        rid = rnd.round.id
        for i, (type, payload) in enumerate((("deal_dealer", {"up": []}), ("bet", {"box": "1"}),
                                             ("reveal", {"cards": NO_GAME}),
                                             ("buy_game", {"box": "1"}))):
            live.record_step(dbs, round_id=rid, actor_id=croupier.id, type=type,
                             payload=payload, idempotency_key=f"k{i + 1}")
    with db.session_scope(app) as dbs, pytest.raises(CardCountError, match="surplus"):
        live.record_step(dbs, round_id=rid, actor_id=croupier.id, type="dealer_draw",
                         payload={"cards": "7c 9c"}, idempotency_key="k9")
