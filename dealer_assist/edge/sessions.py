"""Login sessions: the cookie holds a random login token; the ``auth_session`` row decides.

Logout, a disabled account, the idle timeout and the absolute lifetime all revoke a session
server-side (:mod:`..services.people.auth`). The user lands on ``g.user`` (:func:`load_user`,
called by the request hook of :mod:`.guard`), which the audit hook reads, so a step recorded
through the API names the individual like one recorded on the table screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from flask import current_app, flash, session
from flask_babel import gettext
from sqlmodel import Session

from .. import db
from ..services.people import auth
from .csrf import csrf_token

TOKEN_KEY = "auth"


@dataclass(frozen=True, slots=True)
class CurrentUser:
    id: int
    username: str
    display_name: str
    role: str
    session_id: int
    must_change_password: bool
    language: str | None = None
    #: set on a table device, where this is the table's current dealer (his PIN at
    #: the last relief), not a signed-in session (``edge.device``)
    device_id: int | None = None


def start_login(token: str, dbs: Session) -> None:
    """After a successful login: a fresh cookie session (no fixation) with a new CSRF token;
    a login session this browser still held is revoked on ``dbs`` (the login's own unit of
    work), not left dangling."""
    end_login(dbs)
    session[TOKEN_KEY] = token
    csrf_token()


def end_login(dbs: Session | None = None) -> None:
    """End the cookie's login: revoked on ``dbs`` (a view's session, which the edge's unit of
    work commits) or, without one, in a unit of its own (the request hook's idle logout)."""
    token = session.get(TOKEN_KEY)
    if token and dbs is not None:
        auth.revoke(dbs, str(token))
    elif token:
        with db.session_scope() as own:
            auth.revoke(own, str(token))
    session.clear()


def _minutes(key: str) -> timedelta:
    return timedelta(minutes=float(current_app.config[key]))


def load_user() -> CurrentUser | None:
    """The signed-in user of this request's cookie, or None (an idle session is ended here,
    with a message on the next page)."""
    token = session.get(TOKEN_KEY)
    if not token:
        return None
    idle_timeout, lifetime = _minutes("IDLE_TIMEOUT_MINUTES"), _minutes("SESSION_LIFETIME_MINUTES")
    with db.one_read() as conn:  # one read, no BEGIN
        active = auth.resolve(conn, str(token), idle_timeout=idle_timeout, lifetime=lifetime)
    if active is None:
        with db.session_scope(write=False) as dbs:
            idle = auth.is_idle(dbs, str(token), idle_timeout=idle_timeout, lifetime=lifetime)
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
