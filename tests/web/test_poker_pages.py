"""The poker dealer's screen over HTTP: the engine's exact amounts on the buttons, a typed
amount checked (the refusal names the seat and the field, the hand is unchanged), a double tap
recorded once."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from dealer_assist.services.tables import poker as poker_tables
from tests.web.conftest import Browser, arrange, opening_form, text


def _table(session: Any) -> int:
    t = poker_tables.open_table(session, name="PK 1", profile="draw32-pot-limit",
                                stakes={"small_blind": 10}, seat_count=5)
    return t.id


def _seat(session: Any, table_id: int) -> None:
    """Four players buy in for 1,000 each (chips sold from the open shift's tray)."""
    for seat in "1234":
        poker_tables.seat_player(session, table_id, seat=seat, player=f"P{seat}", buy_in=1000)


def _form(page: str, act: str) -> dict[str, str]:
    """The hidden fields of the first form whose button is ``data-act=act``."""
    for form in re.findall(r"<form.*?</form>", page, re.S):
        if f'data-act="{act}"' in form:
            return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    raise AssertionError(f"no {act} button")


def test_a_pot_limit_raise_is_offered_from_the_minimum_to_the_pot_and_a_typed_amount_is_checked(
        app: Flask, browser: Browser, croupier: Any) -> None:
    tid = arrange(app, _table)
    browser.login("carla")
    refused = browser.post(f"/poker/{tid}/deal", {"key": "d0"})
    assert refused.status_code == 409 and "No shift is open at this table" in text(refused)
    opened = browser.post(f"/tables/{tid}/shifts", opening_form(app))
    assert opened.status_code == 302 and opened.headers["Location"] == f"/poker/{tid}"
    arrange(app, _seat, tid)
    assert browser.post(f"/poker/{tid}/deal", {"key": "d1"}).status_code == 303
    page = text(browser.client.get(f"/poker/{tid}"))
    # seat 1 faces the opening blind of 40 with 70 in the pot: call 40, raise 80..150
    assert "Call 40" in page and "Raise to 80" in page and "Raise to 150" in page
    assert "Raise to 80..150" in page
    fields = _form(page, "typed")
    refused = browser.post(f"/poker/{tid}/act", {**fields, "to": "200"})
    assert refused.status_code == 422
    assert "Seat 1 · raise: seat 1 may raise to at most 150" in text(refused)
    garbage = browser.post(f"/poker/{tid}/act", {**fields, "to": "1.5"})
    assert "Seat 1 · raise to must be a whole number" in text(garbage)
    assert "Pot 70" in text(browser.client.get(f"/poker/{tid}"))
    call = _form(page, "call")
    assert browser.post(f"/poker/{tid}/act", call).status_code == 303
    assert browser.post(f"/poker/{tid}/act", call).status_code == 303  # a double tap
    after = text(browser.client.get(f"/poker/{tid}"))
    assert "Pot 110" in after and 'data-to-act="2"' in after
    undo = re.search(r'<form[^>]*action="/poker/\d+/undo".*?</form>', after, re.S)
    assert undo is not None and "Undo call · seat 1" in undo.group(0)
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', undo.group(0)))
    assert browser.post(f"/poker/{tid}/undo", fields).status_code == 303
    back = text(browser.client.get(f"/poker/{tid}"))
    assert "Pot 70" in back and 'data-to-act="1"' in back


def test_the_tables_page_lists_a_poker_table_with_a_link_to_its_screen(
        app: Flask, browser: Browser, croupier: Any) -> None:
    tid = arrange(app, _table)
    browser.login("carla")
    home = browser.client.get("/")
    assert home.status_code == 200
    assert f'href="/poker/{tid}"' in text(home)


def test_a_shift_manager_opens_a_poker_table_and_a_wrong_seat_count_names_the_field(
        app: Flask, browser: Browser) -> None:
    from tests.factories import make_user

    arrange(app, make_user, "sam", "shift_manager")
    browser.login("sam")
    assert browser.client.get("/poker/new").status_code == 200
    bad = browser.post("/poker/new", {"name": "AS 1", "profile": "americana-limit",
                                      "stake": "5", "seats": "7"})
    assert bad.status_code == 422 and "americana-limit seats at most 6 players" in text(bad)
    made = browser.post("/poker/new", {"name": "AS 1", "profile": "americana-limit",
                                       "stake": "5", "seats": "6"})
    assert made.status_code == 303 and made.headers["Location"].startswith("/poker/")


def test_the_floor_pages_and_the_poker_shift_report_answer_once_a_poker_hand_is_played(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """A poker hand is a round of the shift: the floor pages that list rounds, tables and shifts
    show it, and the shift's report (preview and PDF) is the poker table's report."""
    from dealer_assist.services.rounds import poker_hands
    from dealer_assist.services.shifts import shifts
    from tests.factories import make_user

    tid = arrange(app, _table)
    boss = arrange(app, make_user, "pia", "pit_boss")

    def play(session: Any) -> tuple[int, int]:
        shift = shifts.open_shift(session, table_id=tid, user_id=croupier.id)
        _seat(session, tid)
        hand = poker_hands.start_hand(session, table_id=tid, user_id=croupier.id)
        while hand.state.status != "complete":
            hand = poker_hands.record(session, round_id=hand.round.id, user_id=croupier.id,
                                      action={"type": "fold", "seat": hand.state.to_act},
                                      idempotency_key=f"k{hand.last_seq}")
        return shift.id, hand.round.id

    shift_id, round_id = arrange(app, play)
    assert boss.id
    browser.login("pia")
    for url in ("/", "/rounds", f"/rounds/{round_id}", f"/tables/{tid}", "/reports/",
                f"/reports/shifts/{shift_id}"):
        status = browser.client.get(url).status_code
        assert status < 500, (url, status)
    assert browser.client.get(f"/rounds/{round_id}").status_code == 200
    report = text(browser.client.get(f"/reports/shifts/{shift_id}"))
    assert "Poker table · 32-card draw" in report and "Ten largest pots" in report
    pdf = browser.client.get(f"/reports/shifts/{shift_id}.pdf?size=a4")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")


def test_the_readme_walks_a_dealer_through_a_poker_table_with_labels_the_screens_have() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("**A poker table: opening it and dealing one hand"):]
    section = section[:section.index("\n\n**") if "\n\n**" in section else None]
    assert len(re.findall(r"^\d+\. ", section, re.M)) >= 8
    templates = " ".join(p.read_text(encoding="utf-8")
                         for p in (root / "templates").rglob("*.html"))
    for label in ("Poker screen", "Open the shift: count the float", "Open shift with this count",
                  "Seats: seat a player, rebuy, sit out, leave", "Deal next hand",
                  "for missed blinds", "Up cards dealt", "Parole: all agree",
                  "No parole: bet", "Show", "Muck", "Undo", "record: ask for a void"):
        assert label in templates, label


def test_the_dealer_files_a_dispute_on_a_pot_and_a_pit_boss_reviews_the_replay_and_denies_it(
        app: Flask, browser: Browser, other_browser: Browser, croupier: Any) -> None:
    """Records and review, through the pages the house games use."""
    from dealer_assist.services.rounds import poker_hands
    from dealer_assist.services.shifts import shifts
    from tests.factories import make_user
    from tests.web.test_poker_api import DRAW_HAND

    tid = arrange(app, _table)
    arrange(app, make_user, "pia", "pit_boss")

    def play(session: Any) -> int:
        shifts.open_shift(session, table_id=tid, user_id=croupier.id)
        _seat(session, tid)
        hand = poker_hands.start_hand(session, table_id=tid, user_id=croupier.id)
        for n, action in enumerate(DRAW_HAND):
            hand = poker_hands.record(session, round_id=hand.round.id, user_id=croupier.id,
                                      action=action, idempotency_key=f"a{n}")
        return hand.round.id

    round_id = arrange(app, play)
    browser.login("carla")
    form = text(browser.client.get(f"/rounds/{round_id}/disputes?box=2"))
    assert "Pot: 400" in form and 'data-award="1">400' in form
    filed = browser.post(f"/rounds/{round_id}/disputes",
                         {"box": "2", "claim": "Aces up won the pot", "claimed_amount": "400",
                          "croupier_note": "Seat 1 showed three queens"})
    assert filed.status_code == 303
    review_url = filed.headers["Location"]
    boss = other_browser
    boss.login("pia")
    review = text(boss.client.get(review_url))
    assert 'data-recompute="match"' in review and "Three of a kind" in review
    decided = boss.post(f"{review_url}/decisions",
                        {"outcome": "denied", "note": "The replay gives it to seat 1"})
    assert decided.status_code == 303
    assert "Denied" in text(boss.client.get(review_url))
