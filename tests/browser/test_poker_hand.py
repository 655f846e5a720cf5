"""The poker dealer's screen in Chromium: a 4-player limit 32-card draw hand dealt, bet, drawn
(the deck warning), Parole refused, bet again and shown down, tap by tap at 1024x768 and
768x1024. After every tap each seat's stack and bet, the pot and the buttons' amounts are
checked against the engine replaying the same actions in this process."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import Round, User
from dealer_assist.rules.games.poker import HandState, hand_to_dict, parse_hand
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.browser.conftest import Server, Shots, login

#: (tap, action): seat 1 on the button, SB 10 / BB 20 / OB 40; limit units 40 then 80
HAND: list[tuple[str, dict[str, Any]]] = [
    ("Call 40", {"type": "call", "seat": "1"}), ("Call 30", {"type": "call", "seat": "2"}),
    ("Call 20", {"type": "call", "seat": "3"}), ("Check", {"type": "check", "seat": "4"}),
    ("1 card", {"type": "draw", "seat": "2", "discard": 1}),
    ("4 cards", {"type": "draw", "seat": "3", "discard": 4}),
    ("4 cards", {"type": "draw", "seat": "4", "discard": 4}),
    ("0 cards", {"type": "draw", "seat": "1", "discard": 0}),
    ("No parole: bet", {"type": "parole", "agreed": False}),
    ("Bet to 80", {"type": "bet", "seat": "1", "to": 80}),
    ("Call 80", {"type": "call", "seat": "2"}), ("Fold", {"type": "fold", "seat": "3"}),
    ("Call 80", {"type": "call", "seat": "4"}),
    ("Show", {"type": "show", "seat": "1", "cards": ["Qs", "Qd", "Qh", "8c", "9c"]}),
    ("Show", {"type": "show", "seat": "2", "cards": ["As", "Ad", "Kc", "Kd", "7h"]}),
    ("Muck", {"type": "muck", "seat": "4"}),
]


def _table(server: Server, profile: str = "draw32-limit",
           stacks: tuple[int, ...] = (1000, 1000, 1000, 1000)) -> int:
    stakes = {"ante": 5} if profile.startswith("americana") else {"small_blind": 10}
    with db.session_scope(server.app) as dbs:
        t = poker_tables.open_table(dbs, name="PK 1", profile=profile, stakes=stakes,
                                    seat_count=5)
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        assert carla.id is not None
        shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)  # chips sold from its tray
        for n, (name, stack) in enumerate(zip(("Ann", "Bob", "Cy", "Dee"), stacks,
                                              strict=False)):
            poker_tables.seat_player(dbs, t.id, seat=str(n + 1), player=name, buy_in=stack)
        return t.id


def _start(server: Server, table_id: int) -> dict[str, Any]:
    with db.session_scope(server.app) as dbs:
        row = dbs.exec(select(Round).where(Round.table_id == table_id)).one()
        assert row.rules is not None
        rules: dict[str, Any] = json.loads(row.rules)
        return rules


def _check_screen(page: Any, state: HandState) -> None:
    """Every amount on the screen is the engine's."""
    view = hand_to_dict(state)
    assert int(page.get_attribute("[data-pot]", "data-pot")) == view["pot"]
    for seat in state.seats:
        box = f'article[data-seat="{seat}"]'
        assert int(page.get_attribute(f"{box} [data-stack]", "data-stack")) == \
            view["stacks"][seat]
        assert int(page.get_attribute(f"{box} [data-bet]", "data-bet")) == \
            state.bets.get(seat, 0)
    legal = view["legal"]
    buttons = page.locator("[data-panel] button").all_inner_texts()
    if legal["call"] is not None:
        word = "All in" if legal["call"] == view["stacks"][view["to_act"]] else "Call"
        assert f"{word} {legal['call']}" in buttons
    if legal["bring_in"] is not None:
        assert f"Bring in {legal['bring_in']}" in buttons
    span = legal["bet"] or legal["raise"]
    if span is not None:
        word = "Bet" if legal["bet"] else "Raise"
        assert f"{word} to {span['min_to']}" in buttons
    if view.get("to_act") and state.status != "parole":
        assert page.get_attribute("[data-to-act]", "data-to-act") == view["to_act"]


