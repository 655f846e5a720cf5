"""The HTTP edge, once for pages and the JSON API: who is asking (login sessions), may they
(roles), did the form come from us (CSRF), the security headers and hardened input, and how a
failure is answered (a page or an RFC 9457 problem body).

``web`` and ``api`` both build on this package and never import each other; the services below
know nothing of HTTP (they raise ``ServiceError``/``RulesError``, mapped here once). Modules:

- ``headers``: security headers, NUL refusal, bounded ``<int:>`` ids, :func:`as_id`;
  ``header_values``: a user's value in a header (ETag, download names, redirects) made safe
- ``csrf``, ``sessions``, ``roles``, ``refusals``, ``guard``: the one request hook
- ``device``: a tablet bound to one table: who it records for, and its fence
- ``status``: the one service-error-to-HTTP mapping; ``problems`` and ``pages``: the two ways
  to answer a failure, registered per blueprint (``blueprints``); ``fallback``: requests no
  blueprint owns (an unknown route), answered by path
- ``unit``: the request's unit of work (the edge commits, not the view) and a view's own
  answer to a refusal (:func:`on_refusal`)
- ``body``: a JSON body that no bytes can turn into a 500; ``limits``: the public API's rate
  limit
"""

from __future__ import annotations

from flask import Flask

from . import fallback, guard, headers
from .blueprints import ApiBlueprint, PageBlueprint
from .body import json_body
from .csrf import csrf_field, csrf_ok, csrf_token
from .headers import MAX_ID, as_id
from .pages import form_error
from .problems import PROBLEM_TYPE, problem, rules_problem
from .refusals import same_site
from .roles import (
    ALL_ROLES,
    FLOOR_READERS,
    PIT_ROLES,
    PUBLIC,
    PUBLIC_ROLES,
    any_role,
    declared_roles,
    may_reach,
    public,
    role_required,
    undeclared_endpoints,
)
from .sessions import CurrentUser, end_login, start_login
from .status import STATUS, end_refused, is_api, status_for
from .unit import Refused, on_refusal, status_of

__all__ = [
    "ALL_ROLES", "FLOOR_READERS", "MAX_ID", "PIT_ROLES", "PROBLEM_TYPE", "PUBLIC", "PUBLIC_ROLES",
    "STATUS", "ApiBlueprint",
    "CurrentUser", "PageBlueprint", "any_role", "as_id", "csrf_field", "csrf_ok", "csrf_token",
    "declared_roles", "end_login", "end_refused", "form_error", "init_app", "init_errorhandlers",
    "is_api", "json_body", "may_reach", "on_refusal", "problem", "public", "Refused",
    "role_required", "rules_problem", "same_site", "start_login", "status_for", "status_of",
    "undeclared_endpoints",
]


def init_app(app: Flask) -> None:
    """Headers and input checks first (the converter is bound when a route is added, so before
    the blueprints; bad input is refused before anyone is looked up), then the request hook."""
    headers.init_app(app)
    guard.init_app(app)


def init_errorhandlers(app: Flask) -> None:
    """Answers for requests no blueprint owns (each blueprint brings its own handlers)."""
    fallback.init_app(app)
