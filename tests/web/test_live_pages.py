"""The table screen through the Flask test client (one tap, one request): steps,
refusals (a problem naming the box and the field, nothing changed), a redeal waiting for a pit
boss, and the way from a paid round to its dispute page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist import db
from dealer_assist.rules.settlement import at_showdown
from dealer_assist.services.rounds import live, voids
from tests.factories import make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, opening_form, text


@pytest.fixture
def screen(browser: Browser, app: Flask, croupier: Any, table: Any) -> str:
    """Signed in as a croupier, shift open (with its opening count): the table screen's URL."""
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return f"/tables/{table.id}/live"


def start(browser: Browser, table: Any, key: str | None = None, **antes: str) -> Any:
    return taps.start(browser, table.id, key,
                      **(antes or {"ante_1": "100", "bonus_1": "50", "ante_2": "100"}))


def round_of(app: Flask, table: Any) -> live.LiveRound:
    with db.session_scope(app) as dbs:
        rid = live.open_round_id(dbs, table.id)
        assert rid is not None
        return live.load(dbs, rid)


def step(browser: Browser, app: Flask, table: Any, type: str, key: str | None = None,
         seq: int | None = None, label: str | None = None, **payload: Any) -> Any:
    """One tap on the open round, sent as the screen sends it (JSON, CSRF header)."""
    rnd = round_of(app, table)
    return taps.tap(browser, rnd.round.id, type, payload, key=key,
                    seq=rnd.last_seq if seq is None else seq, label=label)


#: the dealer's five cards, turned over at the reveal (no game: no Ace-King)
DEALER = ["Kh", "Qh", "4s", "5c", "6d"]
BOX_1 = ["As", "Ad", "Ah", "2c", "3d"]


def deal(browser: Browser, app: Flask, table: Any) -> None:
    """Russian poker deals no dealer card face up: "Start round" recorded the deal too."""
    assert [e.type for e in round_of(app, table).events] == ["place", "deal_dealer"]


def shown(browser: Browser, table: Any) -> dict[str, Any]:
    """The round the table screen embeds for its renderer."""
    rnd = taps.round_data(browser, table.id)
    assert rnd is not None, "no round on the screen"
    return rnd


