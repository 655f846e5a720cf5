"""The one request hook for every path, pages and JSON API alike (one user loader,
one CSRF check):

1. Every non-GET request must carry the session's CSRF token (:mod:`.csrf`): a page answers
   400, the API a 403 problem body. Only the public, stateless API calculators are exempt (they
   read no cookie and store nothing).
2. The login session (:mod:`.sessions`) puts the user on ``g.user``; without one, a tablet
   bound to a table (:mod:`.device`) puts the table's current dealer there and is
   fenced in to its own table's screens.
3. The endpoint's declared roles (:mod:`.roles`) are checked; an account with a one-time
   password is sent to the change-password page first (the API answers 403). Under ``/api`` a
   refusal is a problem body (401 not signed in, 403 wrong role), never a redirect.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, g, redirect, request, url_for

from . import device, offline
from .csrf import csrf_field, csrf_ok, csrf_token
from .headers import SAFE_METHODS
from .refusals import csrf_refused, forbidden, to_login
from .roles import PUBLIC, declared_roles, may_reach
from .sessions import CurrentUser, load_user
from .status import is_api

#: what a signed-in account with a one-time password may still reach
WHILE_CHANGING_PASSWORD = frozenset({"auth.change_password", "auth.logout", "static"})


def before_request() -> Any:
    endpoint = request.endpoint
    roles = declared_roles(current_app, endpoint) if endpoint else None
    stateless = is_api() and roles is not None and PUBLIC in roles
    if request.method not in SAFE_METHODS and not stateless and not csrf_ok():
        return csrf_refused()
    g.user = None if stateless else load_user()
    g.device = None
    if g.user is None and not stateless and not is_api():
        g.device = device.load()  # a tablet bound to a table, not a person
        if g.device is not None:
            offline.note_heard(g.device)  # the floor sees the tablet is there
            g.user = device.dealer_of(g.device)
    if endpoint is None:  # 404/405: let the error handler answer
        return None
    if roles is None:
        current_app.logger.error("route %s declares no roles; refused", endpoint)
        return forbidden()
    if g.device is not None:
        return device.guard(g.device, endpoint)
    if PUBLIC in roles:
        g.roles_checked = endpoint
        return None
    user: CurrentUser | None = g.user
    if user is None:
        return to_login()
    if user.must_change_password and endpoint not in WHILE_CHANGING_PASSWORD:
        if is_api():
            return forbidden()
        return redirect(url_for("auth.change_password"))
    if user.role not in roles:
        return forbidden()
    g.roles_checked = endpoint  # the view's decorator need not check them again
    return None


def template_globals() -> dict[str, Any]:
    return {"current_user": g.get("user"), "csrf_field": csrf_field, "csrf_token": csrf_token,
            "may_reach": may_reach, "table_device": g.get("device")}


def init_app(app: Flask) -> None:
    app.before_request(before_request)
    app.context_processor(template_globals)
