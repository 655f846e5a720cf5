"""Helpers of the offline table's browser tests: the table's bound device in its own
browser context, the croupier's driver, the server's own screen for a prefix of a round's stored
events, and a server in a process of its own (to be killed with ``kill -9`` and started again).

The server side (``round_event.tapped_at``/``offline``, ``offline_refusal``, the
ping, the floor's display) is built on branch i34-floor; :data:`FLOOR` says whether it is merged
here, and the assertions that need it run only then (marked ``# after the i34-floor merge``).
"""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from dealer_assist import db
from dealer_assist.edge.device import COOKIE
from dealer_assist.models import Round
from dealer_assist.rules.engine import PAID, Event
from dealer_assist.services.rounds import house, live, store
from dealer_assist.services.tables import devices
from dealer_assist.web import live_screen, tablet_bundle
from tests.browser.conftest import Server, Shots
from tests.browser.test_live_round import Table

ROOT = Path(__file__).resolve().parents[2]
#: Pyodide boots in a few seconds on a busy 2-core machine; a cold start downloads 13 MB
BOOT_MS = 90_000
#: the server side is merged (branch i34-floor): its assertions run
FLOOR = "tapped_at" in {f.name for f in dataclasses.fields(store.EventView)}
#: what only the server knows (a pit boss's void request), and what only the tablet says
#: (the screen was drawn offline; a round not yet numbered)
NOT_COMPARED = {"void", "id", "number", "offline", "provisional"}


class Dealer(Table):
    """The table screen's driver, online or offline: each recording tap is drawn, no error."""

    def records(self, selector: str, label: str | None = None) -> None:
        self.tap(selector)
        assert not self.error(), (selector, self.error())
        if label:
            self.shots(label)

    def box_tap(self, box: str, step: str, value: str | None = None) -> None:
        where = f'article.box[data-box="{box}"] [data-step="{step}"]'
        self.records(where + (f'[data-value="{value}"]' if value else ""))

    def start(self, antes: dict[str, str], bonus: dict[str, str] | None = None) -> None:
        """The bets form (the last round's stakes cleared first), then Start round."""
        self.page.evaluate("""() => document.querySelectorAll(
            '[data-bets] input[name^="ante_"], [data-bets] input[name^="bonus_"]')
            .forEach((i) => { i.value = ''; })""")
        for box, ante in antes.items():
            self.type(f'input[name="ante_{box}"]', ante)
        for box, amount in (bonus or {}).items():
            self.type(f'input[name="bonus_{box}"]', amount)
        self.records('button[data-step="start"]')

    def paid(self) -> None:
        self.records('button[data-step="paid"]')
        self.page.wait_for_selector("[data-bets]:not([hidden])")


def installed() -> None:
    if not tablet_bundle.pyodide_installed():
        raise AssertionError("node_modules/pyodide is missing: make run / make test install it")


@contextmanager
def device(chromium: Any, server: Server, table: int,
           size: tuple[int, int] = (768, 1024)) -> Iterator[Any]:
    """A browser context holding the cookie of a device bound to ``table`` (a device per
    table: the device session deals, no login)."""
    installed()
    with db.session_scope(server.app) as dbs:
        pavel = user(dbs, "pavel", "pit_boss")
        _view, token = devices.bind(dbs, table_id=table, actor_id=pavel)
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                                   has_touch=True)
    context.set_default_timeout(30_000)
    context.add_cookies([{"name": COOKIE, "value": token, "url": server.url}])
    try:
        yield context
    finally:
        context.close()


def open_screen(context: Any, server: Server, table: int, lang: str,
                shots_name: str) -> tuple[Any, Dealer]:
    """The table screen in ``lang``, its engine started and its service worker in control."""
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table}/live")
    if lang != "en":  # the header's one-tap switch (the tablet's own pick)
        page.click(f'form.lang input[name="language"][value="{lang}"] ~ input[type=submit]')
        page.wait_for_load_state("load")
    ready(page)
    return page, Dealer(page, Shots(page, shots_name))


def ready(page: Any) -> None:
    page.wait_for_function("() => window.TabletEngine && "
                           "(TabletEngine.ready || TabletEngine.error)", timeout=BOOT_MS)
    assert page.evaluate("() => TabletEngine.error") is None
    page.wait_for_function("() => window.TabletSW && TabletSW.kept >= 3", timeout=BOOT_MS)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def synced(page: Any) -> None:
    """The queue went out: nothing waits, the banner says online again."""
    page.wait_for_function("() => TableOffline.state.queued === 0 && !TableOffline.state.since"
                           " && !TableOffline.state.syncing", timeout=60_000)