def test_the_table_screen_starts_a_round_and_asks_for_no_card_before_the_decisions(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    page = text(browser.get(screen))
    assert "Start round" in page and 'name="ante_6"' in page
    resp = start(browser, table)
    assert resp.status_code == 201 and resp.is_json  # the round itself, no redirect
    rnd = resp.get_json()["round"]
    assert rnd["number"] == 1 and rnd["phase"] == "Players decide"
    # no card input anywhere: nobody has seen a card yet
    assert not [i for s in rnd["steps"] for i in s["inputs"] if i["kind"] == "cards"]
    assert ("bet", "1") in taps.offered(rnd)
    assert [b["empty"] for b in rnd["boxes"]] == ["face down", "face down"]
    assert shown(browser, table) == rnd  # the page draws the same round


def test_a_whole_russian_round_is_played_through_the_pages(browser: Browser, app: Flask,
                                                          screen: str, table: Any) -> None:
    start(browser, table)
    deal(browser, app, table)
    exchange = taps.step_of(shown(browser, table), "exchange", "2")
    assert exchange is not None and exchange["inputs"][0]["choices"] == [1, 2, 3, 4, 5]  # one tap
    for type, fields in (("exchange", {"box": "2", "count": 1}),
                         ("bet", {"box": "1"}),
                         ("insure", {"box": "1", "amount": 100, "cards": BOX_1}),
                         ("bet", {"box": "2"}), ("reveal", {"cards": DEALER}),
                         ("buy_game", {"box": "1"}),
                         ("take_ante", {"box": "2"}), ("dealer_draw", {"cards": ["Js"]})):
        resp = step(browser, app, table, type, **fields)
        assert resp.status_code == 201, text(resp)
    on_screen = resp.get_json()["round"]
    assert on_screen["can_pay"]  # the "Paid ✓" button
    insurance = [w for p in on_screen["payouts"] for w in p["wagers"]
                 if w["name"] == "Insurance"]
    # insurance 1:1 on the dealer's "no game"
    assert [(w["action"], w["amount"]) for w in insurance] == [("PAY", 100)]
    assert shown(browser, table)["payouts"] == on_screen["payouts"]
    rnd = round_of(app, table)
    assert rnd.settlement is not None
    # the headline is what moves now: the wagers; box 1's buy-game fee went in at the tap
    expected = {b.box: at_showdown(b.to_dict()) for b in rnd.settlement.boxes}
    assert expected["1"] == rnd.settlement.boxes[0].net + 100
    assert {p["box"]: p["net"] for p in on_screen["payouts"]} == expected
    resp = step(browser, app, table, "paid")
    assert resp.status_code == 201
    assert resp.get_json()["paid"] == "Round 1 paid. Next round."
    page, rnd_now = taps.page_and_round(browser, table.id)
    assert rnd_now is None and "Start round" in page
    assert 'value="100"' in page  # the next round offers last round's bets


def test_a_double_tap_records_the_step_once(browser: Browser, app: Flask, screen: str,
                                            table: Any) -> None:
    start(browser, table)
    before = round_of(app, table)
    answers = [step(browser, app, table, "bet", key="same", seq=before.last_seq, box="1")
               for _ in range(2)]
    assert [r.status_code for r in answers] == [201, 200]  # the resend: the round as stored
    assert [r.get_json()["created"] for r in answers] == [True, False]
    assert answers[1].get_json()["round"] == answers[0].get_json()["round"] | {"moved": []}
    assert len(round_of(app, table).events) == len(before.events) + 1


REFUSALS = [
    pytest.param("insure", {"box": "1", "amount": 100, "cards": ["7s", "8s", "zz", "Jc", "2h"]},
                 "is not a card", "cards", id="invalid-card"),
    pytest.param("insure", {"box": "1", "amount": 100, "cards": ["As", "As", "Ad", "Ah", "2c"]},
                 "As (card 2) is already", "cards", id="duplicate-card"),
    pytest.param("reveal", {"cards": DEALER}, "box 2 has not bet or folded yet", None,
                 id="illegal-action"),
    pytest.param("insure", {"box": "1", "amount": "ten"}, "must be a whole number", "amount",
                 id="malformed-amount"),
]


@pytest.mark.parametrize(("type", "fields", "message", "field"), REFUSALS)
def test_a_refused_step_answers_a_problem_naming_the_box_and_the_input_and_changes_nothing(
        browser: Browser, app: Flask, screen: str, table: Any, type: str,
        fields: dict[str, Any], message: str, field: str | None) -> None:
    start(browser, table)
    step(browser, app, table, "bet", box="1")
    before = round_of(app, table)
    said = {"insure": "Insure", "reveal": "Reveal"}[type]
    resp = step(browser, app, table, type, label=said, **fields)
    assert resp.status_code in (400, 422) and resp.mimetype == "application/problem+json"
    problem = resp.get_json()
    assert message in problem["detail"]
    if "box" in fields:  # the message names the box and the step; the screen marks the input
        assert problem["detail"].startswith("Box 1 · Insure: ") and problem["box"] == "1"
    if field is not None:
        assert problem["field"] == field
    after = round_of(app, table)
    assert len(after.events) == len(before.events) and after.state == before.state
    assert shown(browser, table)["last_seq"] == before.last_seq


def test_an_ante_outside_the_limits_is_refused_and_starts_nothing(browser: Browser, app: Flask,
                                                                  screen: str,
                                                                  table: Any) -> None:
    resp = start(browser, table, ante_1="5000")
    assert resp.status_code == 422
    problem = resp.get_json()
    assert problem["detail"] == "Box 1: ANTE 5000 is above the table maximum 500"
    assert problem["field"] == "ante_1" and problem["box"] == "1"
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_refused_bonus_is_named_and_marked_on_its_own_box_not_on_an_equal_one(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    """"Box 2 ANTE 20 with bonus 50: the message 'Box 1: the bonus bet may be
    at most 50 % of the ANTE (10), got 50' sits under Box 1 (a valid 100/50)"."""
    resp = start(browser, table, ante_1="100", bonus_1="50", ante_2="20", bonus_2="50")
    assert resp.status_code == 422
    problem = resp.get_json()
    # the screen puts the message beside the input the problem's field names
    assert (problem["field"], problem["box"]) == ("bonus_2", "2")
    assert problem["detail"] == ("Box 2: the bonus bet may be at most 50% of the ANTE (10), "
                                 "got 50")
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_step_posted_from_a_stale_screen_is_refused_and_the_fresh_screen_shown(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    start(browser, table)
    seen = round_of(app, table).last_seq
    step(browser, app, table, "bet", box="1")  # another tablet
    resp = step(browser, app, table, "bet", box="2", seq=seen)
    assert resp.status_code == 409
    problem = resp.get_json()
    # no field: the screen reloads (the round as it is now) and says why
    assert "changed on another device" in problem["detail"] and not problem.get("field")
    assert [e.type for e in round_of(app, table).events][-1] == "bet"
    fresh = shown(browser, table)
    assert fresh["last_seq"] == seen + 1 and taps.step_of(fresh, "bet", "1") is None


def test_undo_from_the_screen_cancels_the_last_step(browser: Browser, app: Flask, screen: str,
                                                    table: Any) -> None:
    start(browser, table)
    step(browser, app, table, "bet", box="1")
    assert shown(browser, table)["undo"] == "Undo: the bet · box 1"
    resp = step(browser, app, table, "undo")
    assert resp.status_code == 201
    rnd = round_of(app, table)
    assert rnd.events[-1].type == "undo"
    assert not rnd.engine.summary(rnd.state)["boxes"][0]["decision"]
    assert taps.step_of(resp.get_json()["round"], "bet", "1") is not None  # offered again


def test_a_form_without_the_csrf_token_is_refused(browser: Browser, app: Flask, screen: str,
                                                  table: Any) -> None:
    resp = browser.post(f"/tables/{table.id}/live/rounds", {"key": "x", "ante_1": "100"},
                        csrf=False)
    assert resp.status_code == 400
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_croupier_cannot_reach_admin_pages(browser: Browser, screen: str) -> None:
    for url in ("/admin/users", "/admin/tables", "/admin/profiles"):
        assert browser.get(url).status_code == 403


def test_an_admin_cannot_record_rounds(browser: Browser, admin: Any, table: Any) -> None:
    browser.login("root")
    assert browser.get(f"/tables/{table.id}/live").status_code == 403
    assert start(browser, table).status_code == 403


def test_without_an_open_shift_the_screen_says_so(browser: Browser, app: Flask, croupier: Any,
                                                  table: Any) -> None:
    browser.login("carla")
    page = text(browser.get(f"/tables/{table.id}/live"))
    assert "no open shift" in page
    resp = start(browser, table)
    assert resp.status_code == 409 and "no open shift" in resp.get_json()["detail"]
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_big_small_box_accepts_the_suggested_split(browser: Browser, app: Flask,
                                                     croupier: Any) -> None:
    from tests.factories import make_table

    split_table = arrange(app, make_table, name="BS 1", game="split")
    browser.login("carla")
    browser.post(f"/tables/{split_table.id}/shifts", opening_form(app))
    start(browser, split_table, ante_1="50")
    step(browser, app, split_table, "deal_box", box="1", cards=["As", "Kd", "7h", "4c", "2s"])
    step(browser, app, split_table, "deal_dealer", cards=["Qs", "Qd", "5h", "6h", "9c"])
    resp = step(browser, app, split_table, "extra", box="1", mode="bought", cards=["Ad", "7d"])
    assert resp.status_code == 201, text(resp)
    split = taps.step_of(resp.get_json()["round"], "split", "1")
    assert split is not None and split["suggests"]  # the screen shows "Suggest"
    rid = round_of(app, split_table).round.id
    before = len(round_of(app, split_table).events)
    proposal = taps.suggest(browser, rid, "split", {"box": "1"})
    assert proposal.status_code == 200, text(proposal)
    assert "Suggested: Big Two pairs, aces and sevens" in proposal.get_json()["said"]
    suggested = proposal.get_json()["payload"]["small"]
    assert sorted(suggested) == ["4c", "Kd"]
    assert len(round_of(app, split_table).events) == before  # a suggestion records nothing
    # the screen ticks the suggested cards and sends them with the rest (the Big Hand)
    assert step(browser, app, split_table, "split", **proposal.get_json()["payload"]
                ).status_code == 201
    for type, fields in (("bet", {"box": "1"}), ("reveal", {}),
                         ("dealer_small", {"cards": ["2h", "3h"]})):
        assert step(browser, app, split_table, type, **fields).status_code == 201
    rnd = round_of(app, split_table)
    assert rnd.settlement is not None and rnd.settlement.boxes[0].wagers["bet"].net == 100


def redeal_box_2(browser: Browser, app: Flask, screen: str, table: Any) -> live.LiveRound:
    """Start, deal, then Redeal: box 2 received 4 cards (202: a void is requested)."""
    start(browser, table)
    deal(browser, app, table)
    redeal = taps.step_of(shown(browser, table), "redeal", "2")
    assert redeal is not None and redeal["said"] == "Redeal"
    assert redeal["inputs"][0]["name"] == "cards_received"
    resp = step(browser, app, table, "redeal", box="2", cards_received=4)
    assert resp.status_code == 202, text(resp)
    return round_of(app, table)


def decide(app: Flask, request_id: int, approve: bool, pit_boss: Browser) -> None:
    """A pit boss (not the requester) decides on ``/changes``."""
    arrange(app, make_user, "pavel", "pit_boss")
    pit_boss.login("pavel")
    assert f'data-change="{request_id}"' in text(pit_boss.get("/changes"))
    form = {"approve": "yes" if approve else "no", "note": "" if approve else "Five cards"}
    resp = pit_boss.post(f"/changes/{request_id}/decision", form)
    assert resp.status_code == 303


def test_a_redeal_freezes_the_table_screen_until_a_pit_boss_approves_the_void(
        browser: Browser, other_browser: Browser, app: Flask, screen: str, table: Any) -> None:
    rnd = redeal_box_2(browser, app, screen, table)
    frozen = shown(browser, table)
    assert frozen["frozen"] and frozen["phase"] == "Void requested — waiting for a pit boss"
    assert frozen["void"]["pending"]
    assert frozen["void"]["reason"] == "redeal: box 2 received 4 cards"
    assert frozen["void"]["said"].startswith("Asked by Carla at ")
    # no step, no undo, no card grid, no Paid, no misdeal link (round.js hides it when frozen)
    assert frozen["steps"] == [] and frozen["undo"] is None and not frozen["can_pay"]
    assert frozen["payouts"] is None
    refused = start(browser, table, key="s2")
    assert refused.status_code == 409  # a second round cannot start on a frozen table
    resp = step(browser, app, table, "bet", box="1")
    assert resp.status_code == 409 and "waits for a pit boss" in resp.get_json()["detail"]
    assert round_of(app, table).events == rnd.events
    (request,) = voids_of(app, rnd.round.id)
    assert request.status == voids.PENDING
    decide(app, request.id, True, other_browser)
    page, after = taps.page_and_round(browser, table.id)
    assert after is None and "Start round" in page and "Round 1 was voided." in page
    assert 'value="100"' in page  # the voided round's bets are offered again
    last = re.search(r'<p class="last-round" data-last-round="1">(.*?)</p>', page, re.S)
    assert last and "Dispute" not in last.group(1)  # a voided round has nothing to dispute


def test_a_refused_void_returns_the_table_screen_to_play(
        browser: Browser, other_browser: Browser, app: Flask, screen: str, table: Any) -> None:
    rnd = redeal_box_2(browser, app, screen, table)
    (request,) = voids_of(app, rnd.round.id)
    decide(app, request.id, False, other_browser)
    back = shown(browser, table)
    assert not back["frozen"] and back["void"] == {
        "pending": False, "said": "Void refused by Pavel: “Five cards”. The round goes on."}
    assert taps.step_of(back, "bet", "2") is not None and back["undo"] is not None
    assert step(browser, app, table, "bet", box="2").status_code == 201


def test_the_table_screen_links_to_the_round_page_for_a_misdeal(browser: Browser, app: Flask,
                                                                 screen: str,
                                                                 table: Any) -> None:
    start(browser, table)
    rid = round_of(app, table).round.id
    page, rnd = taps.page_and_round(browser, table.id)
    # round.js points the link at the round on the screen: data-href with the round's id
    found = re.search(r'<a class="button ghost" data-misdeal hidden data-href="([^"]+)">', page)
    assert found and rnd is not None and rnd["id"] == rid and not rnd["frozen"]
    assert found.group(1).replace("/0", f"/{rnd['id']}") == f"/rounds/{rid}"
    assert "Ask for a void or a correction" in text(browser.get(f"/rounds/{rid}"))


def test_after_paid_the_bets_screen_links_to_the_last_round_to_dispute_it(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    assert "data-last-round" not in text(browser.get(screen))  # no round yet this shift
    start(browser, table, ante_1="100", bonus_1="", ante_2="100")
    deal(browser, app, table)
    rid = round_of(app, table).round.id
    for type, fields in (("bet", {"box": "1"}), ("bet", {"box": "2"}),
                         ("reveal", {"cards": DEALER}),
                         ("take_ante", {"box": "1"}), ("take_ante", {"box": "2"}), ("paid", {})):
        resp = step(browser, app, table, type, **fields)
        assert resp.status_code == 201, text(resp)
    paid = resp.get_json()  # the bets form comes back at once, with the link (round.js)
    assert paid["paid"] == "Round 1 paid. Next round." and paid["round_page"] == f"/rounds/{rid}"
    page = text(browser.get(screen))  # and after a reload, server-rendered
    link = re.search(r'<a class="button secondary" href="([^"]+)">Last round \(1\) · Dispute</a>',
                     page)
    assert link and link.group(1) == f"/rounds/{rid}" and "Start round" in page
    round_page = text(browser.get(link.group(1)))
    assert f'href="/rounds/{rid}/disputes?box=2"' in round_page  # the per-box Dispute buttons


def voids_of(app: Flask, round_id: int) -> list[voids.ChangeView]:
    with db.session_scope(app) as dbs:
        return voids.changes(dbs, round_id=round_id)


def test_a_pit_boss_sees_waiting_void_requests_counted_in_the_header(
        browser: Browser, other_browser: Browser, app: Flask, screen: str, table: Any) -> None:
    assert "data-approvals" not in text(browser.get(screen))  # a croupier decides nothing
    rnd = redeal_box_2(browser, app, screen, table)
    arrange(app, make_user, "pavel", "pit_boss")
    other_browser.login("pavel")
    header = text(other_browser.get("/"))
    assert re.search(r'data-approvals>Approvals <span class="badge"[^>]*>1</span></a>', header)
    (request,) = voids_of(app, rnd.round.id)
    assert other_browser.post(f"/changes/{request.id}/decision",
                              {"approve": "yes", "note": ""}).status_code == 303
    assert re.search(r"data-approvals>Approvals</a>", text(other_browser.get("/")))
