"""The tablet's runtime is served by the app itself (``web/tablet.py``): Pyodide's core
files only, the engine bundle and its hash, the worker (the one answer allowed to compile
WebAssembly) and the service worker at ``/sw.js``; public static assets a bound table device
fetches like anyone (its dealer on ``g.user`` does not make them ``no-store``)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from flask import Flask

from dealer_assist.web import tablet_bundle
from tests.web.conftest import Browser, text
from tests.web.test_relief_pages import _bind, floor  # noqa: F401 (the fixture)

VERSION = "0.27.7"
YEAR = "public, max-age=31536000, immutable"


@pytest.fixture(autouse=True)
def _installed() -> None:
    if not tablet_bundle.pyodide_installed():
        pytest.fail("node_modules/pyodide is missing: make run / make test install it (npm ci)",
                    pytrace=False)


def test_a_bound_table_device_fetches_the_runtime_and_may_cache_it_for_a_year(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    _bind(browser, floor["table"])
    wasm = browser.get(f"/tablet/pyodide/pyodide.asm.wasm?v={VERSION}")
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert wasm.headers["Cache-Control"] == YEAR
    assert wasm.data[:4] == b"\0asm"
    meta = browser.get("/tablet/engine.json")
    assert meta.status_code == 200
    found = meta.get_json()
    zipped = browser.get(f"/tablet/engine.zip?v={found['hash']}")
    assert zipped.status_code == 200 and zipped.mimetype == "application/zip"
    assert zipped.headers["Cache-Control"] == YEAR
    assert found == {"hash": hashlib.sha256(zipped.data).hexdigest(),
                     "files": len(tablet_bundle.current().names), "bytes": len(zipped.data),
                     "pyodide": VERSION}
    for url in ("/sw.js", "/tablet/engine-worker.js", "/tablet/pyodide/pyodide.js",
                "/tablet/pyodide/pyodide.mjs", "/tablet/pyodide/pyodide.asm.js",
                "/tablet/pyodide/python_stdlib.zip", "/tablet/pyodide/pyodide-lock.json"):
        resp = browser.get(url)
        assert resp.status_code == 200, (url, resp.status_code)
        assert resp.headers["Cache-Control"] == "no-cache", url  # not the version's address
    answer = browser.get(f"/tables/{floor['table']}/live")
    assert answer.headers["X-Table-Device"] == "1"  # the service worker keeps only these
    screen = text(answer)
    assert f'data-engine-hash="{found["hash"]}"' in screen
    assert "data-engine-autostart" in screen and 'data-sw="/sw.js"' in screen


def test_a_signed_in_croupiers_screen_neither_starts_the_engine_nor_registers_the_worker(
        app: Flask, browser: Browser, floor: dict[str, Any]) -> None:  # noqa: F811
    """The offline machinery is the table device's: a person's own session keeps its
    ``no-store`` pages out of any cache."""
    assert browser.login("carla").status_code == 302
    answer = browser.get(f"/tables/{floor['table']}/live")
    assert "X-Table-Device" not in answer.headers
    screen = text(answer)
    assert "data-engine-hash=" in screen
    assert "data-engine-autostart" not in screen and "sw-register.js" not in screen


def test_only_pyodides_core_files_are_served(browser: Browser) -> None:
    for name in ("package.json", "pyodide.js.map", "console.html", "..%2Fpackage.json",
                 "README.md", "ffi.d.ts"):
        assert browser.get(f"/tablet/pyodide/{name}").status_code == 404, name
    assert browser.get("/tablet/pyodide/").status_code == 404
    assert browser.get("/tablet/pyodide/../../package-lock.json").status_code == 404


def test_only_the_engine_worker_may_compile_webassembly(browser: Browser,
                                                       floor: dict[str, Any]) -> None:  # noqa: F811
    worker = browser.get("/tablet/engine-worker.js")
    assert "script-src 'self' 'wasm-unsafe-eval'" in worker.headers["Content-Security-Policy"]
    _bind(browser, floor["table"])
    for url in (f"/tables/{floor['table']}/live", "/sw.js", "/tablet/engine.json",
                "/static/engine.js", "/login"):
        csp = browser.get(url).headers["Content-Security-Policy"]
        assert "wasm-unsafe-eval" not in csp and "worker-src 'self'" in csp, url


def test_the_service_worker_is_told_the_versions_it_caches(browser: Browser) -> None:
    sw = browser.get("/sw.js")
    assert sw.mimetype == "text/javascript"
    first = sw.get_data(as_text=True).splitlines()[0]
    told = json.loads(first.removeprefix("self.TABLET = ").removesuffix(";"))
    assert told == {"pyodide": VERSION, "engine": tablet_bundle.current().hash,
                    "files": sorted(tablet_bundle.PYODIDE_FILES - {"pyodide.mjs"})}


def test_a_server_without_the_runtime_says_so_with_a_503_never_a_500(
        browser: Browser, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tablet_bundle, "pyodide_installed", lambda root=None: False)
    resp = browser.get("/tablet/pyodide/pyodide.js")
    assert resp.status_code == 503
    assert "make run installs it" in text(resp)
