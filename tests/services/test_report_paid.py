"""Defects 3 and 4, on SQLite and PostgreSQL: the shift report's "Paid" is what the
box won net (its fees, collected at the tap, taken off; left the figure as it was), gross
figures are labelled as such,
every capped wager stands against its own cap, each signer is printed in the role they
signed in, and a round voided at the table in old data is still listed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlmodel import Session

from dealer_assist.models import Round, RoundStatus
from dealer_assist.rules.games.registry import start
from dealer_assist.services import reports
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import inventory
from tests.factories import SIGNED, old_event, start_round
from tests.services.conftest_reports import (
    T0,
    Floor,
    Played,
    make_floor,
    open_inventory,
    store_round,
    table_step,
)

#: one round recorded as the table records it, on a 50,000 table: box 1 exchanges a card (fee
#: 100, collected at the tap), buys the dealer a game (fee 100) and wins 1,000 on its flush: the
#: table screen said COLLECT 100 twice and PAY 1,000 at the showdown; it won 800 net. Box 2 holds
#: a royal flush with a 100 bonus and 500 of insurance: the dealer has no game at the reveal
#: (insurance paid 1:1), it buys a game (fee 500) that the dealer's draw makes, so its BET
#: (100,000) and insurance (500) are capped together at 50,000 and the bonus (100,000) on its
#: own at 50,000 (two caps, never one "100,000 at the cap").
STEPS: list[tuple[str, dict[str, Any]]] = [
    ("place", {"boxes": [{"box": "1", "seat": "1", "ante": 100},
                         {"box": "2", "seat": "2", "ante": 500, "bonus": 100}]}),
    ("deal_dealer", {"up": []}),
    ("exchange", {"box": "1", "count": 1}),
    ("bet", {"box": "1"}), ("bet", {"box": "2"}),
    ("insure", {"box": "2", "amount": 500, "cards": ["As", "Ks", "Qs", "Js", "Ts"]}),
    ("reveal", {"cards": ["Kd", "9c", "7h", "4d", "2c"]}),
    ("show", {"box": "1", "cards": ["3h", "6h", "9h", "Jh", "Qh"]}),
    ("buy_game", {"box": "1"}), ("buy_game", {"box": "2"}),
    ("dealer_draw", {"cards": ["9d"]}),
]


def _the_round(floor: Floor) -> Played:
    flow, empty = start("russian", floor.profile, *floor.limits)
    state, events = empty, []
    for kind, payload in STEPS:
        state, stored = table_step(flow, state, kind, payload)
        events.append((kind, stored))
    return Played([*events, ("paid", {})], flow.settle(state).to_dict())


def _shift_with_the_round(session: Session) -> Floor:
    floor = make_floor(session)
    open_inventory(session, floor, fills=(), credits=())
    store_round(session, floor, _the_round(floor), actor_id=floor.croupier,
                at=T0 + timedelta(minutes=5))
    session.commit()
    return floor


def test_the_largest_payouts_show_what_the_croupier_paid_and_label_the_gross(
        session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    by_box = {p["box"]: p for p in data["largest_payouts"]}
    assert (by_box["1"]["paid"], by_box["1"]["gross"]) == (800, 1000)  # two fees of 100 off
    # what the box took home: two capped wins and the insurance, less its buy-game fee
    assert (by_box["2"]["paid"], by_box["2"]["gross"]) == (99_500, 100_000)


def test_hands_paid_by_category_show_the_paid_amount_and_the_gross_bet_win(
        session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    flush = next(h for h in data["hands_paid"] if h["category"] == "flush")
    assert (flush["boxes"], flush["paid"], flush["gross"]) == (1, 800, 1000)


def test_each_capped_wager_is_shown_against_its_own_cap_never_summed(session: Session) -> None:
    floor = _shift_with_the_round(session)
    data = reports.build_shift_report(session, floor.shift_id)
    lines = [(c["box"], c["wager"], c["paid"], c["cap"]) for c in data["capped"]]
    assert lines == [("2", "bet", 49_500, 50_000), ("2", "bonus", 50_000, 50_000)]
    assert all(c["paid"] <= c["cap"] for c in data["capped"])
    assert data["capped"][0]["shared"] == "combination plus insurance"


def test_the_report_page_prints_paid_and_gross_and_each_cap(session: Session) -> None:
    from dealer_assist import create_app, pdf

    floor = _shift_with_the_round(session)
    data, sha = reports.report_with_digest(session, floor.shift_id)
    with create_app({"TESTING": True, "SECRET_KEY": "t"}).app_context():
        html = pdf.report_html(data, sha)
    assert "Gross wins" in html and "Gross bet win" in html and "Its cap" in html
    assert _capped_rows(html) == [("2", "Bet", "49,500", "50,000"),
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


def test_a_round_voided_at_the_table_in_old_data_is_listed_with_its_croupier_and_no_approver(
        session: Session) -> None:
    """Old data: a redeal closed by a ``void`` event (the record path now files a void request
    a pit boss approves instead) is still listed, by who recorded the event."""
    floor = _shift_with_the_round(session)
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                      boxes=[live.BoxStake("1", 100)], idempotency_key="old-void")
    old_event(session, round_id=rnd.round.id, type="void", payload={},
              actor_id=floor.croupier, key="old-void:void")
    row = session.get(Round, rnd.round.id)
    assert row is not None
    row.status = RoundStatus.VOIDED.value
    session.commit()
    (void,) = reports.build_shift_report(session, floor.shift_id)["voids"]
    assert (void["round"], void["reason"], void["requested_by"], void["approved_by"]) == (
        2, "Redeal: closed as void at the table", "Carla", None)
