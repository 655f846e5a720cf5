"""Shift report and inventory pages, and the ``flask report shift`` command, on SQLite and
PostgreSQL: who may reach them, the pit boss's flow from opening count to closing, the PDF
download and the command-line PDF with its SHA-256."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskCliRunner

from dealer_assist import db
from dealer_assist.edge import undeclared_endpoints
from dealer_assist.models import Shift
from dealer_assist.services import reports
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import shifts
from tests.factories import PIN, cage_issue, make_table, make_user, start_round
from tests.web.conftest import Browser, arrange, text


@pytest.fixture
def floor(app: Flask) -> dict[str, Any]:
    def build(session: Any) -> dict[str, Any]:
        people = {n: make_user(session, n, r).id for n, r in (
            ("carla", "croupier"), ("pavel", "pit_boss"), ("maria", "shift_manager"),
            ("root", "admin"))}
        table = make_table(session, name="RP <b>1</b>")
        shift = shifts.open_shift(session, table_id=table.id, user_id=people["carla"])
        return {**people, "table": table.id, "shift": shift.id}

    return dict(arrange(app, build))


def _opening(browser: Browser, f: dict[str, Any], amount: str = "100 000") -> Any:
    return browser.post(f"/reports/shifts/{f['shift']}/opening-count",
                        {"amount": amount, "croupier_id": f["carla"], "note": "<i>ok</i>",
                         "croupier_pin": PIN})


def test_every_report_route_declares_its_roles(app: Flask) -> None:
    assert [e for e in undeclared_endpoints(app) if e.startswith("reports.")] == []


def test_a_croupier_reaches_neither_the_inventory_page_nor_the_report(
        browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("carla")
    for url in (f"/reports/shifts/{floor['shift']}/inventory", f"/reports/shifts/{floor['shift']}",
                f"/reports/shifts/{floor['shift']}.pdf", "/reports/"):
        assert browser.get(url).status_code == 403, url


def test_an_administrator_reads_reports_but_does_not_count_chips(
        browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("root")
    assert browser.get(f"/reports/shifts/{floor['shift']}").status_code == 200
    assert browser.get(f"/reports/shifts/{floor['shift']}/inventory").status_code == 403


def test_a_pit_boss_counts_fills_and_closes_the_shift_through_the_pages(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("pavel")
    assert _opening(browser, floor).status_code == 302
    issued = arrange(app, lambda s: cage_issue(s, floor["shift"], "fill", 25_000))
    resp = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                        {"issue_id": issued, "kind": "fill", "amount": "25,000",
                         "croupier_id": floor["carla"], "croupier_pin": PIN})
    assert resp.status_code == 422  # a comma is not a whole number; the form says so
    resp = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                        {"issue_id": issued, "kind": "fill", "amount": "25000",
                         "croupier_id": floor["carla"], "croupier_pin": PIN})
    assert resp.status_code == 302
    resp = browser.post(f"/reports/shifts/{floor['shift']}/close",
                        {"closing_amount": "125000", "croupier_id": floor["carla"],
                         "croupier_pin": PIN, "confirm": "yes"})
    assert resp.status_code == 302
    with db.session_scope(app) as session:
        shift = session.get(Shift, floor["shift"])
        assert shift is not None and shift.status == "closed"
    page = text(browser.get(f"/reports/shifts/{floor['shift']}"))
    assert "&lt;i&gt;ok&lt;/i&gt;" in page and "RP &lt;b&gt;1&lt;/b&gt;" in page
    assert re.search(r"Table win</th><td>0</td>", page)
    assert re.search(r"entry of the closing</dt><dd><code>\d+:[0-9a-f]{64}</code>", page)


def test_closing_through_the_page_is_refused_while_a_round_is_open(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    arrange(app, lambda s: start_round(s, table_id=floor["table"], actor_id=floor["carla"],
                                       boxes=[live.BoxStake("1", 100)], idempotency_key="k"))
    browser.login("pavel")
    _opening(browser, floor)
    page = browser.get(f"/reports/shifts/{floor['shift']}/inventory")
    assert "Round 1 still open" in text(page)
    resp = browser.post(f"/reports/shifts/{floor['shift']}/close",
                        {"closing_amount": "1", "croupier_id": floor["carla"],
                         "croupier_pin": PIN, "confirm": "yes"})
    assert resp.status_code == 409 and "still open" in text(resp)


def test_closing_needs_the_confirmation_box(browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("pavel")
    _opening(browser, floor)
    resp = browser.post(f"/reports/shifts/{floor['shift']}/close",
                        {"closing_amount": "1", "croupier_id": floor["carla"],
                         "croupier_pin": PIN})
    assert resp.status_code == 422


def test_a_shift_manager_downloads_the_pdf_with_its_sha256(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("maria")
    resp = browser.get(f"/reports/shifts/{floor['shift']}.pdf?size=letter")
    assert resp.status_code == 200 and resp.mimetype == "application/pdf"
    assert resp.data.startswith(b"%PDF")
    assert 'filename="shift-1-RP-b-1-b-' in resp.headers["Content-Disposition"]
    # the lab's figures are read from the same database, as the request did
    with app.app_context(), db.session_scope(app, write=False) as session:
        expected = reports.digest(reports.build_shift_report(
            session, floor["shift"], zone_name=_zone_name(app)))
    assert resp.headers["X-Report-SHA256"] == expected
    assert browser.get(f"/reports/shifts/{floor['shift']}.pdf?size=a3").status_code == 404


def _zone_name(app: Flask) -> str:
    return str(app.config.get("TIMEZONE") or datetime.now().astimezone().tzname())


def test_the_report_command_writes_a_pdf_and_prints_its_sha256(
        runner: FlaskCliRunner, floor: dict[str, Any], tmp_path: Path) -> None:
    out, data = tmp_path / "r.pdf", tmp_path / "r.json"
    result = runner.invoke(args=["report", "shift", str(floor["shift"]), "-o", str(out),
                                 "--json", str(data)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF")
    assert f"SHA-256: {hashlib.sha256(data.read_bytes()).hexdigest()}" in result.output


def test_the_report_command_names_an_unknown_shift(runner: FlaskCliRunner,
                                                   tmp_path: Path) -> None:
    result = runner.invoke(args=["report", "shift", "42", "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code != 0 and "No shift with id 42" in result.output
