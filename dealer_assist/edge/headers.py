"""Hardening at the HTTP edge (ASVS L2): headers on every answer, and input that can
never be right refused before any view or database sees it.

Headers: a Content Security Policy with no inline script or style (the pages load
``static/*.js``; ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` so "Paid" and the
approvals cannot be clickjacked), ``nosniff``, a same-origin referrer, HSTS when the session
cookie is ``Secure`` (the site is served over HTTPS only then), and ``Cache-Control: no-store``
on every answer to a signed-in user (a shared tablet's back button must not show a page after
sign-out); every other answer has a ``Cache-Control`` too: ``no-cache``, so a
cache revalidates it each time (the static files by their ETag). The tablet's runtime
(``web/tablet.py``, public files, the same for everyone) keeps its own, asked by a
table device too (``g.public_asset``). An answer to a table device says so
(``X-Table-Device: 1``): its service worker keeps the table screen for an offline reload only
then, never a person's own page.

Input: a NUL character anywhere in the query string or a form (no text field has a use for
it, and PostgreSQL refuses it in ``text``), and path ids beyond 64 bits (the ``int`` converter
is bounded, so ``/rounds/9223372036854775808`` is a 404 like any unknown id, not an overflow).
JSON bodies are checked where they are parsed (:func:`.body.json_body`): depth, lone
surrogates, NUL. Body size: ``MAX_CONTENT_LENGTH`` (413) and Werkzeug's form limits.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, current_app, g, request
from werkzeug.routing import IntegerConverter as WerkzeugInteger

from ..i18n.wording import N_
from . import header_values

#: 2^31 - 1: the largest id the primary keys can hold on both databases (PostgreSQL's
#: ``INTEGER`` is 32-bit; a larger id would be refused by the server, not answered 404)
MAX_ID = 2**31 - 1
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def as_id(raw: str) -> int | None:
    """``raw`` (a query or form value) as a row id, or None: ASCII digits only and at most
    :data:`MAX_ID`, so a number no key can hold finds nothing instead of reaching the database
    (PostgreSQL refuses it) or ``int()``'s digit limit."""
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 10):
        return None
    value = int(raw)
    return value if value <= MAX_ID else None


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: the tablet's engine worker (``web/tablet.py``) compiles Pyodide's WebAssembly; a
#: worker has its own policy (its script's answer), so only that answer allows it
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
HSTS = "max-age=31536000; includeSubDomains"


class IntegerConverter(WerkzeugInteger):
    """``<int:...>`` that matches only ids a database column can hold (else the route 404s)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def _has_nul(values: Any) -> bool:
    return any("\x00" in v for _, v in values.items(multi=True))


def refuse_bad_input() -> None:
    """Before every request: NUL in the address or in a form is a 400."""
    if _has_nul(request.args) or "\x00" in request.path:
        abort(400, description=N_("The address contains a NUL character."))
    if request.method not in SAFE_METHODS and request.mimetype in FORM_TYPES \
            and _has_nul(request.form):
        abort(400, description=N_("The form contains a NUL character."))


def secure_headers(response: Any) -> Any:
    """After every request: the security headers, no caching for a signed-in user, and no
    header value that is not printable ASCII (:func:`.header_values.encode_unsafe`)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    if current_app.config.get("SESSION_COOKIE_SECURE"):
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    if g.get("device") is not None:  # the tablet's service worker keeps only these
        response.headers["X-Table-Device"] = "1"
    if g.get("user") is not None and not g.get("public_asset"):
        response.headers["Cache-Control"] = "no-store"
        response.headers["Pragma"] = "no-cache"
    else:  # anonymous: a cache must ask again each time (static files by their ETag)
        response.headers.setdefault("Cache-Control", "no-cache")
    header_values.encode_unsafe(response)
    return response


def init_app(app: Flask) -> None:
    """Before the blueprints (the converter is bound when a route is added) and before the
    security hook (bad input is refused before anyone is looked up)."""
    app.url_map.converters["int"] = IntegerConverter
    app.config.setdefault("MAX_FORM_MEMORY_SIZE", 64 * 1024)
    app.config.setdefault("MAX_FORM_PARTS", 200)
    app.before_request(refuse_bad_input)
    app.after_request(secure_headers)
