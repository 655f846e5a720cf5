"""The table tablet's offline runtime, served by the app itself: no CDN, no download
from anywhere else at run time.

- ``/tablet/pyodide/<file>``: Pyodide's core (:data:`.tablet_bundle.PYODIDE_FILES` only), from
  ``node_modules/pyodide`` (``make run`` installs the version pinned in ``package-lock.json``);
- ``/tablet/engine.zip`` and ``/tablet/engine.json``: the engine bundle (this checkout's pure
  Python, :mod:`.tablet_bundle`) and its hash, size and the Pyodide version;
- ``/tablet/engine-worker.js``: ``static/engine-worker.js``, the Web Worker that runs them, with
  the one Content Security Policy that allows compiling WebAssembly (``'wasm-unsafe-eval'``:
  the pages themselves never get it);
- ``/sw.js``: ``static/service-worker.js``, the service worker (scope ``/``) that keeps the table
  screen, the static files and all of the above for a reload while offline; its first line
  names the Pyodide version and the bundle's hash, so a new one of either is a new service
  worker, which drops the old caches.

Public static assets: no login (a bound table device reaches them, ``edge.device``), nothing
secret (the bundle is the rules engine, its phrases and the tablet's Python: no PIN hash, no
setting). A file named by its version (``?v=`` the Pyodide version or the bundle's hash) may be
cached for a year; otherwise a cache revalidates it by its ETag.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Response, abort, current_app, g, render_template, request, send_from_directory
from flask_babel import gettext

from ..edge import PageBlueprint, public
from ..edge.headers import WORKER_CSP
from . import tablet_bundle

bp = PageBlueprint("tablet", __name__)
YEAR = 365 * 24 * 3600
TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
         ".zip": "application/zip", ".json": "application/json"}


@bp.before_request
def _public_asset() -> None:
    g.public_asset = True  # edge.headers: cacheable even when a table device's dealer asks


def _cached(response: Response, version: str) -> Response:
    """A year when the address names ``version``, else revalidate each time (by the ETag)."""
    if request.args.get("v") == version:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    return response


def _bytes(data: bytes, mimetype: str, etag: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.set_etag(etag)
    response.make_conditional(request)
    return response


@bp.get("/tablet/pyodide/<file>")
@public
def pyodide(file: str) -> Response:
    """One file of Pyodide's core."""
    if file not in tablet_bundle.PYODIDE_FILES:
        abort(404)
    if not tablet_bundle.pyodide_installed():  # the page says why (a 5xx page says nothing)
        message = gettext("The tablet's Python runtime is not installed on the server "
                          "(make run installs it).")
        return Response(render_template("error.html", status=503, title=gettext("Error"),
                                        message=message), 503)
    response = send_from_directory(tablet_bundle.pyodide_dir(), file, conditional=True,
                                   mimetype=TYPES["." + file.rsplit(".", 1)[-1]])
    return _cached(response, tablet_bundle.pyodide_version())


@bp.get("/tablet/engine.zip")
@public
def engine_zip() -> Response:
    """The engine bundle (``?v=<hash>``: the one the page was given, cached for a year)."""
    bundle = tablet_bundle.current()
    return _cached(_bytes(bundle.data, TYPES[".zip"], bundle.hash), bundle.hash)


@bp.get("/tablet/engine.json")
@public
def engine_meta() -> Response:
    """``{"hash", "files", "bytes", "pyodide"}`` of the bundle this server serves."""
    meta = tablet_bundle.current().meta(tablet_bundle.pyodide_version())
    response = current_app.response_class(json.dumps(meta), mimetype=TYPES[".json"])
    response.headers["Cache-Control"] = "no-cache"
    return response


def _script(name: str, prefix: str = "") -> bytes:
    return prefix.encode() + (Path(current_app.static_folder or "static") / name).read_bytes()


@bp.get("/tablet/engine-worker.js")
@public
def worker() -> Response:
    """The Web Worker that runs the engine: the one answer allowed to compile WebAssembly."""
    data = _script("engine-worker.js")
    response = _bytes(data, TYPES[".js"], tablet_bundle.sha256(data))
    response.headers["Content-Security-Policy"] = WORKER_CSP
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/sw.js")
@public
def service_worker() -> Response:
    """The service worker (scope ``/``), told the versions it caches."""
    bundle = tablet_bundle.current()
    versions = {"pyodide": tablet_bundle.pyodide_version(), "engine": bundle.hash,
                "files": sorted(tablet_bundle.PYODIDE_FILES - {"pyodide.mjs"})}
    data = _script("service-worker.js", f"self.TABLET = {json.dumps(versions)};\n")
    response = _bytes(data, TYPES[".js"], tablet_bundle.sha256(data))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.app_context_processor
def _engine() -> dict[str, Any]:
    """``tablet_engine()`` in templates: the bundle (its ``hash`` for the page's scripts)."""
    return {"tablet_engine": tablet_bundle.current}
