"""Errors at the page edge: a message on the page and a 4xx, never a bare traceback.

A ``ServiceError`` or ``RulesError`` is answered once, here (:func:`service_page`): the
transaction is ended (:mod:`.unit`), then the view's own answer (declared with
:func:`.unit.on_refusal`: the form again with the message beside the input, or a flash and a
redirect) or the error page with the status of :data:`.status.STATUS` (422 for a broken rule).
:func:`register` puts the handlers on each page blueprint.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, make_response, render_template
from flask_babel import gettext
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from ..i18n.wording import say
from ..rules.errors import RulesError
from ..services.errors import ServiceError
from ..services.rounds.txn import Busy
from .status import as_busy, end_refused, rollback
from .unit import Refused, answer_of, refused, status_of


def form_error(err: Refused, template: str, **context: Any) -> tuple[str, int]:
    """Re-show a form with the error flashed above it and the offending field marked (a
    view's refusal answer; the transaction is ended already, and ending it again is a no-op
    when a view calls this itself)."""
    if isinstance(err, ServiceError):
        end_refused(err)
    flash(say(err.message), "error")
    return render_template(template, error_field=err.field, **context), status_of(err)


def _error_page(err: Refused) -> Any:
    status = status_of(err)
    return render_template("error.html", status=status, title=title(status),
                           message=say(err.message)), status


def service_page(err: Refused) -> Any:
    """A refusal: the view's own answer (:func:`.unit.on_refusal`) or the error page."""
    return refused(err, _error_page)


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
    """The error page (or the view's own refusal answer) with ``Retry-After``: nothing was
    recorded, try again shortly."""
    rollback()
    if answer_of(err) is not None:
        resp = make_response(refused(err, _error_page))
    else:
        resp = make_response(render_template("error.html", status=503, title="Busy, try again",
                                             message=err.message), 503)
    resp.headers["Retry-After"] = str(err.retry_after)
    return resp


def database_page(err: DBAPIError) -> Any:
    return busy_page(as_busy(err))


HANDLERS: dict[type[Exception], Any] = {
    ServiceError: service_page, RulesError: service_page, Busy: busy_page,
    DBAPIError: database_page, HTTPException: http_page}


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
