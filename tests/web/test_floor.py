"""On the floor page: a silent tablet is OFFLINE, a returning one shows its queue, and
each refused queued step is shown until a pit boss marks it seen.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its stored
events are the record." -- the pit sees what the server refused.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from flask import Flask
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import OfflineRefusal, TableDevice, utcnow
from dealer_assist.services.tables import heard
from tests.web.conftest import Browser, text
from tests.web.test_offline import start, step, tapped_ago, void
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)


def _heard(app: Flask, ago: timedelta, queue: heard.Queue | None = None) -> None:
    """The table's tablet was last heard from ``ago`` (its ping's queue figures)."""
    heard._LAST.clear()
    with db.session_scope(app) as dbs:
        device = dbs.exec(select(TableDevice)).one()
        device.heard_at = utcnow() - ago
        if queue is not None:
            device.queued_steps, device.queued_rounds = queue.steps, queue.rounds
        dbs.add(device)


def _card(page: str, table: str = "RP 1") -> str:
    found = re.search(rf'<article [^>]*data-table="{table}".*?</article>', page, re.S)
    assert found, page
    return found.group(0)


def test_a_table_whose_tablet_was_not_heard_from_for_10_s_is_offline_since_then(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    assert other_browser.login("pavel").status_code == 302
    _heard(app, timedelta(seconds=3))
    first = other_browser.get("/floor/cards")
    assert 'data-tablet="offline"' not in _card(text(first))
    _heard(app, timedelta(seconds=11))  # silent: nothing written, the page still changes
    later = other_browser.get("/floor/cards", headers={"If-None-Match": first.headers["ETag"]})
    assert later.status_code == 200
    card = _card(text(later))
    assert re.search(r'data-tablet="offline">OFFLINE since \d\d:\d\d:\d\d<', card), card
    data = other_browser.get("/floor/data").get_json()
    tablet = data["tables"][0]["tablet"]
    assert tablet["offline"] is True and tablet["since"]
    browser.get(f"/tables/{floor['table']}/live")  # the tablet is back: any request counts
    assert 'data-tablet="offline"' not in _card(text(other_browser.get("/floor/cards")))


def test_a_returning_tablet_with_steps_queued_shows_how_many_in_both_languages(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    resp = browser.client.post(f"/tables/{floor['table']}/live/ping",
                               headers={"X-CSRF-Token": browser.csrf()},
                               json={"queued_steps": 7, "queued_rounds": 2,
                                     "offline_since": tapped_ago()})
    assert resp.status_code == 200
    assert other_browser.login("pavel").status_code == 302
    card = _card(text(other_browser.get("/floor/cards")))
    assert 'data-tablet="queued">7 steps of 2 rounds queued<' in card, card
    other_browser.post("/language", {"language": "ru", "next": "/floor"})
    card = _card(text(other_browser.get("/floor/cards")))
    assert 'data-tablet="queued">7 шагов из 2 раундов в очереди<' in card, card


def test_a_refused_offline_step_is_on_the_floor_until_a_pit_boss_marks_it_seen(
        app: Flask, browser: Browser, other_browser: Browser,
        floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    rid = int(start(browser, floor["table"]).get_json()["round"]["id"])
    void(app, floor, rid)
    refused = step(browser, rid, "fold", {"box": "1"}, "q1", tapped_at=tapped_ago(),
                   offline=True)
    assert refused.status_code == 409
    rid_refusal = refused.get_json()["offline_refusal"]
    assert other_browser.login("pavel").status_code == 302
    card = _card(text(other_browser.get("/floor/cards")))
    shown = re.search(rf'data-refusal="{rid_refusal}">\s*<span>([^<]+)</span>', card)
    assert shown and shown.group(1).startswith("Round 1 · Fold: refused · "), card
    assert shown.group(1).endswith("Round 1 is voided; it takes no more steps.")
    # the croupier (his own signed-in session) may not mark it seen
    carla = Browser(app.test_client())
    assert carla.login("carla").status_code == 302
    mine = carla.post(f"/floor/refusals/{rid_refusal}/seen")
    assert mine.status_code in (302, 403) and "/floor" not in mine.headers.get("Location", "")
    with db.session_scope(app) as dbs:
        assert dbs.get(OfflineRefusal, rid_refusal).seen_at is None  # type: ignore[union-attr]
    # nor may the table's tablet
    assert browser.post(f"/floor/refusals/{rid_refusal}/seen").status_code == 403
    seen = other_browser.post(f"/floor/refusals/{rid_refusal}/seen")
    assert seen.status_code == 303
    assert f'data-refusal="{rid_refusal}"' not in text(other_browser.get("/floor/cards"))
    with db.session_scope(app) as dbs:
        row = dbs.get(OfflineRefusal, rid_refusal)
        assert row is not None and row.seen_by == floor["pavel"]
