"""The pages on SQLite and PostgreSQL: the table screen's buy-in (mid-round), fills on
numbered slips and a void, the soft count with two PINs, the slip's PDF, and the day/MTD/YTD
hold report as PDF and CSV in both languages."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from flask import Flask
from pypdf import PdfReader
from sqlmodel import select

from dealer_assist.edge import undeclared_endpoints
from dealer_assist.models import BuyIn, GameTable, Round, RoundEvent, Slip
from dealer_assist.services.cage import issues
from dealer_assist.services.shifts import shifts
from tests.factories import PIN, make_table, make_user
from tests.web import taps
from tests.web.conftest import Browser, arrange, text


@pytest.fixture
def floor(app: Flask) -> dict[str, Any]:
    def build(session: Any) -> dict[str, Any]:
        people = {n: make_user(session, n, r).id for n, r in (
            ("carla", "croupier"), ("pavel", "pit_boss"), ("maria", "shift_manager"),
            ("root", "admin"), ("audrey", "auditor"),
            # the count team and the cage
            ("kira", "count_team"), ("kostya", "count_team"), ("cleo", "cage_cashier"))}
        table = make_table(session, name="RP 1")
        shift = shifts.open_shift(session, table_id=table.id, user_id=people["carla"])
        return {**people, "table": table.id, "shift": shift.id}

    return dict(arrange(app, build))


def _pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def test_every_cage_route_declares_its_roles(app: Flask) -> None:
    assert [e for e in undeclared_endpoints(app) if e.startswith("cage.")] == []


def test_a_buy_in_mid_round_is_recorded_and_the_round_is_untouched(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("carla")
    started = taps.start(browser, floor["table"], "k1", ante_1="100", ante_2="50")
    assert started.status_code == 201, text(started)
    events = arrange(app, lambda s: [(e.seq, e.type) for e in s.exec(select(RoundEvent)).all()])
    screen = text(browser.get(f"/tables/{floor['table']}/live"))
    assert "Buy-in" in screen
    done = browser.post(f"/cage/tables/{floor['table']}/buy-ins",
                        {"buy_in": "5 000", "seat": "2", "player": "C-7"})
    assert done.status_code == 303 and done.location.endswith(f"/tables/{floor['table']}/live")
    assert "Buy-in 5,000" in text(browser.get(f"/tables/{floor['table']}/live"))
    rows = arrange(app, lambda s: [(b.amount, b.seat, b.round_id is not None)
                                   for b in s.exec(select(BuyIn)).all()])
    assert rows == [(5000, "2", True)]
    after = arrange(app, lambda s: [(e.seq, e.type) for e in s.exec(select(RoundEvent)).all()])
    assert after == events
    assert arrange(app, lambda s: s.exec(select(Round)).one().status) == "open"
    refused = browser.post(f"/cage/tables/{floor['table']}/buy-ins", {"buy_in": "5.5"})
    assert refused.status_code == 303
    assert "whole number" in text(browser.get(f"/tables/{floor['table']}/live"))


def _fill(app: Flask, browser: Browser, floor: dict[str, Any], amount: str) -> Any:
    """The cage issues the fill, the pit boss signed in on ``browser`` signs for
    it with the croupier's PIN."""
    issued = arrange(app, lambda s: issues.issue(s, kind="fill", table_id=floor["table"],
                                                 amount=int(amount), actor_id=floor["cleo"]).id)
    return browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                        {"issue_id": issued, "amount": amount, "croupier_id": floor["carla"],
                         "croupier_pin": PIN})


