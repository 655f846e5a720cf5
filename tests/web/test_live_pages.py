"""The table screen through the Flask test client: steps, refusals (message, 4xx, no change),
a redeal waiting for a pit boss, and the way from a paid round to its dispute page."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist import db
from dealer_assist.rules.settlement import at_showdown
from dealer_assist.services.disputes import voids
from dealer_assist.services.rounds import live
from tests.factories import make_user
from tests.web.conftest import Browser, arrange, opening_form, text

_keys = itertools.count(1)


@pytest.fixture
def screen(browser: Browser, app: Flask, croupier: Any, table: Any) -> str:
    """Signed in as a croupier, shift open (with its opening count): the table screen's URL."""
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return f"/tables/{table.id}/live"


def start(browser: Browser, table: Any, key: str = "s1", **antes: str) -> Any:
    form = {"key": key, **(antes or {"ante_1": "100", "bonus_1": "50", "ante_2": "100"})}
    return browser.post(f"/tables/{table.id}/live/rounds", form)


def round_of(app: Flask, table: Any) -> live.LiveRound:
    with db.session_scope(app) as dbs:
        rid = live.open_round_id(dbs, table.id)
        assert rid is not None
        return live.load(dbs, rid)


def step(browser: Browser, app: Flask, table: Any, type: str, key: str | None = None,
         **fields: Any) -> Any:
    rnd = round_of(app, table)
    form = {"type": type, "key": key or f"k{next(_keys)}", **fields}
    return browser.post(f"/live/rounds/{rnd.round.id}/steps", form)


#: the dealer's five cards, turned over at the reveal (no game: no Ace-King)
DEALER = "kh qh 4s 5c 6d"
BOX_1 = "as ad ah 2c 3d"


def deal(browser: Browser, app: Flask, table: Any) -> None:
    """Russian poker deals no dealer card face up: "Start round" recorded the deal too."""
    assert [e.type for e in round_of(app, table).events] == ["place", "deal_dealer"]


