"""Service errors and HTTP errors at the web edge, mapped once: a message on a page and a 4xx.

This is the one service-error-to-HTTP mapping (issue 10): the pages, the rounds API and the
audit API all answer a :class:`Conflict` with 409, a :class:`NotFound` with 404, and so on.

Views that re-show a form catch :class:`ServiceError` themselves (:func:`form_error`) so the
user keeps what they typed; anything they do not catch lands in the handler below. Either way
the transaction is rolled back and the status comes from :data:`STATUS`. Paths under ``/api``
keep the API's JSON problem bodies (its own handler, which this one chains to).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, flash, g, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException

from ..api.errors import problem
from ..i18n.wording import say
from ..services.errors import (
    AuthenticationFailed,
    Conflict,
    NotFound,
    PermissionDenied,
    ServiceError,
    Throttled,
    ValidationError,
)
from ..services.rounds.txn import Busy

STATUS: dict[type[ServiceError], int] = {
    ValidationError: 422,
    NotFound: 404,
    Conflict: 409,
    PermissionDenied: 403,
    AuthenticationFailed: 401,
    Throttled: 429,
    Busy: 503,
}


def status_for(err: ServiceError) -> int:
    for cls in type(err).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 400


def _rollback() -> None:
    dbs = g.get("db_session")
    if dbs is not None:
        dbs.rollback()


def form_error(err: ServiceError, template: str, **context: Any) -> tuple[str, int]:
    """Re-show a form with the error flashed above it and the offending field marked."""
    _rollback()
    flash(say(err.message), "error")
    return render_template(template, error_field=err.field, **context), status_for(err)


def _is_api() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    api_http_handler = app.error_handler_spec[None][None].get(HTTPException)

    @app.errorhandler(ServiceError)
    def _service_error(err: ServiceError) -> Any:
        _rollback()
        status = status_for(err)
        if _is_api():
            return problem(status, type(err).__name__, err.message, field=err.field)
        return render_template("error.html", status=status, title=_title(status),
                               message=say(err.message)), status

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Any:
        if _is_api() and api_http_handler is not None:
            return api_http_handler(err)
        _rollback()
        status = err.code or 500
        if status >= 500:
            message = gettext("Something went wrong on our side. The error has been logged.")
        else:
            message = say(err.description or err.name)
        return render_template("error.html", status=status, title=_title(status),
                               message=message), status


def _title(status: int) -> str:
    return str({400: gettext("Request refused"), 401: gettext("Not signed in"),
            403: gettext("Not allowed"), 404: gettext("Not found"), 405: gettext("Not allowed"),
            409: gettext("Conflict"), 413: gettext("Too large"), 422: gettext("Check the input"),
            429: gettext("Too many attempts"),
            503: gettext("Busy, try again")}.get(status, gettext("Error")))
