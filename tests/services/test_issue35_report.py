"""Issue 35, the shift report's wording over a real shift (SQLite and PostgreSQL): item 12,
"Decisions against the best strategy" named box numbers as players ("1", "2", "5")."""

from __future__ import annotations

import re

from flask import Flask
from sqlmodel import Session

from dealer_assist import pdf
from dealer_assist.services import reports
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
