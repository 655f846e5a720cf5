""""House games" (items 11 and 12), through the pages, on SQLite and PostgreSQL (the
chip total and the insurance form's place on the screen are in tests/browser)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from dealer_assist import db
from dealer_assist.services.disputes import disputes
from dealer_assist.services.figures import house_edge
from dealer_assist.services.reports import shift as shift_report
from dealer_assist.services.rounds import live
from tests.factories import make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, text
from tests.web.test_live_pages import round_of, shown, start, step
from tests.web.test_table_screen_floor import open_table


def _tap(browser: Browser, app: Flask, table: Any, type: str, **fields: Any) -> dict[str, Any]:
    """One tap; the round as the screen draws it from the answer."""
    resp = step(browser, app, table, type, **fields)
    assert resp.status_code == 201, text(resp)
    rnd: dict[str, Any] = resp.get_json()["round"]
    return rnd


def test_big_small_after_the_reveal_asks_for_one_thing_and_says_it(
        browser: Browser, app: Flask, croupier: Any) -> None:
    """Item 11: "the title says 'Dealer's Small Hand' while the form asks for Box 1"."""
    bs = open_table(browser, app, name="BS 26", game="split")
    start(browser, bs, ante_1="50", ante_2="50")
    _tap(browser, app, bs, "deal_dealer", up=["9c"])
    for box in "12":
        _tap(browser, app, bs, "bet", box=box)
    rnd = _tap(browser, app, bs, "reveal", cards=["Qs", "Qd", "5h", "6h"])  # queens: a game
    assert rnd["phase"] == "Dealer's Small Hand"
    # the entry the screen opens is the dealer's, headed by its words alone (no box)
    small = taps.due_entry(rnd)
    assert small is not None and small["type"] == "dealer_small" and "box" not in small
    assert small["said"] == "Dealer's Small Hand"


def test_free_extra_cards_record_the_forced_bet_in_the_same_tap(
        browser: Browser, app: Flask, croupier: Any) -> None:
    """Item 11: "'Free extra (must bet)' still needs a separate Bet tap"."""
    bs = open_table(browser, app, name="BS 26", game="split")
    start(browser, bs, ante_1="50")
    _tap(browser, app, bs, "deal_dealer", up=["9c"])
    extra = taps.step_of(shown(browser, bs), "extra", "1")
    assert extra is not None
    (mode,) = [i for i in extra["inputs"] if i["name"] == "mode"]
    assert mode["labels"]["free"] == "Free extra + BET"  # the button says the bet comes with it
    resp = step(browser, app, bs, "extra", box="1", mode="free")
    assert resp.status_code == 201, text(resp)  # one request
    rnd = round_of(app, bs)
    assert [e.type for e in rnd.events][-2:] == ["extra", "bet"]
    assert rnd.summary()["boxes"][0]["bet"] == 100
    answer = resp.get_json()["round"]
    assert "Reveal" in answer["phase"] and answer["last_seq"] == rnd.last_seq


def test_the_undo_button_and_the_round_history_say_what_happened(
        browser: Browser, app: Flask, croupier: Any) -> None:
    """Item 12: "'↶ Undo deal dealer'; the round history says 'Exchange · Box 1' without the
    number of cards"."""
    cs = open_table(browser, app, name="CS 26", game="caribbean")
    start(browser, cs, ante_1="50")
    # the header's button reads "↶ " + the round's undo (static/round.js)
    assert _tap(browser, app, cs, "deal_dealer", up=["8c"])["undo"] == (
        "Undo: the dealer's face-up card")


def test_the_undo_button_and_the_round_history_say_the_exchange_and_its_box(
        browser: Browser, app: Flask, croupier: Any) -> None:
    """Item 12, Russian poker (a table of its own: a dealer deals one round at a time, issue
    35 item 19)."""
    rp = open_table(browser, app, name="RP 26")
    start(browser, rp, ante_1="50")
    assert _tap(browser, app, rp, "exchange", box="1", count=2)["undo"] == (
        "Undo: the exchange 2 cards · box 1")
    rid = round_of(app, rp).round.id
    history = text(browser.get(f"/rounds/{rid}"))
    exchange = re.search(r'<strong class="what">Exchange</strong>\s*<span class="detail">(.*?)'
                         r'</span>\s*<span class="who">', history, re.S)
    assert exchange is not None
    said = " ".join(re.sub(r"<[^>]+>", " ", exchange.group(1)).split())
    assert said == "Box 1 2 cards"


def _escalated(app: Flask) -> tuple[int, int]:
    """A paid Russian round on RP 1 with a dispute a pit boss escalated; (dispute, shift)."""
    from tests.services.conftest_reports import T0, make_floor, play_round, store_round

    def build(session: Any) -> tuple[int, int]:
        import random

        from dealer_assist.rules.games.registry import start as start_engine

        floor = make_floor(session)
        engine, empty = start_engine("russian", floor.profile, *floor.limits)
        store_round(session, floor, play_round(random.Random(3), engine, empty, floor.limits,
                                               boxes=2, void_rate=0.0, undo_rate=0.0),
                    actor_id=floor.croupier, at=T0)
        rid = live.last_round_id(session, floor.table_id)
        assert rid is not None
        filed = disputes.file_dispute(session, round_id=rid, box="1", claim="Paid short",
                                      claimed_amount=100, croupier_note="",
                                      actor_id=floor.croupier)
        disputes.decide(session, dispute_id=filed.id, outcome="escalated", note="over me",
                        actor_id=floor.pit_boss)
        return filed.id, floor.shift_id
    return arrange(app, build)  # type: ignore[no-any-return]


def test_a_shift_manager_deciding_an_escalated_dispute_is_not_offered_escalation(
        app: Flask, browser: Browser) -> None:
    """Item 12: "a shift manager deciding an escalated dispute is offered 'Escalate to the shift
    manager'"; offered nowhere, and refused if sent anyway."""
    dispute_id, _shift = _escalated(app)
    with db.session_scope(app) as dbs:
        from sqlmodel import select

        from dealer_assist.models import User

        manager = dbs.exec(select(User).where(User.role == "shift_manager")).first()
        assert manager is not None
        manager_name = manager.username
    browser.login(manager_name)
    page = text(browser.get(f"/disputes/{dispute_id}"))
    assert 'name="outcome" value="upheld"' in page and 'name="outcome" value="denied"' in page
    assert 'value="escalated"' not in page and "Escalate to the shift manager" not in page
    resp = browser.post(f"/disputes/{dispute_id}/decisions", {"outcome": "escalated",
                                                              "note": "up"})
    assert resp.status_code == 422 and "nobody to escalate it to" in text(resp)


def test_the_shift_report_shows_no_developer_command(app: Flask, browser: Browser,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 12: "the report shows a developer command ('flask lab house-edge…') to a shift
    manager". A missing figure (every shipped profile's come with the code, hidden
    here) names the command to an administrator only."""
    monkeypatch.setattr(house_edge.strategy_store, "figures", lambda profile: None)
    _dispute, shift_id = _escalated(app)
    with db.session_scope(app) as dbs:
        data = shift_report.build_shift_report(dbs, shift_id)
    assert data["theoretical"] is None or "house_edge_percent" not in data["theoretical"]
    arrange(app, make_user, "mira", "shift_manager")
    browser.login("mira")
    page = text(browser.get(f"/reports/shifts/{shift_id}"))
    assert "data-no-theoretical" in page
    assert "flask" not in page and "house-edge" not in page