def test_fills_get_numbered_slips_a_void_keeps_the_number_and_the_slip_prints(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("pavel")
    assert _fill(app, browser, floor, "5000").status_code == 302
    assert _fill(app, browser, floor, "7000").status_code == 302
    page = text(browser.get(f"/reports/shifts/{floor['shift']}/inventory"))
    assert "№ 1" in page and "№ 2" in page
    wrong = browser.post("/cage/slips/1/void", {"reason": "never brought",
                                                "signer_id": floor["carla"],
                                                "signer_pin": "9999"})
    assert wrong.status_code == 303
    assert arrange(app, lambda s: len(s.exec(select(Slip)).all())) == 2
    done = browser.post("/cage/slips/1/void", {"reason": "never brought",
                                               "signer_id": floor["carla"],
                                               "signer_pin": PIN})
    assert done.status_code == 303
    page = text(browser.get(f"/reports/shifts/{floor['shift']}/inventory"))
    assert "VOID" in page and "7,000" in page
    resp = browser.get("/cage/slips/1.pdf")
    assert resp.status_code == 200 and resp.mimetype == "application/pdf"
    printed = _pdf_text(resp.data)
    for expected in ("Fill slip", "№ 1", "VOID", "never brought", "RP 1", "Carla", "Pavel",
                     "by PIN", "Issued by the cage", "Cleo"):
        assert expected in printed, expected
    assert browser.get("/cage/slips/99999999999999999999.pdf").status_code == 404


def _close(app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.post(f"/reports/shifts/{floor['shift']}/opening-count",
                 {"amount": "100000", "croupier_id": floor["carla"], "croupier_pin": PIN})
    closed = browser.post(f"/reports/shifts/{floor['shift']}/close",
                          {"closing_amount": "95000", "croupier_id": floor["carla"],
                           "croupier_pin": PIN, "confirm": "yes"})
    assert closed.status_code == 302, text(closed)


def test_the_soft_count_takes_two_pins_and_the_hold_report_prints_in_both_languages(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("carla")
    browser.post(f"/cage/tables/{floor['table']}/buy-ins", {"buy_in": "20000"})
    browser.post("/logout")
    browser.login("pavel")
    _close(app, browser, floor)
    browser.post("/logout")
    browser.login("kira")  # the count team counts the drop
    day = arrange(app, lambda s: s.exec(select(BuyIn)).one().gaming_date.isoformat())
    form = {"table": floor["table"], "counter_a": floor["kira"], "counter_b": floor["kostya"],
            "counter_a_pin": PIN, "counter_b_pin": "", "cash.5000": "4"}
    missing = browser.post(f"/cage/drop?date={day}", form)
    assert missing.status_code == 422 and "enter your PIN" in text(missing)
    form["counter_b_pin"] = PIN
    counted = browser.post(f"/cage/drop?date={day}", form)
    assert counted.status_code == 302, text(counted)
    page = text(browser.get(f"/cage/drop?date={day}"))
    assert "Kira · Kostya" in page
    browser.post("/logout")
    browser.login("pavel")  # the pit reads the hold report
    # win = 95,000 - 100,000 + 20,000 = 15,000; hold = 15,000 / 20,000 = 75.00 %
    preview = text(browser.get(f"/cage/hold?date={day}"))
    assert "75.00 %" in preview and "outside the band" in preview
    en = _pdf_text(browser.get(f"/cage/hold.pdf?date={day}").data)
    assert "Win, drop and hold" in en and "75.00 %" in en and "20,000" in en
    rows = list(csv.reader(io.StringIO(browser.get(f"/cage/hold.csv?date={day}")
                                       .data.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Line", "Table", "Game", "Period"]
    day_row = next(r for r in rows if r[0] == "table" and r[3] == "day")
    assert day_row[6:9] == ["20000", "15000", "75.00"]
    browser.post("/language", {"language": "ru"})
    ru = _pdf_text(browser.get(f"/cage/hold.pdf?date={day}").data)
    assert "Выигрыш, дроп и холд" in ru and "нужна заметка" in ru, ru
    assert "75,00 %" in ru, ru
    ru_rows = list(csv.reader(io.StringIO(browser.get(f"/cage/hold.csv?date={day}")
                                          .data.decode("utf-8-sig"))))
    assert ru_rows[0][1] == "Стол"


def test_a_croupier_counts_no_drop_and_an_auditor_reads_the_hold_report(
        browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("carla")
    assert browser.get("/cage/drop").status_code == 403
    assert browser.get("/cage/hold").status_code == 403
    browser.post("/logout")
    browser.login("audrey")
    assert browser.get("/cage/hold").status_code == 200
    assert browser.post("/cage/hold/notes", {"table": floor["table"], "period": "day",
                                             "note": "x"}).status_code == 403


def test_the_api_records_a_buy_in_and_answers_422_400_409_never_500(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("carla")
    headers = {"X-CSRF-Token": browser.csrf()}
    url = f"/api/v1/tables/{floor['table']}/buy-ins"
    keyed = {**headers, "Idempotency-Key": "tap-1"}
    made = browser.client.post(url, json={"amount": 2500, "seat": 3}, headers=keyed)
    assert made.status_code == 201 and made.json["amount"] == 2500 and made.json["seat"] == "3"
    again = browser.client.post(url, json={"amount": 2500, "seat": 3}, headers=keyed)
    assert again.status_code == 200 and again.json["id"] == made.json["id"]
    zero = browser.client.post(url, json={"amount": 0}, headers=headers)
    assert zero.status_code == 422 and zero.json["field"] == "amount"
    text_amount = browser.client.post(url, json={"amount": "2500"}, headers=headers)
    assert text_amount.status_code in (400, 422)
    assert browser.client.post(url, data=b"\xff{", headers={**headers, "Content-Type":
                                                             "application/json"}
                               ).status_code == 400
    arrange(app, lambda s: make_table(s, name="RP 9"))
    other = arrange(app, lambda s: max(t.id for t in s.exec(select(GameTable)).all()))
    closed = browser.client.post(f"/api/v1/tables/{other}/buy-ins", json={"amount": 10},
                                 headers=headers)
    assert closed.status_code == 409
    browser.post("/logout")
    browser.login("pavel")
    report = browser.client.get("/api/v1/hold")
    assert report.status_code == 200 and report.json["tables"][0]["day"]["buy_ins"] == 2500
    assert browser.client.get("/api/v1/hold?date=nope").status_code == 400
    assert browser.client.get("/api/v1/slips/1").status_code == 404


def test_a_hold_report_whose_holds_are_not_known_does_not_say_they_are_inside_the_band(
        browser: Browser, floor: dict[str, Any]) -> None:
    """"Every table's hold is inside the band" while every hold was "–" (the
    shift open, no drop counted): nothing was compared with the band."""
    browser.login("maria")
    page = text(browser.get("/cage/hold"))
    assert "data-period=\"day\"" in page and "RP 1" in page
    assert "Every table's hold is inside the band" not in page
    assert "No hold to compare with the band yet" in page
    browser.post("/language", {"language": "ru", "next": "/cage/hold"})
    assert "Пока нечего сравнивать с коридором" in text(browser.get("/cage/hold"))


def test_the_count_team_counts_the_drop_the_cage_issues_and_the_pit_signs_by_requests(
        app: Flask, browser: Browser, other_browser: Browser, floor: dict[str, Any]) -> None:
    """By requests as each role sends them. RULES.md, "People at the
    table": "the drop box is counted by the count team, who are independent of the pit (no pit
    boss, shift manager or croupier counts the drop)"; "fill and credit slips are issued by the
    cage and signed at the table by the dealer and the pit"."""
    for pit in ("pavel", "maria", "root", "carla", "audrey"):
        browser.login(pit)
        assert browser.get("/cage/drop").status_code == 403, pit
        assert browser.post("/cage/drop", {"table": floor["table"]}).status_code == 403, pit
        assert browser.post("/cage/issues", {"table": floor["table"], "kind": "fill",
                                             "amount": "5000"}).status_code == 403, pit
        browser.post("/logout")
    browser.login("kira")
    assert browser.get("/cage/drop").status_code == 200
    assert browser.get("/cage/issues").status_code == 403  # the count team issues nothing
    browser.post("/logout")
    other_browser.login("cleo")
    page = other_browser.get("/cage/issues")
    assert page.status_code == 200 and "RP 1" in text(page)
    assert other_browser.get("/cage/drop").status_code == 403  # the cage counts no drop
    assert other_browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                              {}).status_code == 403  # nor signs for the table
    bad = other_browser.post("/cage/issues", {"table": floor["table"], "kind": "fill",
                                              "amount": "5.5"})
    assert bad.status_code == 422 and "whole number" in text(bad)
    done = other_browser.post("/cage/issues", {"table": floor["table"], "kind": "fill",
                                               "amount": "5 000"})
    assert done.status_code == 303, text(done)
    assert "waiting" in text(other_browser.get("/cage/issues"))
    browser.login("pavel")
    inventory_page = text(browser.get(f"/reports/shifts/{floor['shift']}/inventory"))
    assert "Fill · 5,000 · Cleo" in inventory_page
    issued = arrange(app, lambda s: issues.of_shift(s, floor["shift"])[0].id)
    signed = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                          {"issue_id": issued, "croupier_id": floor["carla"],
                           "croupier_pin": PIN, "chips.1000": "5"})
    assert signed.status_code == 302, text(signed)
    again = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                         {"issue_id": issued, "croupier_id": floor["carla"],
                          "croupier_pin": PIN})
    assert again.status_code == 409
    unissued = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                            {"kind": "fill", "amount": "5000", "croupier_id": floor["carla"],
                             "croupier_pin": PIN})
    assert unissued.status_code == 422 and arrange(
        app, lambda s: len(s.exec(select(Slip)).all())) == 1
    assert "Table signed" in text(other_browser.get("/cage/issues"))
    slip = text(other_browser.get("/cage/slips/1"))  # the cage reads the slip it issued
    assert "Issued by the cage" in slip and "Cleo" in slip


def test_with_three_signers_set_the_soft_count_asks_a_third_pin(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    """"how many members sign is a casino setting, at least two" (COUNT_TEAM_SIGNERS)."""
    app.config["COUNT_TEAM_SIGNERS"] = 3
    browser.login("pavel")
    _close(app, browser, floor)
    browser.post("/logout")
    browser.login("kira")
    page = text(browser.get(f"/cage/drop?table={floor['table']}"))
    assert 'name="counter_c"' in page and 'name="counter_c_pin"' in page
    day = arrange(app, lambda s: shifts.get_shift(s, floor["shift"]).gaming_date.isoformat())
    form = {"table": floor["table"], "counter_a": floor["kira"], "counter_b": floor["kostya"],
            "counter_a_pin": PIN, "counter_b_pin": PIN, "cash.5000": "1"}
    short = browser.post(f"/cage/drop?date={day}", {**form, "note": "test"})
    assert short.status_code == 422 and "Choose the counters" in text(short)
