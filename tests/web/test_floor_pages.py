"""Issue 10 on the pit's pages (outside the table screen), on SQLite and PostgreSQL: the
inventory inputs bring up the number pad, the Disputes page opens on what waits for the role
with a count badge in the header, approvals name the table, the tables list flags a table
frozen by a pending void."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask

from dealer_assist.services import shifts
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
    assert found["amount"].get("inputmode") == "numeric"
    assert found["closing_amount"].get("inputmode") == "numeric"
