"""How the edge says no: a problem body under ``/api`` (401 not signed in, 403 wrong role or no
CSRF token), a redirect to the login page or an error page elsewhere. Never a redirect for the
API: a script cannot follow it to a login form."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import abort, g, redirect, request, url_for

from ..i18n.wording import N_
from .headers import SAFE_METHODS
from .problems import problem
from .status import is_api


def forbidden() -> Any:
    if is_api():
        return problem(403, "Not allowed", "your role may not use this endpoint")
    abort(403)


def to_login() -> Any:
    if is_api():
        return problem(401, "Not signed in", "sign in first (session cookie)")
    target = request.full_path if request.method in SAFE_METHODS else None
    if target and target.endswith("?"):
        target = target[:-1]
    return redirect(url_for("auth.login", next=target))


def csrf_refused() -> Any:
    g.csrf_refused = True  # the audit hook does not log a forged request (no log flooding)
    if is_api():
        return problem(403, "CSRF token missing",
                       "send the session's CSRF token in the X-CSRF-Token header")
    abort(400, description=N_("This form has expired or did not come from this site. "
                           "Go back, reload the page and try again."))


def same_site(target: str | None) -> str | None:
    """Where a redirect may go: ``target`` when it is a path of this site, or a full
    URL of this very host (a ``Referer``) cut down to its path and query; None for anything
    else -- another host, ``//host``, a backslash, a control character a browser would drop
    (``/%09/evil.example`` arrives as ``/\t/evil.example`` and a browser goes to
    ``//evil.example``). A space inside a path stays (``/floor?pit=Зал 1``: the browser sends
    it encoded)."""
    if not target or "\\" in target or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        if parts.scheme not in ("http", "https") or parts.netloc != request.host:
            return None
        target = urlunsplit(("", "", parts.path or "/", parts.query, ""))
    if not target.startswith("/") or target.startswith("//"):
        return None
    return target