def _tap(page: Any, text: str, action: dict[str, Any]) -> int:
    """Tap the way a dealer does; returns the number of taps."""
    if action["type"] == "street":  # one grid: each tap fills the next seat in turn
        for seat, card in sorted(action["up"].items(), key=lambda kv: int(kv[0])):
            page.click(f'.street-grid button[data-card="{card}"]')
            assert page.input_value(f'input[name="up_{seat}"]')[-1] in "♠♥♦♣"
        page.click('button[data-act="street"]')
        return len(action["up"]) + 1
    if action["type"] == "show":
        for card in action["cards"]:
            page.click(f'.pk-grid label:has(input[value="{card}"])')
        page.click('button[data-act="show"]')
        return len(action["cards"]) + 1
    page.locator("[data-panel] button", has_text=text).first.click()
    return 1


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["landscape", "portrait"])
def test_a_four_player_limit_draw_hand_is_dealt_to_the_showdown_with_the_engines_amounts(
        server: Server, page: Any, shots: Shots) -> None:
    table_id = _table(server)
    login(page, server)
    page.goto(f"{server.url}/poker/{table_id}")
    shots("between-hands")
    page.click('button[data-act="deal"]')
    page.wait_for_selector("[data-pot]")
    taps, done = 1, []
    rules = _start(server, table_id)
    _check_screen(page, parse_hand({**rules, "actions": done}))
    shots("dealt")
    for n, (text, action) in enumerate(HAND):
        taps += _tap(page, text, action)
        done.append(action)
        page.wait_for_load_state()
        state = parse_hand({**rules, "actions": done})
        assert page.locator(".flash, .error").count() == 0 or "error" not in (
            page.locator("body").inner_text().lower())
        _check_screen(page, state)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size[
            "width"], "the screen scrolls sideways"
        if action["type"] == "draw" and action["seat"] == "4":
            warning = page.inner_text("[data-reshuffle]")
            assert "seat 2, seat 3, seat 4" in warning and "3" in page.inner_text(
                "[data-deck-left]")
            shots("deck-warning")
        if n in (0, 9, 13):
            shots(f"step-{n + 1}")
    shots("awards")
    assert state.status == "complete"
    awards = page.locator("[data-award]")
    assert awards.count() == 1
    assert awards.first.get_attribute("data-award") == "1"
    assert int(awards.first.get_attribute("data-amount")) == state.pots[0].awards["1"] == 400
    assert "Three of a kind" in page.inner_text("[data-awards]") or "three" in page.inner_text(
        "[data-awards]").lower()
    assert taps == 27
    with db.session_scope(server.app) as dbs:
        stacks = {s.seat: s.stack for s in poker_tables.get(dbs, table_id).seated()}
    assert stacks == dict(state.stacks) == {"1": 1280, "2": 880, "3": 960, "4": 880}


def _street(up: dict[str, str]) -> tuple[str, dict[str, Any]]:
    return ("", {"type": "street", "up": up})


#: ante 5, bring-in 10 (limit units 10, 10, 20, 20); seat 3 buys in for 45 and is all in on
#: street 2: the main pot is three-way, the side pot is seats 1 and 2's
STUD: list[tuple[str, dict[str, Any]]] = [
    _street({"1": "Ks", "2": "9h", "3": "8d"}),
    ("Bring in 10", {"type": "bring_in", "seat": "1"}), ("Call 10", {"type": "call", "seat": "2"}),
    ("Raise to 20", {"type": "raise", "seat": "3", "to": 20}),
    ("Call 10", {"type": "call", "seat": "1"}), ("Call 10", {"type": "call", "seat": "2"}),
    _street({"1": "Kd", "2": "9c", "3": "8s"}),
    ("Bet to 10", {"type": "bet", "seat": "1", "to": 10}),
    ("Raise to 20", {"type": "raise", "seat": "2", "to": 20}),
    ("All in 20", {"type": "call", "seat": "3"}), ("Call 10", {"type": "call", "seat": "1"}),
    _street({"1": "Ah", "2": "Jc", "3": "Qd"}),
    ("Bet to 20", {"type": "bet", "seat": "1", "to": 20}),
    ("Call 20", {"type": "call", "seat": "2"}),
    _street({"1": "7s", "2": "Tc", "3": "Jd"}),
    ("Check", {"type": "check", "seat": "1"}), ("Check", {"type": "check", "seat": "2"}),
    ("Show", {"type": "show", "seat": "2", "cards": ["Ts"]}),
    ("Show", {"type": "show", "seat": "3", "cards": ["8c"]}),
    ("Show", {"type": "show", "seat": "1", "cards": ["7h"]}),
]


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["landscape", "portrait"])
def test_a_limit_americana_hand_with_an_all_in_splits_a_main_and_a_side_pot_on_screen(
        server: Server, page: Any, shots: Shots) -> None:
    table_id = _table(server, "americana-limit", (1000, 1000, 45))
    login(page, server)
    page.goto(f"{server.url}/poker/{table_id}")
    page.click('button[data-act="deal"]')
    page.wait_for_selector("[data-pot]")
    rules, done = _start(server, table_id), []
    shots("first-street")
    for n, (text, action) in enumerate(STUD):
        _tap(page, text, action)
        done.append(action)
        page.wait_for_load_state()
        state = parse_hand({**rules, "actions": done})
        _check_screen(page, state)
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size[
            "width"], "the screen scrolls sideways"
        if n == 0:
            assert "Seat 1 brings in: K♠ is the highest card" in page.inner_text("[data-panel]")
            shots("bring-in")
        if n in (9, 16):
            shots(f"step-{n + 1}")
    shots("awards")
    assert [(p.amount, dict(p.awards)) for p in state.pots] == [(135, {"3": 135}),
                                                                (40, {"1": 40})]
    awards = page.locator("[data-award]")
    shown = [(a.get_attribute("data-award"), int(a.get_attribute("data-amount")))
             for a in awards.all()]
    assert shown == [("3", 135), ("1", 40)]
    text = page.inner_text("[data-awards]")
    assert "Main pot: 135" in text and "Side pot 1: 40" in text
    assert "Three of a kind" in text and "Two pairs" in text  # seat 3's trips, seat 1's pairs
