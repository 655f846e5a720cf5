"""The one service-error-to-HTTP mapping, and what both kinds of answer share.

The pages, the rounds API and the audit API all answer a :class:`Conflict` with 409, a
:class:`NotFound` with 404, and so on: :data:`STATUS` is read by the page handlers
(:mod:`.pages`) and the problem handlers (:mod:`.problems`) alike. Whichever answers, the
request's transaction is rolled back first (:func:`rollback`): a refused request leaves nothing
half-written.
"""

from __future__ import annotations

from flask import g, request
from sqlalchemy.exc import DBAPIError

from ..services.errors import (
    AuthenticationFailed,
    Conflict,
    NotFound,
    PermissionDenied,
    ServiceError,
    Throttled,
    ValidationError,
)
from ..services.rounds.txn import Busy, is_contention

STATUS: dict[type[ServiceError], int] = {
    ValidationError: 422,
    NotFound: 404,
    Conflict: 409,
    PermissionDenied: 403,
    AuthenticationFailed: 401,
    Throttled: 429,
    Busy: 503,
}
API_PREFIX = "/api/"
BUSY = "The database is busy; nothing was recorded. Try again in a moment."


def status_for(err: ServiceError) -> int:
    for cls in type(err).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def rollback() -> None:
    """Roll back the request's database session, if it opened one."""
    dbs = g.get("db_session")
    if dbs is not None:
        dbs.rollback()


def end_refused(err: ServiceError) -> None:
    """End the transaction of a refused request: rolled back, except after a wrong PIN or
    password (or a throttled one), whose failed attempt must count (the services
    check a PIN before they write anything else, so the failure is all there is to keep)."""
    dbs = g.get("db_session")
    if dbs is None:
        return
    if isinstance(err, (AuthenticationFailed, Throttled)):
        dbs.commit()
    else:
        dbs.rollback()


def is_api() -> bool:
    """A JSON API path (problem bodies) rather than a page. Decided by the path, so that it
    also holds for a request no blueprint owns (an unknown ``/api/...`` route is a JSON 404)."""
    return request.path.startswith(API_PREFIX)


def as_busy(err: DBAPIError) -> Busy:
    """Contention that escaped a service (a login touch, a report) as :class:`Busy` (a 503,
    never a 500); any other database error is a real bug and is raised again (Flask logs it
    and answers 500)."""
    if not is_contention(err):
        raise err
    return Busy(BUSY)
