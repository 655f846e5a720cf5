"""The tablet's runtime: the table's bound device loads the server's own rules engine
into Pyodide in a Web Worker, keeps it (and the table screen) in its service worker for a
reload while offline, queues steps in IndexedDB, and refuses an engine bundle that is not the
one the server gave the page. Everything comes from the test's own server: a request to any
other origin fails the test (no CDN, no download)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from sqlmodel import select

from dealer_assist import db
from dealer_assist.config import PROJECT_ROOT
from dealer_assist.edge.device import COOKIE
from dealer_assist.models import User
from dealer_assist.services.tables import devices
from dealer_assist.web import tablet_bundle
from tests.browser.conftest import Server, Shots, login
from tests.factories import make_user

pytestmark = pytest.mark.browser
#: Pyodide boots in a few seconds on a busy 2-core machine; a cold start downloads 13 MB
BOOT_MS = 90_000


def _installed() -> None:
    if not tablet_bundle.pyodide_installed():
        pytest.fail("node_modules/pyodide is missing: make run / make test install it (npm ci)",
                    pytrace=False)


@pytest.fixture
def tablet(chromium: Any, server: Server) -> Iterator[Any]:
    """A browser context holding the cookie of a device bound to RP 1 (Carla deals there);
    every request it makes must go to the test's server."""
    _installed()
    with db.session_scope(server.app) as dbs:
        pavel = make_user(dbs, "pavel", "pit_boss")
        _view, token = devices.bind(dbs, table_id=server.tables["russian"], actor_id=pavel.id)
    context = chromium.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": COOKIE, "value": token, "url": server.url}])
    elsewhere: list[str] = []
    context.on("request", lambda r: None if r.url.startswith((server.url, "data:", "blob:"))
               else elsewhere.append(r.url))
    try:
        yield context
    finally:
        context.close()
    assert not elsewhere, f"requests to other origins: {elsewhere}"


def _screen(server: Server) -> str:
    return f"{server.url}/tables/{server.tables['russian']}/live"


def _engine_ready(page: Any) -> dict[str, Any]:
    page.wait_for_function("() => window.TabletEngine && "
                           "(TabletEngine.ready || TabletEngine.error)", timeout=BOOT_MS)
    error = page.evaluate("() => TabletEngine.error && {...TabletEngine.error, "
                          "error: TabletEngine.error.error}")
    assert not error, error
    return dict(page.evaluate("() => TabletEngine.start()"))


SNAPSHOT_KEPT = ("() => caches.open('tablet-snapshot').then((c) => c.keys())"
                 ".then((keys) => keys.map((r) => new URL(r.url).search))")


def _snapshot_kept(page: Any, hash: str) -> None:
    """The worker keeps Python's memory after the engine's import (in the background)."""
    page.wait_for_function(f"() => ({SNAPSHOT_KEPT})().then((k) => k.includes('?engine={hash}'))",
                           timeout=BOOT_MS)


def _ping(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("() => TabletEngine.call('ping', {})"))


def test_the_table_device_starts_the_servers_engine_in_a_worker_and_it_answers_ping(
        tablet: Any, server: Server, request: pytest.FixtureRequest) -> None:
    page = tablet.new_page()
    page.goto(_screen(server))
    started = _engine_ready(page)
    served = tablet_bundle.current().hash
    assert started["hash"] == served == tablet_bundle.build(PROJECT_ROOT).hash
    assert page.get_attribute("script[data-engine-hash]", "data-engine-hash") == served
    assert started["pyodide"] == tablet_bundle.pyodide_version()
    assert started["phases"]["files"] == len(tablet_bundle.current().names)  # all unpacked
    pong = _ping(page)
    assert pong["pong"] is True and pong["python"].startswith("3."), pong
    marks = page.evaluate("() => performance.getEntriesByType('mark').map((m) => m.name)")
    assert {"engine-start", "engine-ready"} <= set(marks), marks
    Shots(page, request.node.name)("engine-ready-768x1024")


