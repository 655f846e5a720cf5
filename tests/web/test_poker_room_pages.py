""""The poker room" (items 4-10), through the pages and the API, on SQLite and
PostgreSQL. One Americana limit hand: ante 10, bring-in 20; seat 2 is all in for 30, so the
showdown has a main pot (120, all four) and a side pot (60, seats 1, 3 and 4)."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from dealer_assist.services.rounds import poker_hands
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import make_user
from tests.web.conftest import Browser, arrange, text


def _up(*cards: str) -> dict[str, Any]:
    return {"type": "street", "up": dict(zip("1234", cards, strict=True))}


#: to the showdown; nobody bets in the last round, so seat 2 (left of the button) shows first
TO_SHOWDOWN: list[dict[str, Any]] = [
    _up("8c", "9d", "Th", "7s"), {"type": "bring_in", "seat": "3"},
    {"type": "call", "seat": "4"}, {"type": "call", "seat": "1"}, {"type": "call", "seat": "2"},
    _up("Ac", "9h", "Jd", "7d"), {"type": "bet", "seat": "4", "to": 20},
    {"type": "call", "seat": "1"}, {"type": "call", "seat": "3"},
    _up("Kc", "Qs", "Js", "8d"), {"type": "check", "seat": "3"},
    {"type": "check", "seat": "4"}, {"type": "check", "seat": "1"},
    _up("Kd", "Qh", "Jh", "8h"), {"type": "check", "seat": "3"},
    {"type": "check", "seat": "4"}, {"type": "check", "seat": "1"},
]
#: seat 2 a full house, nines (the main pot); seat 3 mucks; seat 4 a full house, sevens (the
#: side pot); seat 1 mucks
SHOWDOWN: list[dict[str, Any]] = [
    {"type": "show", "seat": "2", "cards": ["9c"]}, {"type": "muck", "seat": "3"},
    {"type": "show", "seat": "4", "cards": ["7h"]}, {"type": "muck", "seat": "1"},
]


def _stud_table(app: Flask, croupier: Any) -> int:
    def make(session: Any) -> int:
        t = poker_tables.open_table(session, name="AS 1", profile="americana-limit",
                                    stakes={"ante": 10}, seat_count=6)
        shifts.open_shift(session, table_id=t.id, user_id=croupier.id)
        for seat, (name, chips) in zip("1234", (("Ann", 1000), ("Masha", 30), ("Cy", 1000),
                                                ("Dee", 1000)), strict=True):
            poker_tables.seat_player(session, t.id, seat=seat, player=name, buy_in=chips)
        poker_hands.start_hand(session, table_id=t.id, user_id=croupier.id)
        return t.id
    return int(arrange(app, make))


def _play(app: Flask, croupier: Any, table_id: int, actions: list[dict[str, Any]]) -> int:
    def go(session: Any) -> int:
        hid = poker_hands.current_hand_id(session, table_id)
        assert hid is not None
        hand = poker_hands.load(session, hid)
        for action in actions:
            hand = poker_hands.record(session, round_id=hid, user_id=croupier.id,
                                      action=action, idempotency_key=f"k{hand.last_seq}")
        return hid
    return int(arrange(app, go))


def _turn_line(page: str) -> str:
    found = re.search(r'<p class="turn-line"[^>]*>(.*?)</p>', page, re.S)
    assert found, "no whose-turn line"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_the_reason_to_act_first_belongs_to_the_opener_only(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 4: "the whose-turn line gives every player after the bring-in the bring-in's reason;
    on later streets 'Seat 4 acts first…' for everyone"."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    _play(app, croupier, tid, TO_SHOWDOWN[:1])
    line = _turn_line(text(browser.get(f"/poker/{tid}")))
    assert line.startswith("Seat 3 · Cy to act") and "brings in: 10♥ is the highest card" in line
    _play(app, croupier, tid, TO_SHOWDOWN[1:2])
    assert _turn_line(text(browser.get(f"/poker/{tid}"))) == "Seat 4 · Dee to act"
    _play(app, croupier, tid, TO_SHOWDOWN[2:6])
    line = _turn_line(text(browser.get(f"/poker/{tid}")))
    assert line.startswith("Seat 4 · Dee to act") and "acts first" in line
    _play(app, croupier, tid, TO_SHOWDOWN[6:7])
    assert _turn_line(text(browser.get(f"/poker/{tid}"))) == "Seat 1 · Ann to act"


def test_a_duplicate_up_card_keeps_the_picks_and_marks_the_seat(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 5: "A duplicate up card (K♥ for seats 1 and 4) is refused, but every pick is wiped
    and the message is at the top with 'Kh': keep the picks and mark the seat"."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    page = text(browser.get(f"/poker/{tid}"))
    keyed = dict(re.findall(r'name="(key|seq)" value="([^"]*)"',
                            re.search(r'<form[^>]*class="step street".*?</form>', page,
                                      re.S).group(0)))  # type: ignore[union-attr]
    resp = browser.post(f"/poker/{tid}/act", {**keyed, "type": "street", "up_1": "Kh",
                                              "up_2": "9d", "up_3": "Th", "up_4": "Kh"})
    assert resp.status_code == 422
    page = text(resp)
    for seat, card in (("1", "Kh"), ("2", "9d"), ("3", "Th"), ("4", "Kh")):
        assert re.search(rf'name="up_{seat}"[^>]*value="{card}"', page), (seat, card)
    marked = re.search(r'data-seat-error="(\d)"[^>]*>([^<]+)<', page)
    assert marked is not None and marked.group(1) == "4"
    assert "K♥" in marked.group(2) and "Kh" not in marked.group(2)
    assert 'class="flash flash-error"' not in page  # beside the seat, not at the top


def test_muck_is_offered_only_to_a_player_the_engine_lets_muck(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 6: "Muck is offered to the first player to show, then refused"."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    _play(app, croupier, tid, TO_SHOWDOWN)
    page = text(browser.get(f"/poker/{tid}"))
    assert 'data-to-act="2"' in page and 'data-act="show"' in page
    assert 'data-act="muck"' not in page  # seat 2 shows first: he may not muck
    _play(app, croupier, tid, SHOWDOWN[:1])
    page = text(browser.get(f"/poker/{tid}"))
    assert 'data-to-act="3"' in page and 'data-act="muck"' in page


def test_the_pots_read_with_a_colon_and_are_known_at_the_showdown(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Items 7 and 10: "'Side pot 1 260' reads as 1,260"; "POST /api/v1/poker/hand leaves pots
    out while status is showdown: return them (amount, eligible) from the moment they are
    known"."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    hid = _play(app, croupier, tid, TO_SHOWDOWN)
    hand = browser.get(f"/api/v1/poker/hands/{hid}").get_json()["hand"]
    assert hand["status"] == "showdown"
    assert hand["pots"] == [{"amount": 120, "eligible": ["1", "2", "3", "4"]},
                            {"amount": 60, "eligible": ["1", "3", "4"]}]
    page = text(browser.get(f"/poker/{tid}"))
    pots = [" ".join(re.sub(r"<[^>]+>", "", p).split())
            for p in re.findall(r'<li data-pot="\d">(.*?)</li>', page, re.S)]
    assert pots == ["Main pot: 120 (seats 1, 2, 3, 4)", "Side pot 1: 60 (seats 1, 3, 4)"]
    _play(app, croupier, tid, SHOWDOWN)
    page = text(browser.get(f"/poker/{tid}"))
    awards = [" ".join(re.sub(r"<[^>]+>", "", p).split())
              for p in re.findall(r'<p class="award">(.*?)</p>', page, re.S)]
    assert awards[0].startswith("Main pot: 120 — push 120 to seat 2")
    assert awards[1].startswith("Side pot 1: 60 — push 60 to seat 4")


def test_the_stud_up_cards_are_one_grid_labelled_by_the_card_dealt(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 8: "four 32-card grids stacked at half width ... and the third card is labelled
    'Street 1': one compact grid that fills the seats in turn"."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    page = text(browser.get(f"/poker/{tid}"))
    assert page.count('class="pk-grid') == 1 and "Card 2 (face up)" in page
    _play(app, croupier, tid, TO_SHOWDOWN[:5])
    page = text(browser.get(f"/poker/{tid}"))
    assert page.count('class="pk-grid') == 1
    assert "Card 3" in page and "Street 1" not in page
    for seat in "1234":
        assert f'name="up_{seat}"' in page


def test_an_administrator_finds_and_opens_a_poker_table_and_the_tables_read_as_the_floor_says(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 9: "/poker/new, which nothing links to, and after creating one the administrator
    lands on 'Not allowed'"; "Ante 10–20 RUB · 6 boxes" with raw profile ids."""
    arrange(app, make_user, "root", "admin")
    browser.login("root")
    setup = text(browser.get("/admin/tables"))
    assert 'href="/poker/new"' in setup
    made = browser.post("/poker/new", {"name": "AS 1", "profile": "americana-limit",
                                       "stake": "10", "seats": "6"})
    assert made.status_code == 303
    landed = browser.get(made.headers["Location"])
    assert landed.status_code == 200 and "AS 1" in text(landed)
    browser.post("/poker/new", {"name": "DR 1", "profile": "draw32-pot-limit", "stake": "5",
                                "seats": "5"})
    home = text(browser.get("/"))
    cards = {m.group(1): " ".join(re.sub(r"<[^>]+>", "", m.group(2)).split())
             for m in re.finditer(r'<a class="table-name"[^>]*>([^<]+)</a>(.*?)</li>', home,
                                  re.S)}
    assert "Americana stud · limit" in cards["AS 1"]
    assert "Ante 10 / bring-in 20 · 6 seats" in cards["AS 1"]
    assert "32-card draw · pot-limit" in cards["DR 1"]
    assert "Blinds 5/10/20 · 5 seats" in cards["DR 1"]
    assert "americana-limit" not in home and "boxes" not in cards["AS 1"]


def test_up_cards_picked_as_the_dealer_reads_them_are_stored_as_codes(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """Item 8: the grid writes each seat's card as the dealer reads it (10♥); the hand stores
    the code (Th), as every other event does."""
    tid = _stud_table(app, croupier)
    browser.login("carla")
    page = text(browser.get(f"/poker/{tid}"))
    form = re.search(r'<form[^>]*class="step street".*?</form>', page, re.S)
    assert form is not None
    keyed = dict(re.findall(r'name="(key|seq)" value="([^"]*)"', form.group(0)))
    resp = browser.post(f"/poker/{tid}/act", {**keyed, "type": "street", "up_1": "8♣",
                                              "up_2": "9♦", "up_3": "10♥", "up_4": "7♠"})
    assert resp.status_code == 303
    hid = arrange(app, lambda s: poker_hands.current_hand_id(s, tid))
    actions = browser.get(f"/api/v1/poker/hands/{hid}").get_json()["actions"]
    assert actions[-1]["up"] == {"1": "8c", "2": "9d", "3": "Th", "4": "7s"}
    assert browser.get(f"/rounds/{hid}").status_code == 200
