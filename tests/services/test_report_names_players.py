"""The shift report's wording over a real shift (SQLite and PostgreSQL): item 12,
"Decisions against the best strategy" named box numbers as players ("1", "2", "5")."""

from __future__ import annotations

import re

from flask import Flask
from sqlmodel import Session

from dealer_assist import pdf
from dealer_assist.services import reports
from dealer_assist.services.rounds import live
from tests.factories import pay_round, record_step, start_round
from tests.services.test_disputes import Floor, play
from tests.services.test_floor import app, floor  # noqa: F401  (the fixtures)


def test_a_box_that_names_no_player_is_called_a_box_not_a_player(
        session: Session, floor: Floor, app: Flask) -> None:  # noqa: F811
    for _ in range(2):
        play(session, floor)
    session.commit()
    data = reports.build_shift_report(session, floor.shift_id)
    players = data["decisions"]["players"]
    assert [(p["seat"], p["named"]) for p in players] == [("1", False), ("2", False)]
    with app.test_request_context("/"):
        html = pdf.report_html(data, "0" * 64)
    section = html[html.index("Decisions against the best strategy"):]
    table = section[section.index(">Player<"):]
    rows = re.findall(r'<th scope="row">([^<]*)</th><td>', table[:table.index("</table>")])
    assert rows == ["Box 1", "Box 2"]


def test_hands_paid_by_category_reconcile_paid_with_the_bet_other_wins_and_what_was_taken(
        session: Session, floor: Floor) -> None:  # noqa: F811
    """"Hands paid by category" counted the bonus in Paid but not in Gross
    bet win, so the two columns could not be reconciled. The line now has the other wagers'
    wins (bonus, insurance, ANTE) and what the boxes lost (fees, lost side bets) beside the
    bet's win: Paid = Gross bet win + other wins - taken."""
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                           boxes=[live.BoxStake("1", 100, 50)], idempotency_key="s")
    for n, (type, payload) in enumerate((
            ("deal_box", {"box": "1", "cards": "as ad ah 9c 9d"}),
            ("deal_dealer", {"cards": "kh ks 4s 5c 6d"}), ("bet", {"box": "1"}),
            ("reveal", {}))):
        record_step(session, round_id=rnd.round.id, actor_id=floor.croupier, type=type,
                         payload=payload, idempotency_key=f"k{n}")
    pay_round(session, round_id=rnd.round.id, actor_id=floor.croupier, idempotency_key="p")
    session.commit()
    data = reports.build_shift_report(session, floor.shift_id)
    [line] = data["hands_paid"]
    box = data["largest_payouts"][0]
    assert line["category"] == "full_house" and line["gross"] == 7 * 200
    assert line["other"] == 100 * 50 and line["taken"] == 0  # the bonus, paid beside the bet
    assert line["paid"] == line["gross"] + line["other"] - line["taken"] == box["paid"]
    assert box["box"] == "1"
