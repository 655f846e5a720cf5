"""Browser tests: real headless Debian Chromium driven by Playwright against a real server.

The server is the app on a temporary, migrated SQLite file, served by werkzeug in a thread on a
free loopback port. Chromium is ``/usr/bin/chromium`` (never downloaded): without it the tests
are skipped locally and fail in CI (``CI=true``), where ``scripts/system-deps.sh`` installs it.
Screenshots go to ``test-artifacts/browser/<test name>/``.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from dealer_assist import create_app, db
from dealer_assist.services.shifts import shifts
from tests.conftest import FAST_ARGON2
from tests.factories import PASSWORD, make_table, make_user

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


@dataclass
class Server:
    url: str
    app: Any
    tables: dict[str, int] = field(default_factory=dict)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'browser.sqlite3'}"
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": url, **FAST_ARGON2})
    db.upgrade(db.get_engine(app))
    with db.session_scope(app) as dbs:
        carla = make_user(dbs, "carla", "croupier")
        ids = {}
        for name, game in (("RP 1", "russian"), ("OP 1", "oasis"), ("BS 1", "split"),
                           ("CS 1", "caribbean")):
            t = make_table(dbs, name=name, game=game, boxes=5)
            shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)
            ids[game] = t.id
    with served(app, ids) as running:
        yield running


@contextmanager
def served(app: Any, tables: dict[str, int]) -> Iterator[Server]:
    """``app`` served on a free local port in a thread while the block runs; its database
    connections closed after."""
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{http.server_port}", app, tables)
    finally:
        http.shutdown()
        thread.join(5)
        db.dispose(app)


@pytest.fixture(scope="module")  # module, not session: only one sync Playwright may run in a
def chromium() -> Iterator[Any]:  # process, and tests/web/test_layout.py starts its own
    if not Path(CHROMIUM).exists():
        if _in_ci():
            pytest.fail(f"{CHROMIUM} is required in CI (scripts/system-deps.sh installs it)",
                        pytrace=False)
        pytest.skip(f"{CHROMIUM} missing: apt-get install chromium (never download a browser)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


class Shots:
    """Numbered screenshots of each step, for people to look at."""

    def __init__(self, page: Any, name: str) -> None:
        self.page = page
        self.dir = ARTIFACTS / re.sub(r"[^\w.-]+", "_", name)
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.n = 0

    def __call__(self, label: str) -> None:
        self.n += 1
        self.page.screenshot(path=str(self.dir / f"{self.n:02d}-{label}.png"), full_page=True)


@pytest.fixture
def page(chromium: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    size = getattr(request, "param", (1024, 768))
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                                   has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def shots(page: Any, request: pytest.FixtureRequest) -> Shots:
    return Shots(page, request.node.name)


def login(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', "carla")
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/")


#: the page's horizontal scroll and the touch targets under ``least`` px among ``selector``
LAYOUT = """([selector, least]) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < least || r.height < least)
      small.push((el.dataset.step || el.dataset.card || el.textContent.trim() || el.name)
                 + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, small};
}"""