def trail(page: Any) -> list[dict[str, Any]]:
    """The screens drawn offline since the page was loaded (``TableOffline.state.shown``)."""
    return list(page.evaluate("() => TableOffline.state.shown"))


def queue(page: Any, table: int) -> list[dict[str, Any]]:
    return list(page.evaluate("(t) => OfflineQueue.all(t)", table))


def ids(page: Any, table: int) -> dict[str, int]:
    """The tablet's provisional rounds and the ids the server gave them."""
    found = page.evaluate("(t) => JSON.parse(localStorage.getItem('da-ids-' + t) || '{}')", table)
    return {str(k): int(v) for k, v in found.items()}


def rounds_of(server: Server, table: int) -> list[tuple[int, int, str]]:
    """The table's rounds as stored: (id, number, status), by number."""
    with db.session_scope(server.app) as dbs:
        return [(int(r.id or 0), r.number, r.status) for r in dbs.exec(
            select(Round).where(Round.table_id == table).order_by(col(Round.number))).all()]


def events_of(server: Server, round_id: int) -> list[Any]:
    with db.session_scope(server.app) as dbs:
        return list(store.events(dbs, round_id))


def primary(key: str | None) -> str | None:
    """The tap's own key of an event (a step the engine recorded by itself: ``key~n``)."""
    return key.rsplit("~", 1)[0] if key and "~" in key else key


def server_screen(server: Server, round_id: int, upto: int, before_seq: int | None,
                  lang: str) -> dict[str, Any]:
    """The screen the server computes for the round's stored events up to ``upto``
    (``web.live_screen.screen`` over ``live.view`` of the truncated stream), in ``lang``;
    ``before_seq``: the fold the tap started from (None: a start or a screen opened)."""
    with server.app.test_request_context(headers={"Accept-Language": lang}):
        with db.session_scope(server.app) as dbs:
            loaded = house.HOUSE.load(dbs, round_id)
        events = [e for e in loaded.events if e.seq <= upto]
        engine = loaded.engine

        def fold(last: int) -> Any:
            return engine.replay(engine.start(loaded.rules), [
                Event(e.seq, e.type, e.payload) for e in events if e.seq <= last])

        status = "settled" if events and events[-1].type == PAID else "open"
        truncated = dataclasses.replace(
            loaded, events=events, folded=fold(upto), status=status,
            row=dataclasses.replace(loaded.row, status=status), void_request=None)
        before = fold(before_seq).state if before_seq is not None else None
        return live_screen.screen(live.view(truncated), before=before)


def compare_screens(server: Server, shown: list[dict[str, Any]], refs: dict[str, int],
                    lang: str, known: dict[str, int] | None = None) -> int:
    """Every screen the tablet drew offline equals the server's for the same events, figure by
    figure (all keys but :data:`NOT_COMPARED`; id and number: the tablet's until the server
    numbered the round). ``known``: a round's last seq the tablet saw online before its first
    screen offline. Returns how many screens were compared."""
    last: dict[str, int] = dict(known or {})
    numbers = {rid: number for rid, number in _numbers(server, set(refs.values()))}
    for n, entry in enumerate(shown):
        ref, mine = str(entry["ref"]), entry["round"]
        rid = refs[ref]
        before = last.get(ref)
        theirs = server_screen(server, rid, mine["last_seq"],
                               before if before is not None and before < mine["last_seq"]
                               else None, lang)
        for key in sorted(set(mine) | set(theirs)):
            if key not in NOT_COMPARED:
                assert mine.get(key) == theirs.get(key), (n, ref, mine["last_seq"], key,
                                                          mine.get(key), theirs.get(key))
        assert mine["offline"] is True
        if mine.get("provisional"):
            assert mine["number"] is None, mine["number"]
        else:
            assert (mine["id"], mine["number"]) == (rid, numbers[rid])
        last[ref] = mine["last_seq"]
    return len(shown)


def _numbers(server: Server, wanted: set[int]) -> list[tuple[int, int]]:
    with db.session_scope(server.app) as dbs:
        return [(r.id, r.number) for r in dbs.exec(select(Round)).all() if r.id in wanted]


