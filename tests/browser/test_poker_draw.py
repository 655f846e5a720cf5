"""The poker dealer's screen in Chromium: a pot-limit 32-card draw hand with a missed blind, deck
exhaustion and a showdown, at 1024x768 and 768x1024.

Seat 3 (Cy) sits out on the screen before the hand in which he would post the small blind, so
he misses it; he comes back on the screen and the next hand charges him (RULES.md, 32-card draw:
"a returning player who missed the small blind posts an amount equal to the big blind"). In that
hand five players draw 4, 4, 3, 2 and 0 cards from a 7-card stub: the screen warns before each
drawer who may need the discards and names whose to shuffle (never his own). After every tap each
seat's stack and bet, the pot and the buttons' amounts are the engine's, replayed here."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import col, select

from dealer_assist import db
from dealer_assist.models import Round, User
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand
from dealer_assist.services.rounds import poker_hands
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.browser.conftest import Server, Shots, login
from tests.browser.test_poker_hand import _check_screen, _tap

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve")
#: hand 3, button 3 (Cy, back: posts 20 live); SB 10 seat 4, BB 20 seat 5, OB 40 seat 1
HAND: list[tuple[str, dict[str, Any]]] = [
    ("Call 40", {"type": "call", "seat": "2"}), ("Call 20", {"type": "call", "seat": "3"}),
    ("Call 30", {"type": "call", "seat": "4"}), ("Call 20", {"type": "call", "seat": "5"}),
    ("Check", {"type": "check", "seat": "1"}),
    ("4 cards", {"type": "draw", "seat": "4", "discard": 4}),
    ("4 cards", {"type": "draw", "seat": "5", "discard": 4}),
    ("3 cards", {"type": "draw", "seat": "1", "discard": 3}),
    ("2 cards", {"type": "draw", "seat": "2", "discard": 2}),
    ("0 cards", {"type": "draw", "seat": "3", "discard": 0}),
    ("No parole: bet", {"type": "parole", "agreed": False}),
    ("Check", {"type": "check", "seat": "2"}),
    ("Bet to 200", {"type": "bet", "seat": "3", "to": 200}),
    ("Fold", {"type": "fold", "seat": "4"}), ("Call 200", {"type": "call", "seat": "5"}),
    ("Fold", {"type": "fold", "seat": "1"}), ("Call 200", {"type": "call", "seat": "2"}),
    ("Show", {"type": "show", "seat": "3", "cards": ["Ts", "Td", "Tc", "As", "Ad"]}),
    ("Show", {"type": "show", "seat": "5", "cards": ["7h", "8h", "9h", "Jh", "Kh"]}),
    ("Muck", {"type": "muck", "seat": "2"}),
]
#: before these draws the stub holds fewer than 4: (drawer, cards left, whose discards)
WARNINGS = {"5": ("3", "seat 4"), "1": ("3", "seat 5"), "2": ("0", "seat 1, seat 5")}


def _table(server: Server) -> int:
    """Five players bought in; hand 1 (button 1) played out on the blinds through the service."""
    with db.session_scope(server.app) as dbs:
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        assert carla.id is not None
        t = poker_tables.open_table(dbs, name="PK 2", profile="draw32-pot-limit",
                                    stakes={"small_blind": 10}, seat_count=5)
        shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)
        for n, name in enumerate(PLAYERS):
            poker_tables.seat_player(dbs, t.id, seat=str(n + 1), player=name, buy_in=1000)
        hand = poker_hands.start_hand(dbs, table_id=t.id, user_id=carla.id)
        while hand.state.status != "complete":
            hand = poker_hands.record(dbs, round_id=hand.round.id, user_id=carla.id,
                                      action={"type": "fold", "seat": hand.state.to_act},
                                      idempotency_key=f"h1-{hand.last_seq}")
        return t.id


def _rules(server: Server, table_id: int) -> dict[str, Any]:
    with db.session_scope(server.app) as dbs:
        row = dbs.exec(select(Round).where(Round.table_id == table_id)
                       .order_by(col(Round.id).desc())).first()
        assert row is not None and row.rules is not None
        rules: dict[str, Any] = json.loads(row.rules)
        return rules


def _seat_change(page: Any, seat: str, button: str) -> None:
    page.click("details.manage summary")
    page.click(f'form[data-manage="{seat}"] button[{button}]')
    page.wait_for_load_state()


def _fold_out(page: Any, server: Server, table_id: int) -> None:
    """Hand 2 on the screen: everyone folds to the big blind."""
    page.click('button[data-act="deal"]')
    page.wait_for_selector("[data-pot]")
    rules, done = _rules(server, table_id), []
    while page.locator('[data-panel="betting"]').count():
        state = parse_hand({**rules, "actions": done})
        page.locator("[data-panel] button", has_text="Fold").first.click()
        page.wait_for_load_state()
        done.append({"type": "fold", "seat": state.to_act})
    assert parse_hand({**rules, "actions": done}).status == "complete"


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["landscape", "portrait"])
def test_a_pot_limit_draw_hand_charges_a_missed_blind_warns_of_the_deck_and_shows_down(
        server: Server, page: Any, shots: Shots) -> None:
    table_id = _table(server)
    login(page, server)
    page.goto(f"{server.url}/poker/{table_id}")
    _seat_change(page, "3", "data-sit-out")
    _fold_out(page, server, table_id)  # button 2: seat 3 would have posted the small blind
    assert "sitting out · missed small" in page.inner_text('article[data-seat="3"]')
    shots("missed-small-blind")
    _seat_change(page, "3", "data-return")
    page.click('button[data-act="deal"]')
    page.wait_for_selector("[data-pot]")
    rules, done = _rules(server, table_id), []
    assert rules["button"] == "3" and rules["seats"][2] == {"seat": "3", "stack": 980,
                                                            "missed": "small"}
    state = parse_hand({**rules, "actions": done})
    assert [(p.kind, p.amount, p.dead) for p in state.posted if p.seat == "3"] == [
        ("big_blind", 20, False)]
    assert "Back in: posts 20 live for missed blinds" in page.inner_text('[data-due="3"]')
    _check_screen(page, state)
    shots("charged-on-return")
    for text, action in HAND:
        if action["type"] == "draw" and action["seat"] in WARNINGS:
            left, whose = WARNINGS[action["seat"]]
            assert page.get_attribute("[data-deck-left]", "data-deck-left") == left
            warning = page.inner_text("[data-reshuffle]")
            assert f"shuffle the discards of {whose} (never his own)" in warning
            assert hand_to_dict(state)["deck"]["reshuffle"] == whose.replace(
                "seat ", "").split(", ")
            shots(f"deck-warning-seat-{action['seat']}")
        _tap(page, text, action)
        done.append(action)
        page.wait_for_load_state()
        state = parse_hand({**rules, "actions": done})
        _check_screen(page, state)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size[
            "width"], "the screen scrolls sideways"
        if state.status == "showdown" and len(state.shown) == 0:
            assert "Show order: seat 3 → seat 5 → seat 2" in page.inner_text("[data-panel]")
            shots("showdown")
    shots("awards")
    assert state.status == "complete"
    shown = [(a.get_attribute("data-award"), int(a.get_attribute("data-amount")))
             for a in page.locator("[data-award]").all()]
    assert shown == [(s, a) for p in state.pots for s, a in p.awards.items()]
    assert sum(a for _s, a in shown) == 800
    with db.session_scope(server.app) as dbs:
        stacks = {s.seat: s.stack for s in poker_tables.get(dbs, table_id).seated()}
    assert stacks == dict(state.stacks)


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["landscape", "portrait"])
def test_a_pit_boss_reviews_a_disputed_pot_against_the_replay_and_denies_it(
        server: Server, page: Any, shots: Shots) -> None:
    from dealer_assist.services.disputes import disputes
    from tests.factories import PASSWORD, make_user
    from tests.web.test_poker_api import DRAW_HAND

    with db.session_scope(server.app) as dbs:
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        assert carla.id is not None
        make_user(dbs, "pia", "pit_boss")
        t = poker_tables.open_table(dbs, name="PK 3", profile="draw32-limit",
                                    stakes={"small_blind": 10}, seat_count=5)
        shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)
        for n, name in enumerate(PLAYERS[:4]):
            poker_tables.seat_player(dbs, t.id, seat=str(n + 1), player=name, buy_in=1000)
        hand = poker_hands.start_hand(dbs, table_id=t.id, user_id=carla.id)
        for n, action in enumerate(DRAW_HAND):
            hand = poker_hands.record(dbs, round_id=hand.round.id, user_id=carla.id,
                                      action=action, idempotency_key=f"a{n}")
        filed = disputes.file_dispute(dbs, round_id=hand.round.id, box="2",
                                      claim="Aces up won the pot", claimed_amount=400,
                                      croupier_note="Seat 1 showed three queens",
                                      actor_id=carla.id)
        engine = parse_hand({**hand.rules, "actions": DRAW_HAND})
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', "pia")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.goto(f"{server.url}/disputes/{filed.id}")
    assert page.get_attribute("[data-recompute]", "data-recompute") == "match"
    page.click("details.whole summary")
    awards = [(a.get_attribute("data-award"), int(a.inner_text()))
              for a in page.locator("[data-pots] [data-award]").all()]
    assert awards == [("1", 400), ("1", 400)] == [
        (s, a) for p in engine.pots for s, a in p.awards.items()] * 2  # as paid, as replayed
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    shots("review")
    page.check('input[name="outcome"][value="denied"]')
    page.fill('textarea[name="note"]', "The replay gives the pot to seat 1: three queens")
    page.click('button:has-text("Record decision")')
    page.wait_for_load_state()
    shots("denied")
    assert "Denied" in page.inner_text("body")
