"""The shift report (HTML and the WeasyPrint PDF, en and ru) lists the steps recorded
offline -- round, step, tapped time against received time -- and the refused ones with why.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its stored
events are the record."
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

from flask import Flask
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import Shift
from dealer_assist.services.reports import build_shift_report
from tests.web.conftest import Browser, text
from tests.web.test_offline import start, step, tapped_ago, void
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)

CLOCK = r"\d\d:\d\d:\d\d"


def _offline_shift(app: Flask, browser: Browser, people: dict[str, Any]) -> int:
    """Round 1 started and bet offline; a pit boss voids it meanwhile; the queued fold of box
    1 is refused when the tablet sends it."""
    _bind(browser, people["table"])
    rid = int(start(browser, people["table"], tapped_at=tapped_ago(),
                    offline="true").get_json()["round"]["id"])
    assert step(browser, rid, "bet", {"box": "1"}, "q2", tapped_at=tapped_ago(),
                offline=True).status_code == 201
    void(app, people, rid)
    assert step(browser, rid, "fold", {"box": "1"}, "q3", tapped_at=tapped_ago(),
                offline=True).status_code == 409
    with db.session_scope(app) as dbs:
        return int(dbs.exec(select(Shift.id)).one())


def test_the_report_data_lists_the_offline_steps_and_the_refused_one(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    shift_id = _offline_shift(app, browser, floor)
    with db.session_scope(app) as dbs:
        data = build_shift_report(dbs, shift_id)
    steps = data["offline"]["steps"]
    assert [(s["round"], s["step"]) for s in steps] == [(1, "place"), (1, "deal_dealer"),
                                                        (1, "bet")]
    assert all(s["tapped_at"] < s["received_at"] for s in steps)
    [refused] = data["offline"]["refused"]
    assert (refused["round"], refused["step"], refused["status"]) == (1, "fold", 409)
    assert "voided" in refused["why"] and refused["tapped_at"] < refused["received_at"]


def _pdf_text(pdf: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    out = Path(__file__).resolve().parents[2] / "test-artifacts" / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-png", "-r", "70", str(path), str(out / name)], check=True)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_the_report_prints_the_offline_steps_in_html_and_pdf_in_both_languages(
        app: Flask, browser: Browser, other_browser: Browser, floor: dict[str, Any],  # noqa: F811
        tmp_path: Path) -> None:
    shift_id = _offline_shift(app, browser, floor)
    assert other_browser.login("pavel").status_code == 302
    html = text(other_browser.get(f"/reports/shifts/{shift_id}"))
    section = html[html.index("data-offline-steps"):]
    assert "Steps recorded offline" in section and "Refused when sent (1)" in section
    assert re.search(rf"<td>1</td><td class=\"t\">Bet</td><td class=\"t\">{CLOCK}</td>"
                     rf"<td class=\"t\">{CLOCK}</td>", section), section
    assert re.search(r"<td class=\"t\">Fold</td>.*voided", section, re.S)
    en = _pdf_text(other_browser.get(f"/reports/shifts/{shift_id}.pdf").data, tmp_path,
                   "issue34-offline-en")
    assert "Steps recorded offline" in en and "Refused when sent (1)" in en
    assert re.search(rf"^\s*1\s+Bet\s+{CLOCK}\s+{CLOCK}\s*$", en, re.M), en
    assert re.search(rf"^\s*1\s+Fold\s+{CLOCK}\s+{CLOCK}\s+.*voided", en, re.M), en
    other_browser.post("/language", {"language": "ru", "next": "/floor"})
    ru = _pdf_text(other_browser.get(f"/reports/shifts/{shift_id}.pdf").data, tmp_path,
                   "issue34-offline-ru")
    assert "Шаги, записанные без сети" in ru and "Отклонены при отправке (1)" in ru
    assert re.search(rf"^\s*1\s+Бет\s+{CLOCK}\s+{CLOCK}\s*$", ru, re.M), ru
    # the reason in the reader's language, though the tablet was answered in English
    assert re.search(rf"^\s*1\s+Фолд\s+{CLOCK}\s+{CLOCK}\s+Раунд 1: аннулирован", ru, re.M), ru
