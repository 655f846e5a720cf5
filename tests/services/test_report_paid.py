"""Defects 3 and 4, on SQLite and PostgreSQL: the shift report's "Paid" is what the
box won net (its fees, collected at the tap, taken off; left the figure as it was), gross
figures are labelled as such,
every capped wager stands against its own cap, and each signer is printed in the role they
signed in."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlmodel import Session

from dealer_assist.services import reports
from dealer_assist.services.shifts import inventory
from tests.factories import SIGNED
from tests.services.conftest_reports import (
    T0,
    Floor,
    Played,
    make_floor,
    open_inventory,
    store_round,
)


def _wager(stake: int, net: int, why: str = "") -> dict[str, Any]:
    outcome = "win" if net > 0 else "lose" if net < 0 else "push"
    return {"stake": stake, "outcome": outcome, "net": net, "explanation": why}


def _box(box: str, wagers: dict[str, dict[str, Any]], category: str, label: str,
         capped: bool = False) -> dict[str, Any]:
    return {"box": box, "seat": box, "folded": False, "hand": {"label": label},
            "small_hand": None, "wagers": wagers,
            "net": sum(w["net"] for w in wagers.values()),
            "combinations": [{"category": category, "cards": [], "multiplier": 5}],
            "capped": capped, "explanation": "", "notes": []}


#: box 1 won 1,700 on the bet and paid a 100 improvement fee at the tap: the table screen said
#: COLLECT 100 then and PAY 1,700 at the showdown; it won 1,600 net.
#: box 2 on a 50,000 table: combination + insurance capped together at 50,000 and the bonus
#: capped on its own at 50,000 (two caps, never one "100,000 at the cap").
SETTLEMENT = {"dealer": {"qualified": True, "bought": False}, "boxes": [
    _box("1", {"ante": _wager(100, 0, "ANTE returned"),
               "bet": _wager(200, 1700, "Flush: BET paid"),
               "improvement_fee": _wager(100, -100, "improvement fee lost")},
         "flush", "Flush"),
    _box("2", {"ante": _wager(500, 0, "ANTE returned"),
               "bet": _wager(1000, 49_000, "Straight flush: BET paid 50:1, capped at 49000 "
                                           "(maximum payout 50000 for combination plus "
                                           "insurance)"),
               "insurance": _wager(500, 1_000, "insurance paid 2:1"),
               "bonus": _wager(50, 50_000, "bonus paid 1000:1, capped at 50000 (maximum "
                                           "payout 50000)")},
         "straight_flush", "Straight flush", capped=True),
]}


def _shift_with_the_round(session: Session) -> Floor:
    floor = make_floor(session)
    open_inventory(session, floor, fills=(), credits=())
    store_round(session, floor, Played([("paid", {})], SETTLEMENT), actor_id=floor.croupier,
                at=T0 + timedelta(minutes=5))
    session.commit()
    return floor


def test_the_largest_payouts_show_what_the_croupier_paid_and_label_the_gross(
        session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    by_box = {p["box"]: p for p in data["largest_payouts"]}
    assert (by_box["1"]["paid"], by_box["1"]["gross"]) == (1600, 1700)
    assert by_box["2"]["paid"] == 100_000  # what the box took home: two capped wins + insurance


def test_hands_paid_by_category_show_the_paid_amount_and_the_gross_bet_win(
        session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    flush = next(h for h in data["hands_paid"] if h["category"] == "flush")
    assert (flush["boxes"], flush["paid"], flush["gross"]) == (1, 1600, 1700)


def test_each_capped_wager_is_shown_against_its_own_cap_never_summed(session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    lines = [(c["box"], c["wager"], c["paid"], c["cap"]) for c in data["capped"]]
    assert lines == [("2", "bet", 49_000, 50_000), ("2", "bonus", 50_000, 50_000)]
    assert all(c["paid"] <= c["cap"] for c in data["capped"])
    assert data["capped"][0]["shared"] == "combination plus insurance"


def test_the_report_page_prints_paid_and_gross_and_each_cap(session: Session) -> None:
    from dealer_assist import create_app, pdf

    floor = _shift_with_the_round(session)
    data, sha = reports.report_with_digest(session, floor.shift_id)
    with create_app({"TESTING": True, "SECRET_KEY": "t"}).app_context():
        html = pdf.report_html(data, sha)
    assert "Gross wins" in html and "Gross bet win" in html and "Its cap" in html
    assert _capped_rows(html) == [("2", "Bet", "49,000", "50,000"),
                                  ("2", "Bonus", "50,000", "50,000")]


def _capped_rows(html: str) -> list[tuple[str, ...]]:
    """The "Capped payouts" table as (box, wager, paid, its cap), read from the page's cells."""
    import re

    section = html[html.index("Capped payouts"):]
    body = section[section.index("<tbody>"):section.index("</tbody>")]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<small>.*?</small>|<[^>]+>", "", c).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        rows.append((cells[2], cells[4], cells[5], cells[6]))
    return rows


def test_a_shift_manager_who_signs_the_count_is_printed_as_shift_manager(
        session: Session) -> None:
    floor = _shift_with_the_round(session)
    inventory.close_shift(session, credential=SIGNED,
                          shift_id=floor.shift_id, closing_amount=100_000,
                          croupier_id=floor.croupier, pit_boss_id=floor.manager,
                          actor_id=floor.manager, now=T0 + timedelta(hours=1))
    session.commit()
    data = reports.build_shift_report(session, floor.shift_id)
    assert data["signatures"] == [{"role": "Croupier", "name": "Carla"},
                                  {"role": "Pit boss", "name": None},
                                  {"role": "Shift manager", "name": "Maria"}]
    assert data["inventory"]["closing"]["pit_boss_title"] == "Shift manager"


def test_a_pit_boss_who_signs_the_count_is_printed_as_pit_boss(session: Session) -> None:
    floor = _shift_with_the_round(session)
    inventory.close_shift(session, credential=SIGNED,
                          shift_id=floor.shift_id, closing_amount=100_000,
                          croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                          actor_id=floor.pit_boss, now=T0 + timedelta(hours=1))
    session.commit()
    data = reports.build_shift_report(session, floor.shift_id)
    assert [s["name"] for s in data["signatures"]] == ["Carla", "Pavel", None]
