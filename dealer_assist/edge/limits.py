"""Rate limits for the public calculators (Flask-Limiter, in-memory storage).

The calculators need no login, so anyone can call them; one ``split/suggest`` call costs CPU
in proportion to its ``samples``. Every view :mod:`.roles` declares ``@public`` under
``/api/`` gets the limit ``PUBLIC_API_RATE_LIMIT`` (Flask-Limiter's syntax, per client
address); signed-in routes are not limited here (the login throttle guards the login).

One :class:`~flask_limiter.Limiter` per app (made in :func:`init_app`, never at import), so each
app has its own in-memory counters: a test's app starts from zero. Behind a reverse proxy, put
``werkzeug.middleware.proxy_fix.ProxyFix`` in front so the client address is the caller's.
A refused call is a 429 problem body (the API's handlers map every HTTPException) with a
``Retry-After`` header. ``RATELIMIT_ENABLED = False`` turns it off; in-memory counters are per
process, so with N workers the effective limit is N times the figure.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from .roles import public_endpoints
from .status import API_PREFIX

DEFAULT_LIMIT = "60 per minute"


def public_api_endpoints(app: Flask) -> list[str]:
    """Endpoints under ``/api/`` that are declared public."""
    return public_endpoints(app, API_PREFIX)


def init_app(app: Flask) -> Limiter:
    """Limit every public API view; call after the blueprints are registered."""
    app.config.setdefault("PUBLIC_API_RATE_LIMIT", DEFAULT_LIMIT)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app, default_limits=[])
    rule = limiter.shared_limit(lambda: str(app.config["PUBLIC_API_RATE_LIMIT"]),
                                scope="public-api")
    for endpoint in public_api_endpoints(app):
        limited: Any = rule(app.view_functions[endpoint])
        app.view_functions[endpoint] = limited
    app.extensions["public_api_limiter"] = limiter
    return limiter