def test_the_table_screen_starts_a_round_and_asks_for_no_card_before_the_decisions(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    page = text(browser.get(screen))
    assert "Start round" in page and 'name="ante_6"' in page
    resp = start(browser, table)
    assert resp.status_code == 303 and resp.headers["Location"].endswith(screen)
    page = text(browser.get(screen))
    assert "Round 1" in page and "Players decide" in page and "Enter cards" not in page
    assert 'class="gc' not in page  # no card grid: nobody has seen a card yet
    assert 'data-step="bet" data-box="1"' in page and "face down" in page


def test_a_whole_russian_round_is_played_through_the_pages(browser: Browser, app: Flask,
                                                          screen: str, table: Any) -> None:
    start(browser, table)
    deal(browser, app, table)
    page = text(browser.get(screen))
    assert 'data-step="exchange" data-box="2" data-value="1"' in page  # one tap: 1 card
    page = text(browser.get(f"{screen}?do=insure&box=1"))
    for type, fields in (("exchange", {"box": "2", "count": "1"}),
                         ("bet", {"box": "1"}),
                         ("insure", {"box": "1", "amount": "100", "cards": BOX_1}),
                         ("bet", {"box": "2"}), ("reveal", {"cards": DEALER}),
                         ("buy_game", {"box": "1"}),
                         ("take_ante", {"box": "2"}), ("dealer_draw", {"cards": "js"})):
        resp = step(browser, app, table, type, **fields)
        assert resp.status_code == 303, text(resp)
    page = text(browser.get(screen))
    assert "Paid ✓" in page and "PAY 100" in page  # insurance 1:1 on the dealer's "no game"
    rnd = round_of(app, table)
    assert rnd.settlement is not None
    # the headline is what moves now: the wagers; box 1's buy-game fee went in at the tap
    expected = {b.box: at_showdown(b.to_dict()) for b in rnd.settlement.boxes}
    assert expected["1"] == rnd.settlement.boxes[0].net + 100
    shown = dict(re.findall(r'<article class="payout \w+" data-box="(\d)" data-net="(-?\d+)"',
                            page))
    assert {k: int(v) for k, v in shown.items()} == expected
    resp = step(browser, app, table, "paid")
    assert resp.status_code == 303
    page = text(browser.get(screen))
    assert "Round 1 paid" in page and "Start round" in page
    assert 'value="100"' in page  # the next round offers last round's bets


def test_a_double_tap_records_the_step_once(browser: Browser, app: Flask, screen: str,
                                            table: Any) -> None:
    start(browser, table)
    before = len(round_of(app, table).events)
    for _ in range(2):
        assert step(browser, app, table, "bet", key="same", box="1").status_code == 303
    assert len(round_of(app, table).events) == before + 1


REFUSALS = [
    pytest.param("insure", {"box": "1", "amount": "100", "cards": "7s 8s zz jc 2h"},
                 "is not a card", id="invalid-card"),
    pytest.param("insure", {"box": "1", "amount": "100", "cards": "as as ad ah 2c"},
                 "As (card 2) is already", id="duplicate-card"),
    pytest.param("reveal", {"cards": DEALER}, "box 2 has not bet or folded yet",
                 id="illegal-action"),
    pytest.param("insure", {"box": "1", "amount": "ten"}, "must be a whole number",
                 id="malformed-amount"),
]


@pytest.mark.parametrize(("type", "fields", "message"), REFUSALS)
def test_a_refused_step_redirects_to_the_screen_with_the_message_and_changes_nothing(
        browser: Browser, app: Flask, screen: str, table: Any, type: str,
        fields: dict[str, str], message: str) -> None:
    start(browser, table)
    step(browser, app, table, "bet", box="1")
    before = round_of(app, table)
    resp = step(browser, app, table, type, **fields)
    assert resp.status_code == 303 and resp.headers["Location"].endswith(screen)
    page = text(browser.get(screen))
    assert message in page and 'role="alert"' in page
    after = round_of(app, table)
    assert len(after.events) == len(before.events) and after.state == before.state
    if "cards" in fields and type != "reveal":  # what the croupier typed is still there
        assert fields["cards"] in page


def test_an_ante_outside_the_limits_is_refused_and_starts_nothing(browser: Browser, app: Flask,
                                                                  screen: str,
                                                                  table: Any) -> None:
    resp = start(browser, table, ante_1="5000")
    assert resp.status_code == 303
    assert "Box 1: ANTE 5000 is above the table maximum 500" in text(browser.get(screen))
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_refused_bonus_is_named_and_marked_on_its_own_box_not_on_an_equal_one(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    """Issue 26 item 3: "Box 2 ANTE 20 with bonus 50: the message 'Box 1: the bonus bet may be
    at most 50 % of the ANTE (10), got 50' sits under Box 1 (a valid 100/50)"."""
    resp = start(browser, table, ante_1="100", bonus_1="50", ante_2="20", bonus_2="50")
    assert resp.status_code == 303
    page = text(browser.get(screen))
    said = re.search(r'<p class="field-msg error" id="msg-(\w+)" data-error-for="\w+" '
                     r'role="alert">([^<]+)</p>', page)
    assert said is not None, "no message beside an input"
    assert said.groups() == ("bonus_2", "Box 2: the bonus bet may be at most 50% of the ANTE "
                                        "(10), got 50")
    assert re.search(r'name="bonus_2"[^>]*aria-invalid="true"', page)
    assert not re.search(r'name="bonus_1"[^>]*aria-invalid', page)
    with db.session_scope(app) as dbs:
        assert live.open_round_id(dbs, table.id) is None


def test_a_step_posted_from_a_stale_screen_is_refused_and_the_fresh_screen_shown(
        browser: Browser, app: Flask, screen: str, table: Any) -> None:
    start(browser, table)
    seen = round_of(app, table).last_seq
    step(browser, app, table, "bet", box="1")  # another tablet
    resp = step(browser, app, table, "bet", box="2", seq=seen)
    assert resp.status_code == 303 and "changed on another device" in text(browser.get(screen))
    assert [e.type for e in round_of(app, table).events][-1] == "bet"


def test_undo_from_the_screen_cancels_the_last_step(browser: Browser, app: Flask, screen: str,
                                                    table: Any) -> None:
    start(browser, table)
    step(browser, app, table, "bet", box="1")
    assert "Undo: the bet · box 1" in text(browser.get(screen))
    assert step(browser, app, table, "undo").status_code == 303
    rnd = round_of(app, table)
    assert rnd.events[-1].type == "undo" and not rnd.flow.summary(rnd.state)["boxes"][0]["decision"]


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


def test_without_an_open_shift_the_screen_says_so(browser: Browser, croupier: Any,
                                                  table: Any) -> None:
    browser.login("carla")
    page = text(browser.get(f"/tables/{table.id}/live"))
    assert "no open shift" in page
    assert start(browser, table).status_code == 303  # refused: back to the screen


def test_a_big_small_box_accepts_the_suggested_split(browser: Browser, app: Flask,
                                                     croupier: Any) -> None:
    from tests.factories import make_table
    from tests.web.conftest import arrange

    split_table = arrange(app, make_table, name="BS 1", game="split")
    browser.login("carla")
    browser.post(f"/tables/{split_table.id}/shifts", opening_form(app))
    start(browser, split_table, ante_1="50")
    step(browser, app, split_table, "deal_box", box="1", cards="as kd 7h 4c 2s")
    step(browser, app, split_table, "deal_dealer", cards="qs qd 5h 6h 9c")
    resp = step(browser, app, split_table, "extra", box="1", mode="bought", cards="ad 7d")
    assert resp.status_code == 303
    page = text(browser.get(f"/tables/{split_table.id}/live?do=split&box=1"))
    assert "Suggested: Big Two pairs, aces and sevens" in page and "Accept split" in page
    suggested = re.findall(r'name="small" value="(\w\w)"\s+checked', page)
    assert sorted(suggested) == ["4c", "Kd"]
    assert step(browser, app, split_table, "split", box="1",
                small=suggested).status_code == 303
    for type, fields in (("bet", {"box": "1"}), ("reveal", {}),
                         ("dealer_small", {"cards": "2h 3h"})):
        assert step(browser, app, split_table, type, **fields).status_code == 303
    rnd = round_of(app, split_table)
    assert rnd.settlement is not None and rnd.settlement.boxes[0].wagers["bet"].net == 100


def redeal_box_2(browser: Browser, app: Flask, screen: str, table: Any) -> live.LiveRound:
    """Start, deal, then Redeal: box 2 received 4 cards."""
    start(browser, table)
    deal(browser, app, table)
    page = text(browser.get(f"{screen}?do=redeal&box=2"))
    assert "Box 2: Redeal" in page and "Ask for a redeal" in page
    resp = step(browser, app, table, "redeal", box="2", cards_received="4")
    assert resp.status_code == 303, text(resp)
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
    resp = browser.get(screen)
    page = text(resp)
    assert re.search(r'class="phase frozen" data-phase>Void requested — waiting for a pit boss<',
                     page)
    assert "“redeal: box 2 received 4 cards”" in page and "Asked by Carla" in page
    assert "data-void-wait" in page and 'role="status"' in page
    assert "data-step=" not in page and "data-step-link" not in page  # no step, no undo
    assert 'class="card-grid' not in page and "Paid ✓" not in page and "data-misdeal" not in page
    assert start(browser, table, key="s2").status_code == 303  # refused: back to the screen
    assert step(browser, app, table, "bet", box="1").status_code == 303
    assert "waits for a pit boss" in text(browser.get(screen))
    assert round_of(app, table).events == rnd.events
    (request,) = voids_of(app, rnd.round.id)
    assert request.status == voids.PENDING
    decide(app, request.id, True, other_browser)
    page = text(browser.get(screen))
    assert "Start round" in page and "Round 1 was voided." in page
    assert 'value="100"' in page  # the voided round's bets are offered again
    assert "Void requested" not in page and "Dispute" not in page


def test_a_refused_void_returns_the_table_screen_to_play(
        browser: Browser, other_browser: Browser, app: Flask, screen: str, table: Any) -> None:
    rnd = redeal_box_2(browser, app, screen, table)
    (request,) = voids_of(app, rnd.round.id)
    decide(app, request.id, False, other_browser)
    page = text(browser.get(screen))
    assert "Void requested" not in page and "data-void-refused" in page
    assert "Void refused by Pavel: “Five cards”. The round goes on." in page
    assert 'data-step="bet" data-box="2"' in page and 'data-step="undo"' in page
    assert step(browser, app, table, "bet", box="2").status_code == 303


def test_the_table_screen_links_to_the_round_page_for_a_misdeal(browser: Browser, app: Flask,
                                                                 screen: str,
                                                                 table: Any) -> None:
    start(browser, table)
    rid = round_of(app, table).round.id
    page = text(browser.get(screen))
    assert f'data-misdeal href="/rounds/{rid}"' in page
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
        assert step(browser, app, table, type, **fields).status_code == 303
    page = text(browser.get(screen))
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
