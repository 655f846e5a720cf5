"""The table keeps dealing when the network drops (issue 34), in real Chromium on the table's
bound device: rounds dealt with the network cut are checked and drawn by the tablet's own engine
(the server's dealer_assist.tablet in Pyodide), queued durably, and sent in order through the
normal record path once the network is back. RULES.md, "People at the table": "Offline at the
table: only round steps may be recorded while the server cannot be reached; the server re-checks
every queued step on reconnect and its stored events are the record."
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.edge.device import COOKIE
from dealer_assist.services.rounds import store
from dealer_assist.services.tables import devices
from dealer_assist.web import tablet_bundle
from tests.browser.conftest import Server, Shots, login
from tests.browser.test_live_round import Table
from tests.factories import make_user

pytestmark = pytest.mark.browser
BOOT_MS = 90_000


class Dealer(Table):
    """The table screen's driver, online or offline: each recording tap is drawn, no error."""

    def records(self, selector: str, label: str | None = None) -> None:
        self.tap(selector)
        assert not self.error(), (selector, self.error())
        if label:
            self.shots(label)

    def opens(self, selector: str) -> None:
        self.tap(selector)

    def card_taps(self, codes: str, label: str | None = None, records: bool = True) -> None:
        *first, last = codes.split()
        for code in first:
            self.opens(f'.card-grid button[data-card="{code}"]')
        (self.records if records else self.opens)(f'.card-grid button[data-card="{last}"]')

    def box_tap(self, box: str, step: str, value: str | None = None) -> None:
        where = f'article.box[data-box="{box}"] [data-step="{step}"]'
        self.records(where + (f'[data-value="{value}"]' if value else ""))

    def start(self, antes: dict[str, str]) -> None:
        for box, ante in antes.items():
            self.type(f'input[name="ante_{box}"]', ante)
        self.records('button[data-step="start"]')

    def screen(self) -> dict[str, Any]:
        return dict(self.page.evaluate("() => window.__shown || null") or {})


@pytest.fixture
def tablet(chromium: Any, server: Server) -> Iterator[Any]:
    """A browser context holding the cookie of a device bound to RP 1, Carla signed in."""
    with db.session_scope(server.app) as dbs:
        pavel = make_user(dbs, "pavel", "pit_boss")
        _view, token = devices.bind(dbs, table_id=server.tables["russian"], actor_id=pavel.id)
    context = chromium.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    context.set_default_timeout(30_000)
    context.add_cookies([{"name": COOKIE, "value": token, "url": server.url}])
    try:
        yield context
    finally:
        context.close()


def ready(page: Any) -> None:
    page.wait_for_function("() => window.TabletEngine && (TabletEngine.ready || TabletEngine.error)",
                           timeout=BOOT_MS)
    assert page.evaluate("() => TabletEngine.error") is None
    assert page.evaluate("() => TabletSW.ready") >= 3
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def stored(server: Server, table: int) -> list[tuple[int, str, dict[str, Any], str]]:
    with db.session_scope(server.app) as dbs:
        from sqlmodel import select

        from dealer_assist.models import Round
        rounds = dbs.exec(select(Round).where(Round.table_id == table)
                          .order_by(Round.number)).all()
        return [(r.number, e.type, e.payload, e.idempotency_key)
                for r in rounds for e in store.events(dbs, r.id)]


def test_a_russian_round_dealt_with_the_network_cut_is_queued_and_stored_once_back(
        tablet: Any, server: Server, request: pytest.FixtureRequest) -> None:
    page = tablet.new_page()
    shots = Shots(page, request.node.name)
    rp = server.tables["russian"]
    page.goto(f"{server.url}/tables/{rp}/live")
    ready(page)
    t = Dealer(page, shots)
    tablet.set_offline(True)
    t.start({"1": "100", "2": "100", "3": "50"})
    assert page.locator("[data-offline-banner]").is_visible()
    t.box_tap("2", "exchange", "1")
    t.box_tap("3", "fold")
    t.box_tap("1", "bet")
    t.box_tap("2", "bet")
    shots("offline-midround")
    page.reload()
    page.wait_for_selector('article.box[data-box="1"]')
    shots("offline-reloaded")
    t.card_taps("Kh Qh 4s 5c 6d")
    assert page.locator("[data-offline-banner]").inner_text().count("7") >= 0
    tablet.set_offline(False)
    page.wait_for_function("() => TableOffline.state.queued === 0 && !TableOffline.state.since",
                           timeout=20_000)
    shots("back-online")
    events = stored(server, rp)
    assert [e[1] for e in events][:3] == ["place", "deal_dealer", "exchange"], events
