"""On the pit's pages (outside the table screen), on SQLite and PostgreSQL: the
inventory inputs bring up the number pad, the Disputes page opens on what waits for the role
with a count badge in the header, approvals name the table, the tables list flags a table
frozen by a pending void."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from sqlmodel import col, select

from dealer_assist.models import Round
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, text


class Inputs(HTMLParser):
    """Every ``<input>`` of a page, with its attributes as the browser parses them."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "input":
            named = dict(attrs)
            self.found.setdefault(str(named.get("name")), named)


def inputs(html: str) -> dict[str, dict[str, str | None]]:
    parser = Inputs()
    parser.feed(html)
    return parser.found


@pytest.fixture
def floor(app: Flask) -> dict[str, Any]:
    def build(session: Any) -> dict[str, Any]:
        people = {n: make_user(session, n, r).id for n, r in (
            ("carla", "croupier"), ("pavel", "pit_boss"), ("maria", "shift_manager"))}
        table = make_table(session, name="RP 7")
        shift = shifts.open_shift(session, table_id=table.id, user_id=people["carla"])
        return {**people, "table": table.id, "shift": shift.id}

    return dict(arrange(app, build))


def test_the_inventory_amount_inputs_ask_the_tablet_for_its_number_pad(
        browser: Browser, floor: dict[str, Any]) -> None:
    browser.login("pavel")
    page = text(browser.get(f"/reports/shifts/{floor['shift']}/inventory"))
    assert "&#34;" not in page
    found = inputs(page)
    # the chips counted (the fill's or credit's amount is the cage's now)
    amounts = [name for name in found if name == "amount" or name.startswith("chips.")]
    assert "chips.25" in amounts
    assert {found[name].get("inputmode") for name in amounts} == {"numeric"}


@pytest.fixture
def waiting(app: Flask) -> dict[str, Any]:
    """Three settled rounds on RP 1: a dispute escalated to the shift manager (round 1), an
    open one (round 2), and a pending void of round 3 (the table is frozen)."""
    from dealer_assist.services.disputes import disputes
    from dealer_assist.services.rounds import voids
    from tests.services.conftest_reports import make_floor, play_shift

    def build(session: Any) -> dict[str, Any]:
        floor = make_floor(session)
        play_shift(session, floor, 3, seed=11, void_rate=0.0)
        ids = [r.id for r in session.exec(select(Round).order_by(col(Round.number))).all()]
        one = disputes.file_dispute(session, round_id=ids[0], box="1", claim="Paid short",
                                    claimed_amount=100, croupier_note="", actor_id=floor.croupier)
        disputes.decide(session, dispute_id=one.id, outcome="escalated", note="over my limit",
                        adjustment=0, actor_id=floor.pit_boss)
        disputes.file_dispute(session, round_id=ids[1], box="1", claim="Wrong hand",
                              claimed_amount=40, croupier_note="", actor_id=floor.croupier)
        voids.request_change(session, round_id=ids[2], kind="void", reason="Misdeal",
                             actor_id=floor.croupier)
        return {"rounds": ids, "table": floor.table_id}

    return dict(arrange(app, build))


def _badge(page: str, marker: str) -> str | None:
    import re

    found = re.search(marker + r'>[^<]*<span class="badge"[^>]*>(\d+)</span>', page)
    return found.group(1) if found else None


def test_a_pit_boss_opens_disputes_on_the_open_ones_with_their_count_in_the_header(
        browser: Browser, waiting: dict[str, Any]) -> None:
    browser.login("pavel")
    page = text(browser.get("/disputes"))
    assert "Wrong hand" in page and "Paid short" not in page
    assert "waiting for you (1)" in page
    assert _badge(page, "data-disputes") == "1"


def test_a_shift_manager_opens_disputes_on_the_escalated_ones_with_their_count(
        browser: Browser, waiting: dict[str, Any]) -> None:
    browser.login("maria")
    page = text(browser.get("/disputes"))
    assert "Paid short" in page and "Wrong hand" not in page
    assert _badge(page, "data-disputes") == "1"
    everything = text(browser.get("/disputes?status=all"))
    assert "Paid short" in everything and "Wrong hand" in everything


def test_the_approvals_list_names_the_table_of_each_request(
        browser: Browser, waiting: dict[str, Any]) -> None:
    browser.login("pavel")
    page = text(browser.get("/changes"))
    assert '<span class="table-name">RP 1</span>' in page


def test_the_tables_list_flags_a_table_frozen_by_a_pending_void_and_what_waits(
        browser: Browser, waiting: dict[str, Any]) -> None:
    browser.login("maria")
    page = text(browser.get("/"))
    assert "Frozen: void of round 3 waits for approval" in page
    assert "Waiting for you" in page and "1 escalated dispute to decide" in page
    assert "1 void or correction to approve" in page
