"""Who is asking, may they, and did the form come from us: login sessions, roles and CSRF.

Every view declares who may reach it: ``@role_required("admin")`` (or several roles),
``@any_role`` for every signed-in account, or ``@public``. The decorator stores the set on the
view as ``view.roles``; :func:`declared_roles` reads it so a test can walk ``app.url_map`` and
prove that no route was forgotten. An undeclared route is refused (403): access is denied by
default. JSON API views declare theirs the same way, never by their blueprint.

One request hook for every path, pages and JSON API alike (issue 10: one user loader, one CSRF
check):

1. Every non-GET request must carry the session's CSRF token (hidden ``csrf_token`` field or an
   ``X-CSRF-Token`` header): a page answers 400, the API a 403 problem body. Only the public,
   stateless API calculators are exempt (they read no cookie and store nothing).
2. The session cookie holds a random login token; the ``auth_session`` row decides whether it
   is still valid (logout, a disabled account, the idle timeout and the absolute lifetime all
   revoke it server-side). The user lands on ``g.user``, which the audit hook reads, so a step
   recorded through the API names the individual like one recorded on the table screen.
3. The endpoint's declared roles are checked; an account with a one-time password is sent to
   the change-password page first (the API answers 403). Under ``/api`` a refusal is a problem
   body (401 not signed in, 403 wrong role), never a redirect.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, abort, current_app, flash, g, redirect, request, session, url_for
from flask_babel import gettext
from markupsafe import Markup

from .. import db
from ..i18n.wording import N_
from ..models import Role
from ..services.people import auth

F = TypeVar("F", bound=Callable[..., Any])

PUBLIC = "public"
PUBLIC_ROLES = frozenset({PUBLIC})
ALL_ROLES = frozenset(r.value for r in Role)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: what a signed-in account with a one-time password may still reach
WHILE_CHANGING_PASSWORD = frozenset({"auth.change_password", "auth.logout", "static"})
TOKEN_KEY = "auth"
CSRF_KEY = "csrf_token"
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


@dataclass(frozen=True, slots=True)
class CurrentUser:
    id: int
    username: str
    display_name: str
    role: str
    session_id: int
    must_change_password: bool
    language: str | None = None


def public(view: F) -> F:
    """Mark a view as reachable without logging in."""
    view.roles = PUBLIC_ROLES  # type: ignore[attr-defined]
    return view


def role_required(*roles: str) -> Callable[[F], F]:
    """Allow only these roles (checked here and, before the view runs, by the request hook)."""
    unknown = set(roles) - ALL_ROLES
    if not roles or unknown:
        raise ValueError(f"role_required needs known roles, got {sorted(unknown) or 'none'}")
    allowed = frozenset(roles)

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            user: CurrentUser | None = g.get("user")
            if user is None:
                return _to_login()
            if user.role not in allowed or user.must_change_password and _is_api():
                return _forbidden()
            return view(*args, **kwargs)

        wrapper.roles = allowed  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def any_role(view: F) -> F:
    """Any signed-in account."""
    return role_required(*sorted(ALL_ROLES))(view)


def declared_roles(app: Flask, endpoint: str) -> frozenset[str] | None:
    """The roles an endpoint was declared for (``PUBLIC_ROLES`` if public), or None."""
    if endpoint == "static":
        return PUBLIC_ROLES
    roles: frozenset[str] | None = getattr(app.view_functions.get(endpoint), "roles", None)
    return roles


def undeclared_endpoints(app: Flask) -> list[str]:
    return sorted(r.endpoint for r in app.url_map.iter_rules()
                  if declared_roles(app, r.endpoint) is None)


def may_reach(endpoint: str) -> bool:
    """For templates: show a link only to those who may follow it."""
    roles = declared_roles(current_app, endpoint)
    if roles is None:
        return False
    user: CurrentUser | None = g.get("user")
    return PUBLIC in roles or (user is not None and user.role in roles)


# --- CSRF ---------------------------------------------------------------------------------------

def csrf_token() -> str:
    token = session.get(CSRF_KEY)
    if not token:
        token = session[CSRF_KEY] = secrets.token_urlsafe(32)
    return str(token)


def csrf_field() -> Markup:
    return Markup('<input type="hidden" name="csrf_token" value="%s">') % csrf_token()


def csrf_ok() -> bool:
    """The one CSRF check: the session's token, sent as a form field or an ``X-CSRF-Token``
    header (the JSON API sends the header; a cross-site page can read neither)."""
    expected = session.get(CSRF_KEY)
    sent = request.headers.get("X-CSRF-Token")
    if not sent and request.mimetype in FORM_TYPES:
        sent = request.form.get(CSRF_KEY)
    return bool(expected and sent and secrets.compare_digest(str(expected), str(sent)))


def _csrf_refused() -> Any:
    g.csrf_refused = True  # the audit hook does not log a forged request (no log flooding)
    if _is_api():
        from ..api.errors import problem

        return problem(403, "CSRF token missing",
                       "send the session's CSRF token in the X-CSRF-Token header")
    abort(400, description=N_("This form has expired or did not come from this site. "
                           "Go back, reload the page and try again."))


# --- login sessions ------------------------------------------------------------------------------

def start_login(token: str) -> None:
    """After a successful login: a fresh cookie session (no fixation) with a new CSRF token;
    a login session this browser still held is revoked, not left dangling."""
    end_login()
    session[TOKEN_KEY] = token
    csrf_token()


def end_login() -> None:
    token = session.get(TOKEN_KEY)
    if token:
        with db.session_scope() as dbs:
            auth.revoke(dbs, str(token))
    session.clear()


def _idle_timeout() -> timedelta:
    return timedelta(minutes=float(current_app.config["IDLE_TIMEOUT_MINUTES"]))


def _lifetime() -> timedelta:
    return timedelta(minutes=float(current_app.config["SESSION_LIFETIME_MINUTES"]))


def _load_user() -> CurrentUser | None:
    token = session.get(TOKEN_KEY)
    if not token:
        return None
    with db.session_scope(write=False) as dbs:
        active = auth.resolve(dbs, str(token), idle_timeout=_idle_timeout(),
                              lifetime=_lifetime())
        idle = active is None and auth.is_idle(dbs, str(token), idle_timeout=_idle_timeout(),
                                               lifetime=_lifetime())
    if active is None:
        if idle:
            end_login()
            flash(gettext("You were signed out after a period without activity. Please sign "
                         "in again."),
                  "info")
        session.pop(TOKEN_KEY, None)
        return None
    if active.needs_touch:
        with db.session_scope() as dbs:
            auth.touch(dbs, active.session_id)
    return CurrentUser(active.user_id, active.username, active.display_name, active.role,
                       active.session_id, active.must_change_password, active.language)


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _forbidden() -> Any:
    if _is_api():
        from ..api.errors import problem

        return problem(403, "Not allowed", "your role may not use this endpoint")
    abort(403)


def _to_login() -> Any:
    if _is_api():
        from ..api.errors import problem

        return problem(401, "Not signed in", "sign in first (session cookie)")
    target = request.full_path if request.method in SAFE_METHODS else None
    if target and target.endswith("?"):
        target = target[:-1]
    return redirect(url_for("auth.login", next=target))


def _before_request() -> Any:
    endpoint = request.endpoint
    roles = declared_roles(current_app, endpoint) if endpoint else None
    stateless = _is_api() and roles is not None and PUBLIC in roles
    if request.method not in SAFE_METHODS and not stateless and not csrf_ok():
        return _csrf_refused()
    g.user = None if stateless else _load_user()
    if endpoint is None:  # 404/405: let the error handler answer
        return None
    if roles is None:
        current_app.logger.error("route %s declares no roles; refused", endpoint)
        return _forbidden()
    if PUBLIC in roles:
        return None
    user: CurrentUser | None = g.user
    if user is None:
        return _to_login()
    if user.must_change_password and endpoint not in WHILE_CHANGING_PASSWORD:
        if _is_api():
            return _forbidden()
        return redirect(url_for("auth.change_password"))
    if user.role not in roles:
        return _forbidden()
    return None


def _template_globals() -> dict[str, Any]:
    return {"current_user": g.get("user"), "csrf_field": csrf_field, "csrf_token": csrf_token,
            "may_reach": may_reach}


def init_app(app: Flask) -> None:
    app.before_request(_before_request)
    app.context_processor(_template_globals)
