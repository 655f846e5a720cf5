"""Through the pages: on a table device, after **Paid ✓** the bets screen links
to the round just paid ("Last round · Dispute", as the README promises), and the dealing croupier
files a dispute from there; the round pages stay fenced to the device's own table."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from dealer_assist import db
from dealer_assist.models import Dispute
from tests.factories import make_table
from tests.web.conftest import Browser, arrange, text
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)

DEALER = "kh qh 4s 5c 6d"  # no Ace-King: no game


def _play_and_pay(browser: Browser, app: Flask, table_id: int) -> int:
    """One two-box round recorded from the tablet, paid."""
    form = {"key": "s1", "ante_1": "100", "ante_2": "100"}
    started = browser.post(f"/tables/{table_id}/live/rounds", form)
    assert started.status_code == 201, text(started)
    rid = int(started.get_json()["round"]["id"])
    for n, (type, fields) in enumerate((("bet", {"box": "1"}), ("bet", {"box": "2"}),
                                        ("reveal", {"cards": DEALER}),
                                        ("take_ante", {"box": "1"}), ("take_ante", {"box": "2"}),
                                        ("paid", {}))):
        resp = browser.client.post(f"/live/rounds/{rid}/steps",
                                   headers={"X-CSRF-Token": browser.csrf()},
                                   json={"type": type, "payload": fields,
                                         "idempotency_key": f"k{n}"})
        assert resp.status_code == 201, (type, text(resp))
    assert resp.get_json()["round_page"] == f"/rounds/{rid}"  # the screen's Last round link
    return rid


def test_after_paid_the_table_device_links_to_the_last_round_and_files_a_dispute_there(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    """README: "After Paid ✓, *Last round · Dispute* opens the round just paid to file a
    dispute on a box" -- on the table's own device too, where the croupier deals."""
    _bind(browser, floor["table"])
    rid = _play_and_pay(browser, app, floor["table"])
    page = text(browser.get(f"/tables/{floor['table']}/live"))  # the tablet reloaded later
    link = re.search(r'data-last-round="1">\s*<a [^>]*href="([^"]+)"[^>]*>Last round \(1\) · '
                     r'Dispute</a>', page)
    assert link and link.group(1) == f"/rounds/{rid}", "no Last round · Dispute link"
    round_page = browser.get(link.group(1))
    assert round_page.status_code == 200
    assert f'href="/rounds/{rid}/disputes?box=2"' in text(round_page)
    assert browser.get(f"/rounds/{rid}/disputes?box=2").status_code == 200
    filed = browser.post(f"/rounds/{rid}/disputes", {
        "box": "2", "claim": "The player says his ANTE was 200", "claimed_amount": "100"})
    assert filed.status_code == 303
    assert filed.headers["Location"].endswith(f"/rounds/{rid}")  # a page the tablet may show
    assert "Dispute 1 filed on box 2" in text(browser.get(filed.headers["Location"]))
    with db.session_scope(app) as dbs:
        dispute = dbs.get(Dispute, 1)
        assert dispute is not None and dispute.filed_by == floor["carla"]


def test_a_table_device_reads_and_disputes_no_round_of_another_table(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    """The fence stays: the round pages of another table are not the tablet's (a page sends it
    home, a write is refused)."""
    other = arrange(app, make_table, name="RP 2")
    other_browser.login("pavel")
    from tests.web.conftest import opening_form

    opened = other_browser.post(f"/tables/{other.id}/shifts", opening_form(app))
    assert opened.status_code == 302
    other_browser.login("carla")
    rid = _play_and_pay(other_browser, app, other.id)
    _bind(browser, floor["table"])
    resp = browser.get(f"/rounds/{rid}")
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/device")
    assert browser.get(f"/rounds/{rid}/disputes?box=1").status_code == 302
    filed = browser.post(f"/rounds/{rid}/disputes",
                         {"box": "1", "claim": "x", "claimed_amount": "1"})
    assert filed.status_code == 403
    asked = browser.post(f"/rounds/{rid}/changes", {"kind": "void", "reason": "x"})
    assert asked.status_code == 403
    with db.session_scope(app) as dbs:
        assert dbs.get(Dispute, 1) is None


