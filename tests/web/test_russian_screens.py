"""("Russian") through the pages, on SQLite and PostgreSQL: a Russian croupier
plays a Caribbean round with a fold and asks for a redeal at Russian poker, files a dispute, a
Russian pit boss approves the void and reads the shift report; on every page every word a
person reads is Russian, or a name, a typed note or a code (the allowed Latin words are listed).
The table screen's layout at both sizes is checked in tests/browser/test_floor_screens.py.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.taps import screen_words
from tests.web.test_live_pages import round_of, start, step

#: the product's name, people's and tables' names, and codes (SHA-256 in hex, the profile's
#: id, formats; "PIN" as in Russian "PIN-код")
ALLOWED = {"dealer", "assist", "Carla", "Olga", "Petr", "RP", "CS", "SHA", "JSON", "UTF", "UTC",
           "PDF", "PIN", "A4", "Letter", "russian-classic", "caribbean-classic",
           "as", "kd"}  # card codes in the hint "tap below or type: as kd 10h"


def latin_words(page: str) -> set[str]:
    """The Latin words a person reads on ``page`` that are not allowed (hex digests aside)."""
    page = re.sub(r"<(script|style|code)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    page = page.replace("&#39;", "'").replace("&amp;", "&")
    words = set(re.findall(r"[A-Za-z][A-Za-z\-]*[A-Za-z]", page))
    return {w for w in words if w not in ALLOWED and not re.fullmatch(r"[a-f0-9]+", w)}


def _tables(app: Flask) -> tuple[Any, Any]:
    def build(session: Any) -> tuple[Any, Any]:
        make_user(session, "carla", "croupier", language="ru")
        make_user(session, "petr", "pit_boss", language="ru")
        return (make_table(session, name="CS 1", game="caribbean"),
                make_table(session, name="RP 1", game="russian"))
    return arrange(app, build)  # type: ignore[no-any-return]


def test_a_russian_round_dispute_void_and_report_say_everything_in_russian(
        app: Flask, browser: Browser, other_browser: Browser) -> None:
    cs, rp = _tables(app)
    browser.login("carla")
    for table in (cs, rp):
        assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    start(browser, cs, ante_1="50", ante_2="50")
    for type, fields in (("deal_dealer", {"up": ["8c"]}), ("bet", {"box": "1"}),
                         ("fold", {"box": "2"}), ("reveal", {"cards": ["2s", "3d", "9h", "Jc"]})):
        assert step(browser, app, cs, type, **fields).status_code == 201
    assert latin_words(text(browser.get("/password"))) == set(), "password form"
    screen = screen_words(text(browser.get(f"/tables/{cs.id}/live")))
    assert "фолд: АНТЕ проиграно" in screen
    assert latin_words(screen) == set(), sorted(latin_words(screen))  # the renderer too
    rid = round_of(app, cs).round.id
    paid = step(browser, app, cs, "paid")
    assert paid.status_code == 201
    assert paid.get_json()["paid"] == "Раунд 1 выплачен. Следующий раунд."
    filed = browser.post(f"/rounds/{rid}/disputes", {"box": "1", "claim": "Недоплата",
                                                     "claimed_amount": "50"})
    assert filed.status_code == 303
    assert latin_words(text(browser.get(filed.headers["Location"]))) == set(), "dispute"
    assert latin_words(text(browser.get(f"/rounds/{rid}"))) == set(), "round page"

    start(browser, rp, ante_1="100", ante_2="100")
    assert step(browser, app, rp, "redeal", box="2", cards_received=6).status_code == 202
    waiting = screen_words(text(browser.get(f"/tables/{rp.id}/live")))
    assert "пересдача: бокс 2 получил карт: 6" in waiting
    assert latin_words(waiting) == set(), "void waiting"

    boss = other_browser
    boss.login("petr")
    approvals = text(boss.get("/changes"))
    assert "пересдача: бокс 2 получил карт: 6" in approvals
    assert latin_words(approvals) == set(), "approvals"
    request_id = re.search(r'action="/changes/(\d+)/decision"', approvals)
    assert request_id is not None
    assert boss.post(f"/changes/{request_id.group(1)}/decision",
                     {"approve": "yes", "note": ""}).status_code in (302, 303)

    def shift_of(session: Any) -> int:
        found = shifts.open_shift_of(session, cs.id)
        assert found is not None
        return found.id

    shift_id = arrange(app, shift_of)
    report = text(boss.get(f"/reports/shifts/{shift_id}"))
    assert latin_words(report) == set(), "report"
    assert re.search(r"\d+,\d\d %", report), "a percentage with a decimal comma"
    assert latin_words(_pdf_text(boss.get(f"/reports/shifts/{shift_id}.pdf").data)) == set()


def _pdf_text(body: bytes) -> str:
    import io

    from pypdf import PdfReader

    return " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
