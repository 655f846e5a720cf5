"""Errors at the API edge: every failure is an RFC 9457 problem body, never an HTML page.

400 for a body that is not JSON at all, 422 for well-formed JSON that breaks a rule (the
engine's ``code``, ``field`` and ``value``), the status of :data:`.status.STATUS` for a service
error, 404/405 for unknown routes and methods, 503 with ``Retry-After`` when the database stayed
busy through every retry, and 500 only for real bugs (logged, with no internals shown).

:func:`register` puts these handlers on the API blueprint; :mod:`.fallback` uses the same ones
for an ``/api/...`` request that no route matched.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from ..i18n.wording import say
from ..rules.errors import RulesError
from ..services.errors import ServiceError
from ..services.rounds.txn import Busy
from .status import as_busy, rollback, status_for

PROBLEM_TYPE = "application/problem+json"


def problem(status: int, title: str, detail: str, **extra: Any) -> Response:
    """A problem body; ``detail`` in the caller's language (``code``/``field`` stay as they are:
    they are the contract)."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": say(detail)}
    body.update({k: v for k, v in extra.items() if v is not None})
    resp = jsonify(body)
    resp.status_code = status
    resp.mimetype = PROBLEM_TYPE
    return resp


def rules_problem(err: RulesError) -> Response:
    rollback()
    info = err.problem()
    return problem(422, "The request breaks a rule", info.pop("detail"), **info)


def service_problem(err: ServiceError) -> Response:
    rollback()
    return problem(status_for(err), type(err).__name__, err.message, field=err.field)


def http_problem(err: HTTPException) -> Response:
    """An HTTP error as a problem body (one raised with its own answer keeps it)."""
    if err.response is not None:
        return err.response  # type: ignore[return-value]
    return problem(err.code or 500, err.name, err.description or err.name)


def busy_problem(err: Busy) -> Response:
    """503 with ``Retry-After``: nothing was recorded, send it again shortly."""
    rollback()
    resp = jsonify({"type": "about:blank", "title": "Busy", "status": 503,
                    "detail": err.message, "retry_after": err.retry_after})
    resp.status_code, resp.mimetype = 503, PROBLEM_TYPE
    resp.headers["Retry-After"] = str(err.retry_after)
    return resp


def database_problem(err: DBAPIError) -> Response:
    return busy_problem(as_busy(err))


HANDLERS: dict[type[Exception], Any] = {
    RulesError: rules_problem, ServiceError: service_problem, Busy: busy_problem,
    DBAPIError: database_problem, HTTPException: http_problem}


def register(bp: Blueprint) -> None:
    """Every failure of a view of ``bp`` answers a problem body."""
    for cls, handler in HANDLERS.items():
        bp.register_error_handler(cls, handler)