def stored_once_in_order(server: Server, queued: list[dict[str, Any]],
                         refs: dict[str, int]) -> list[Any]:
    """The server's stored events of the queued rounds are exactly the queued steps in order,
    each exactly once (its idempotency key), the events the engine recorded by itself after
    each under ``key~n``; with the i34-floor merge, each carries its tapped time (not after it
    was received) and ``offline``. Returns the rounds' stored events."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for item in queued:
        by_round.setdefault(refs[str(item["round_ref"])], []).append(item)
    everything = []
    for rid, items in by_round.items():
        events = events_of(server, rid)
        keys = [e.idempotency_key for e in events]
        assert len(keys) == len(set(keys)), keys  # exactly once
        taps = [(primary(e.idempotency_key), e.type) for e in events
                if primary(e.idempotency_key) == e.idempotency_key]
        sent = [(i["key"], i["type"]) for i in items]
        assert taps[-len(sent):] == sent, (taps, sent)  # in order, nothing else after them
        tapped = {i["key"]: i["tapped_at"] for i in items}
        for e in events:
            if primary(e.idempotency_key) not in tapped:
                continue  # recorded online before the cut
            if FLOOR:  # after the i34-floor merge
                assert e.offline is True, e
                assert e.tapped_at is not None and e.tapped_at <= e.created_at, e
                assert e.tapped_at == _instant(tapped[primary(e.idempotency_key)]), e
        everything += events
    return everything


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


# --- a server in a process of its own ------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Process:
    """The app served by ``tests/browser/served.py`` in a subprocess on a fixed port, on the
    same SQLite file as the test's own app object (which arranges and reads)."""

    def __init__(self, database_url: str, port: int) -> None:
        self.database_url, self.port = database_url, port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.browser.served",
                                      self.database_url, str(self.port)], cwd=ROOT, env=env)
        for _ in range(300):  # it answers once its app is made (not a timed assertion)
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/login", timeout=2)
                return
            except OSError as err:
                if self.proc.poll() is not None:
                    raise AssertionError(f"the server ended: {self.proc.returncode}") from err
                time.sleep(0.1)
        raise AssertionError("the server process never answered")

    def kill(self) -> None:
        """``kill -9``: no shutdown, no goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None


def user(dbs: Any, username: str, role: str) -> int:
    """The id of ``username`` (made with ``role`` when missing)."""
    from dealer_assist.models import User
    from tests.factories import make_user

    found = dbs.exec(select(User).where(User.username == username)).first()
    return int((found or make_user(dbs, username, role)).id)


def refusals(server: Server, round_id: int) -> list[Any]:
    """The round's ``offline_refusal`` rows (after the i34-floor merge)."""
    from dealer_assist.models import OfflineRefusal

    with db.session_scope(server.app) as dbs:
        rows = dbs.exec(select(OfflineRefusal).where(OfflineRefusal.round_id == round_id)).all()
        for row in rows:
            dbs.expunge(row)
        return list(rows)


def deals(server: Server, table: int, username: str) -> None:
    """``username`` (a croupier, made if missing) deals at ``table`` from now (a dealer deals
    at one table at a time: the server fixture's Carla deals RP 1)."""
    from dealer_assist.services.people import reliefs
    from dealer_assist.services.shifts import shifts

    with db.session_scope(server.app) as dbs:
        shift = shifts.open_shift_of(dbs, table)
        assert shift is not None
        reliefs.open_table(dbs, shift_id=shift.id, dealer_id=user(dbs, username, "croupier"))


#: the WCAG contrast ratio of an element's text against its nearest painted background
CONTRAST = """(el) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  let bg = el;
  while (bg && (getComputedStyle(bg).backgroundColor === 'rgba(0, 0, 0, 0)'
                || rgb(getComputedStyle(bg).backgroundColor)[3] === 0)) bg = bg.parentElement;
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(bg || document.body).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def readable(page: Any, selector: str) -> None:
    """``selector``'s words stand out from what is behind them (WCAG AA: 4.5:1)."""
    # the screen may be drawn again meanwhile (the refused step's banner, then the reload):
    # the colours are read once the element is on a loaded page
    page.wait_for_load_state("load")
    page.wait_for_selector(selector, state="visible")
    ratio = page.eval_on_selector(selector, CONTRAST)
    assert ratio >= 4.5, f"{selector}: contrast {ratio:.2f}:1"


#: the tablet's two ways round
SIZES = ((768, 1024), (1024, 768))


def both_sizes(page: Any, t: Dealer, label: str) -> None:
    """The screen photographed portrait and landscape (the tablet's two ways round)."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        t.check(f"{label}-{width}x{height}")  # no horizontal scroll, touch targets of 44 px
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
