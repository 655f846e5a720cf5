"""Errors at the page edge: a message on the page and a 4xx, never a bare traceback.

Views that re-show a form catch :class:`ServiceError` themselves (:func:`form_error`) so the
user keeps what they typed; anything they do not catch lands in the handlers below, which
:func:`register` puts on each page blueprint. Either way the transaction is rolled back and the
status comes from :data:`.status.STATUS`. A ``RulesError`` has no handler here: the web layer
catches it itself, and one that escapes is a bug (a logged 500).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, make_response, render_template
from flask_babel import gettext
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from ..i18n.wording import say
from ..services.errors import ServiceError
from ..services.rounds.txn import Busy
from .status import as_busy, end_refused, rollback, status_for


def form_error(err: ServiceError, template: str, **context: Any) -> tuple[str, int]:
    """Re-show a form with the error flashed above it and the offending field marked."""
    end_refused(err)
    flash(say(err.message), "error")
    return render_template(template, error_field=err.field, **context), status_for(err)


def service_page(err: ServiceError) -> Any:
    end_refused(err)
    status = status_for(err)
    return render_template("error.html", status=status, title=title(status),
                           message=say(err.message)), status


def http_page(err: HTTPException) -> Any:
    rollback()
    status = err.code or 500
    if status >= 500:
        message = gettext("Something went wrong on our side. The error has been logged.")
    else:
        message = say(err.description or err.name)
    return render_template("error.html", status=status, title=title(status),
                           message=message), status


def busy_page(err: Busy) -> Any:
    """The error page with ``Retry-After``: nothing was recorded, try again shortly."""
    rollback()
    resp = make_response(render_template("error.html", status=503, title="Busy, try again",
                                         message=err.message), 503)
    resp.headers["Retry-After"] = str(err.retry_after)
    return resp


def database_page(err: DBAPIError) -> Any:
    return busy_page(as_busy(err))


HANDLERS: dict[type[Exception], Any] = {
    ServiceError: service_page, Busy: busy_page, DBAPIError: database_page,
    HTTPException: http_page}


def register(bp: Blueprint) -> None:
    """Every failure of a view of ``bp`` answers the error page (or the view's own form)."""
    for cls, handler in HANDLERS.items():
        bp.register_error_handler(cls, handler)


def title(status: int) -> str:
    return str({400: gettext("Request refused"), 401: gettext("Not signed in"),
            403: gettext("Not allowed"), 404: gettext("Not found"), 405: gettext("Not allowed"),
            409: gettext("Conflict"), 413: gettext("Too large"), 422: gettext("Check the input"),
            429: gettext("Too many attempts"),
            503: gettext("Busy, try again")}.get(status, gettext("Error")))
