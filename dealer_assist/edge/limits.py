"""Rate limits for the public calculators (Flask-Limiter).

The calculators need no login, so anyone can call them; one ``split/suggest`` call costs CPU
in proportion to its ``samples``. Every view :mod:`.roles` declares ``@public`` under
``/api/`` gets the limit ``PUBLIC_API_RATE_LIMIT`` (Flask-Limiter's syntax, per client
address), except the OpenAPI document (:data:`NOT_LIMITED`); signed-in routes are not limited
here (the login throttle guards the login).

The limit is for anonymous callers: a casino floor is one address behind its router,
so a signed-in pit boss checking a payout must not be refused because the public has used the
address's quota. A request that carries a valid login session (:func:`signed_in`) is neither
refused nor counted.

Where the counters live: ``RATELIMIT_STORAGE_URI`` if set; else ``REDIS_URL`` (Redis, shared
by every process and machine: ``make run WORKERS=N``, N app machines behind a load balancer);
else ``memory://`` (one process: the default of ``make run``; with N processes on memory the
effective limit would be N times the figure). One :class:`~flask_limiter.Limiter` per app (made
in :func:`init_app`, never at import), so in memory a test's app starts from zero. Behind a
reverse proxy, put ``werkzeug.middleware.proxy_fix.ProxyFix`` in front so the client address
is the caller's. A refused call is a 429 problem body (the API's handlers map every
HTTPException) with a ``Retry-After`` header. ``RATELIMIT_ENABLED = False`` turns it off.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask, current_app, g, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from .. import db
from ..services.people import auth
from .roles import public_endpoints
from .sessions import TOKEN_KEY
from .status import API_PREFIX

DEFAULT_LIMIT = "60 per minute"
#: public endpoints never limited: the API's description (a client fetches it to call us)
NOT_LIMITED = frozenset({"api.openapi"})


def public_api_endpoints(app: Flask) -> list[str]:
    """Endpoints under ``/api/`` that are declared public and limited (all but
    :data:`NOT_LIMITED`)."""
    return [e for e in public_endpoints(app, API_PREFIX) if e not in NOT_LIMITED]


def storage_uri(config: Any) -> str:
    """Where the counters live: the configured storage, else Redis at ``REDIS_URL``, else
    this process's memory."""
    return str(config.get("RATELIMIT_STORAGE_URI") or config.get("REDIS_URL") or "memory://")


def signed_in() -> bool:
    """The request carries a valid login session (every account is staff): one read of the
    session row, only for a call to a public endpoint."""
    if g.get("user") is not None:
        return True
    token = session.get(TOKEN_KEY)
    if not token:
        return False
    config = current_app.config
    with db.one_read() as conn:
        found = auth.resolve(
            conn, str(token),
            idle_timeout=timedelta(minutes=float(config["IDLE_TIMEOUT_MINUTES"])),
            lifetime=timedelta(minutes=float(config["SESSION_LIFETIME_MINUTES"])))
    return found is not None


def init_app(app: Flask) -> Limiter:
    """Limit every public API view; call after the blueprints are registered."""
    app.config.setdefault("PUBLIC_API_RATE_LIMIT", DEFAULT_LIMIT)
    app.config["RATELIMIT_STORAGE_URI"] = storage_uri(app.config)
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    # Redis unreachable: the calculators keep answering, counted in memory until it is back
    # (a floor never stops for its public calculators' counters)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[])
    rule = limiter.shared_limit(lambda: str(app.config["PUBLIC_API_RATE_LIMIT"]),
                                scope="public-api", exempt_when=signed_in)
    limited_endpoints = frozenset(public_api_endpoints(app))
    # every other request (a tablet's step...) skips the limiter's per-request
    # resolution of limits at once: no limit applies to it
    limiter.request_filter(lambda: request.endpoint not in limited_endpoints)
    for endpoint in limited_endpoints:
        limited: Any = rule(app.view_functions[endpoint])
        app.view_functions[endpoint] = limited
    app.extensions["public_api_limiter"] = limiter
    return limiter