def test_a_reload_while_offline_opens_the_table_screen_and_starts_the_engine_from_the_cache(
        tablet: Any, server: Server, request: pytest.FixtureRequest) -> None:
    page = tablet.new_page()
    page.goto(_screen(server))
    assert _engine_ready(page)["phases"]["snapshot"] is False  # the first start boots Python
    _snapshot_kept(page, tablet_bundle.current().hash)
    kept = page.evaluate("() => TabletSW.ready")
    assert kept >= 3, kept  # the screen and its static files
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    tablet.set_offline(True)
    try:
        page.reload()
        assert page.locator("h1").inner_text().startswith("RP 1")
        assert page.evaluate("() => navigator.onLine") is False
        started = _engine_ready(page)
        assert started["hash"] == tablet_bundle.current().hash
        assert started["phases"]["snapshot"] is True  # Python's memory restored
        assert _ping(page)["pong"] is True
        Shots(page, request.node.name)("offline-reload-768x1024")
    finally:
        tablet.set_offline(False)


def test_a_reload_while_the_server_answers_503_opens_the_table_screen_from_the_cache(
        tablet: Any, server: Server, request: pytest.FixtureRequest) -> None:
    """The app down behind its proxy (502/503/504): the screen is the one kept, not an error
    page; the engine starts all the same."""
    page = tablet.new_page()
    page.goto(_screen(server))
    _engine_ready(page)
    assert page.evaluate("() => TabletSW.ready") >= 3
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    served = server.app.wsgi_app

    def down(environ: Any, start_response: Any) -> list[bytes]:
        start_response("503 Service Unavailable", [("Content-Type", "text/plain"),
                                                   ("Retry-After", "5")])
        return [b"down for an upgrade"]

    server.app.wsgi_app = down
    try:
        page.reload()
        assert page.locator("h1").inner_text().startswith("RP 1")
        assert _engine_ready(page)["hash"] == tablet_bundle.current().hash
        Shots(page, request.node.name)("server-503-reload-768x1024")
    finally:
        server.app.wsgi_app = served


TIMING = """async (url) => {
  await fetch(url, {method: 'POST', body: '{}'}).then((r) => r.text());
  await fetch(url + '?get').then((r) => r.text());  // (an entry is made once the body is read)
  const seen = (u) => {
    const e = performance.getEntriesByName(new URL(u, location.href).href).pop();
    // the route the service worker's router took; none: its fetch handler answered
    return e.workerMatchedSourceType || (e.workerStart > 0 ? 'fetch-handler' : null);
  };
  return {post: seen(url), get: seen(url + '?get')};
}"""


def test_a_tap_online_goes_straight_to_the_network_without_waking_the_service_worker(
        tablet: Any, server: Server) -> None:
    """"Online, the offline machinery adds nothing to a tap's latency": the service
    worker's static routes (Chromium's ServiceWorker static routing API) send every step (a
    POST) and every request it does not keep to the network; its fetch handler never runs for
    them."""
    page = tablet.new_page()
    page.goto(_screen(server))
    assert page.evaluate("() => TabletSW.ready") >= 3
    page.reload()  # now controlled by the worker
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    seen = page.evaluate(TIMING, f"/live/rounds/{2**31 - 1}/steps")
    assert seen == {"post": "network", "get": "network"}, seen  # the fetch handler never runs
    assert page.evaluate(TIMING, "/static/app.css")["get"] == "fetch-handler"  # one it keeps


def test_a_revoked_device_no_longer_opens_the_table_screen_offline(
        tablet: Any, server: Server) -> None:
    page = tablet.new_page()
    page.goto(_screen(server))
    assert page.evaluate("() => TabletSW.ready") >= 3
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    with db.session_scope(server.app) as dbs:
        pavel = dbs.exec(select(User.id).where(User.username == "pavel")).one()
        devices.revoke(dbs, device_id=1, actor_id=pavel)
    page.goto(_screen(server))
    assert "/login" in page.url  # the server's answer now: sign in
    tablet.set_offline(True)
    try:
        with pytest.raises(PlaywrightError, match="net::ERR_"):
            page.goto(_screen(server))
    finally:
        tablet.set_offline(False)


