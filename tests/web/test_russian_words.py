"""The Russian pages and PDFs said one concept in two words, left English
inside Russian sentences, mixed decimal separators and ISO dates with dd.mm.yyyy, and broke
agreement. One term per concept (docs/glossary.md, "One term per concept"), numbers and dates
by the reader's locale."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from flask import Flask
from pypdf import PdfReader

from dealer_assist.models import Shift
from dealer_assist.services.people import reliefs
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import SIGNED, make_table, make_user
from tests.web.conftest import Browser, arrange, text

RU = Path(__file__).resolve().parents[2] / "dealer_assist/translations/ru/LC_MESSAGES/messages.po"
#: words the glossary replaced, and the one word kept for the concept
NOT_SAID = {r"\bкредит": "изъятие (a credit: chips to the cage)",
            r"\bкруг \d|\bкруг %": "раунд (a round); круг торговли (a betting round)",
            r"Плата за обмен": "плата за улучшение (the exchange or sixth card fee)"}


def test_the_russian_catalog_says_each_concept_in_one_word() -> None:
    with RU.open("rb") as f:
        catalog = read_po(f, locale="ru")
    found = []
    for m in catalog:
        for said in (m.string if isinstance(m.string, tuple) else (m.string,)):
            found += [f"{said!r}: say {word}" for pattern, word in NOT_SAID.items()
                      if said and re.search(pattern, said)]
    assert not found, found


def _russian_floor(session: Any) -> dict[str, int]:
    maria = make_user(session, "maria", "shift_manager", language="ru")
    carla = make_user(session, "carla", "croupier")
    dimitri = make_user(session, "dimitri", "croupier")
    table = make_table(session, name="RP 1")
    shift = shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    opened = session.get(Shift, shift.id).opened_at
    reliefs.relieve(session, table_id=table.id, now=opened + timedelta(minutes=45),
                    relief=reliefs.Relief(dimitri.id, SIGNED))
    poker = poker_tables.open_table(session, name="AS 1", profile="americana-limit",
                                    stakes={"ante": 10}, seat_count=6)
    poker_shift = shifts.open_shift(session, table_id=poker.id, user_id=carla.id)
    return {"maria": maria.id, "table": table.id, "shift": shift.id,
            "poker_shift": poker_shift.id}


def test_russian_reports_write_numbers_and_dates_the_russian_way(
        app: Flask, browser: Browser) -> None:
    floor = arrange(app, _russian_floor)
    browser.login("maria")
    listing = text(browser.get("/reports/"))
    assert not re.search(r"\d{4}-\d\d-\d\d", listing), "an ISO date on the Russian list"
    assert re.search(r"\d\d\.\d\d\.\d{4}", listing)
    assert "открыта" in listing and ">открыт<" not in listing  # смена: feminine
    report = text(browser.get(f"/reports/shifts/{floor['shift']}"))
    dealers = report[report.index("Дилеры"):report.index("Ставки")]
    assert "0,00" in dealers and not re.search(r"\d\.\d\d", dealers), dealers
    poker = text(browser.get(f"/reports/shifts/{floor['poker_shift']}"))
    assert "6 мест" in poker and "6 места" not in poker
    pdf = browser.get(f"/reports/shifts/{floor['shift']}.pdf")
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.data)).pages)
    assert not re.search(r"\d{4}-\d\d-\d\d", printed), "an ISO date in the Russian PDF"
    table = text(browser.get(f"/tables/{floor['table']}"))
    assert not re.search(r"\d{4}-\d\d-\d\d", table.split("<form")[0])


def test_a_refused_rotation_interval_is_said_in_russian(app: Flask, browser: Browser) -> None:
    def pit(session: Any) -> int:
        make_user(session, "petra", "pit_boss", language="ru")
        return int(make_table(session, name="RP 1", pit="A").id)

    table_id = arrange(app, pit)
    browser.login("petra")
    resp = browser.post(f"/floor/tables/{table_id}/rotation", {"rotation_minutes": "3"})
    assert resp.status_code == 303
    page = text(browser.get(resp.headers["Location"]))
    assert "Интервал смены дилеров — от 5 до 240 минут." in page
    assert "The rotation interval" not in page


def test_the_russian_decimal_filter_uses_a_comma(app: Flask) -> None:
    from dealer_assist.i18n.formats import decimal, pct

    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert (decimal(0.7531, 3), pct("45.00"), decimal(None, 2)) == ("0,753", "45,00", "–")
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert decimal(0.7531, 3) == "0.753"


def test_a_shared_cap_is_said_in_the_reader_s_language(app: Flask) -> None:
    """"Бет (общий предел: combination plus insurance)" in the Russian PDF."""
    from dealer_assist.i18n.wording import say
    from dealer_assist.services.reports.house import SHARED_CAPS

    with app.test_request_context(headers={"Accept-Language": "ru"}):
        assert say(SHARED_CAPS["combination plus insurance"]) == "комбинация и страховка"
