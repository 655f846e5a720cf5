"""The audit log's Flask wiring: the engine audited, request changes attributed to the signed-in
user, and a line for a refused login that changed no row."""

from __future__ import annotations

from typing import Any

from flask import Flask, g, request

from .. import db
from .capture import install, noted_actions
from .chain import Actor, Change, append, current_actor, derive_key

LOGIN_ENDPOINT = "auth.login"


def _before_request() -> None:
    """Who the request's changes are attributed to when a service names no one: the signed-in
    user, else ``anonymous``; and a fresh list of what it wrote (for :func:`_after_request`)."""
    user = g.get("user")
    current_actor.set(Actor(user.id, user.username, user.role) if user else Actor.anonymous())
    noted_actions.set(set())


def _after_request(response: Any) -> Any:
    """A refused login that changed no row (throttled, disabled account) still gets a line.

    Only a login the view actually ran (``g.login_username``): a request refused before it
    (no CSRF token, a body too large) is not logged, so forged posts cannot flood the log. The
    entry goes through the request's own session: a second writer here would wait for the
    request's write transaction (SQLite) until the busy timeout and answer 500."""
    username = g.get("login_username")
    if request.endpoint == LOGIN_ENDPOINT and username is not None \
            and response.status_code >= 400 and "login.failed" not in (noted_actions.get() or ()):
        dbs = db.get_session()
        dbs.rollback()  # whatever the view left uncommitted is discarded anyway
        append(dbs.connection(), [Change(
            "login.refused", "login_throttle", None,
            {"username": username.strip().lower()[:64],
             "ip": (request.remote_addr or "unknown")[:64],
             "status": response.status_code})], default_actor=Actor.anonymous())
        dbs.commit()
    return response


def _teardown(_exc: BaseException | None) -> None:
    current_actor.set(None)
    noted_actions.set(None)


def app_key(app: Flask) -> bytes:
    """``AUDIT_KEY`` if configured, else derived from ``SECRET_KEY`` (``instance/secret_key``)."""
    return derive_key(app.config.get("AUDIT_KEY") or app.config["SECRET_KEY"])


def init_app(app: Flask) -> None:
    """Audit the app's engine; attribute request changes to the signed-in user. Register after
    ``edge.init_app`` so ``g.user`` is known when the hook runs."""
    install(db.get_engine(app), app_key(app))
    app.before_request(_before_request)
    app.after_request(_after_request)
    app.teardown_request(_teardown)