def test_the_queue_keeps_its_steps_in_order_across_a_reload(tablet: Any,
                                                            server: Server) -> None:
    page = tablet.new_page()
    page.goto(_screen(server))
    rp = server.tables["russian"]
    page.evaluate("""async (rp) => {
        for (const [n, key] of ['k1', 'k2', 'k3'].entries())
          await OfflineQueue.put({key, table_id: rp, round_ref: 'r1', type: 'bet',
                                  payload: {box: String(n + 1)}, expected_seq: n + 1,
                                  tapped_at: '2026-11-29T07:00:0' + n + 'Z'});
        await OfflineQueue.put({key: 'other', table_id: rp + 1, type: 'bet', payload: {}});
      }""", rp)
    page.reload()
    items = page.evaluate("(rp) => OfflineQueue.all(rp)", rp)
    assert [i["key"] for i in items] == ["k1", "k2", "k3"]
    assert items[2] == {"key": "k3", "table_id": rp, "round_ref": "r1", "type": "bet",
                        "payload": {"box": "3"}, "expected_seq": 3,
                        "tapped_at": "2026-11-29T07:00:02Z"}
    after = page.evaluate("""async (rp) => {
        await OfflineQueue.put({key: 'k2', table_id: String(rp), type: 'fold', payload: {}});
        const removed = [await OfflineQueue.remove('k1'), await OfflineQueue.remove('nope')];
        return {removed, keys: (await OfflineQueue.all(rp)).map((i) => i.key + ':' + i.type),
                count: await OfflineQueue.count(rp), cleared: await OfflineQueue.clear(rp),
                left: await OfflineQueue.count(rp), other: await OfflineQueue.count(rp + 1)};
      }""", rp)
    assert after == {"removed": [True, False], "keys": ["k2:fold", "k3:bet"], "count": 2,
                     "cleared": 2, "left": 0, "other": 1}


def _changed_bundle(tmp_path: Path) -> tablet_bundle.Bundle:
    """The engine's files with one rule changed (a copy that drifted)."""
    for name in tablet_bundle.engine_files(PROJECT_ROOT):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROJECT_ROOT / name, tmp_path / name)
    evaluator = tmp_path / "dealer_assist/rules/evaluator.py"
    evaluator.write_text(evaluator.read_text() + "\n# drifted\n")
    return tablet_bundle.build(tmp_path)


def test_the_engine_refuses_to_start_when_the_served_bundle_is_not_the_one_the_page_was_given(
        chromium: Any, server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        page: Any) -> None:
    """"A test proves the engine the tablet runs is the server's dealer_assist/rules package of
    the same version (no copy that can drift)": the page carries the server's hash; a bundle
    with one changed byte of the rules is refused, and so is every call after it -- even with
    a snapshot of the right engine's memory at hand (the bytes are checked first)."""
    _installed()
    login(page, server)  # Carla's own session: the engine does not start by itself
    page.goto(_screen(server))
    expected = page.get_attribute("script[data-engine-hash]", "data-engine-hash")
    assert expected == tablet_bundle.current().hash
    assert page.evaluate("() => TabletEngine.start().then((i) => i.hash)") == expected
    _snapshot_kept(page, expected)
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")  # the year-long copy
    page.reload()
    drifted = _changed_bundle(tmp_path)
    assert drifted.hash != expected
    monkeypatch.setattr(tablet_bundle, "current", lambda: drifted)
    refused = page.evaluate("""() => TabletEngine.start().then(() => null,
        (e) => ({error: e.error, served: e.served, expected: e.expected}))""")
    assert refused == {"error": "engine-mismatch", "served": drifted.hash, "expected": expected}
    assert page.evaluate("() => TabletEngine.ready") is False
    call = page.evaluate("() => TabletEngine.call('ping', {}).then(() => 'ran', (e) => e.error)")
    assert call == "engine-mismatch"
    monkeypatch.undo()  # the right bundle again, but a page given another hash is refused too
    wrong = "0" * 64
    refused = page.evaluate("""(h) => TabletEngine.start(h).then(() => null,
        (e) => ({error: e.error, served: e.served, expected: e.expected}))""", wrong)
    assert refused == {"error": "engine-mismatch", "served": expected, "expected": wrong}
    assert page.evaluate("() => TabletEngine.start().then((i) => i.hash)") == expected
