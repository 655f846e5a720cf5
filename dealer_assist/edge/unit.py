"""The request's unit of work: who commits, and how a refusal is answered.

**One owner of each commit.** Services flush and never commit; a view never commits either.
The edge does, once per request (:func:`unit_of_work`, wrapped around every view of a
:class:`~.blueprints.PageBlueprint` and :class:`~.blueprints.ApiBlueprint`): a view that returns
a success or a redirect has the request's session committed; an answer of 400 or more has it
rolled back; a view that raises is answered by the blueprint's error handler, which ends the
transaction (:func:`.status.end_refused`: rolled back, except a wrong PIN's or password's
counted failure). A commit that meets contention raises here, inside the view's dispatch, so
the handlers answer it 503 like any other busy database. The one other owner is the record
path's short unit of work (``services/rounds/txn.run``): it commits each attempt itself, because
its compare-and-append retries need the commit inside the loop. CLI commands and scripts use
``db.session_scope``, which commits once at the end.

**Refusals mapped once.** A ``ServiceError`` or ``RulesError`` a page view does not handle goes
to one handler (:func:`refused_page`, registered on every page blueprint). A view that answers a
refusal its own way -- the form shown again with the message beside the input, a flash and a
redirect -- declares that answer with :func:`on_refusal`; the handler ends the transaction
first and calls it with the error and the view's own arguments. Views hold no ``try``/``except``
for these errors.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, g, request
from flask.typing import ResponseReturnValue

from ..i18n.wording import say
from ..rules.errors import RulesError
from ..services.errors import ServiceError
from .status import end_refused, status_for

F = TypeVar("F", bound=Callable[..., Any])
Refused = ServiceError | RulesError
#: the attribute a view's refusal answer is kept in (:func:`on_refusal`)
ANSWER = "refusal_answer"
READ_ONLY = frozenset({"GET", "HEAD", "OPTIONS"})


def unit_of_work(view: F) -> F:
    """``view`` with the request's transaction ended by the edge: committed after a success or
    a redirect, rolled back after any other answer. Read-only requests are left alone (their
    session reads with a deferred BEGIN and is closed in teardown)."""

    @wraps(view)
    def run(*args: Any, **kwargs: Any) -> Any:
        answer = view(*args, **kwargs)
        if request.method in READ_ONLY or g.get("db_session") is None:
            return answer
        response = current_app.make_response(answer)
        if response.status_code < 400:
            g.db_session.commit()
        else:
            g.db_session.rollback()
        return response

    return run  # type: ignore[return-value]


def on_refusal(answer: Callable[..., ResponseReturnValue]) -> Callable[[F], F]:
    """Declare how ``view`` answers a refusal: ``answer(err, **view_args)`` is called by the
    edge's handler (:func:`refused_page`) once the transaction is ended. Put it right under the
    route decorator."""

    def mark(view: F) -> F:
        setattr(view, ANSWER, answer)
        return view

    return mark


def status_of(err: Refused) -> int:
    """422 for a broken rule, the service error's own status otherwise."""
    return 422 if isinstance(err, RulesError) else status_for(err)


def answer_of(err: Refused) -> Callable[..., ResponseReturnValue] | None:
    """The refusal answer the request's view declared, if any."""
    view = current_app.view_functions.get(request.endpoint or "")
    found: Callable[..., ResponseReturnValue] | None = getattr(view, ANSWER, None)
    return found


def refused(err: Refused, default: Callable[[Refused], ResponseReturnValue]) -> Any:
    """End the transaction, then the view's own answer or ``default``."""
    if isinstance(err, ServiceError):
        end_refused(err)
    elif g.get("db_session") is not None:
        g.db_session.rollback()
    answer = answer_of(err)
    if answer is None:
        return default(err)
    try:
        return answer(err, **(request.view_args or {}))
    except (ServiceError, RulesError) as again:  # what the answer reads is gone (a 404)
        return refused_plainly(again, default)


def refused_plainly(err: Refused, default: Callable[[Refused], ResponseReturnValue]) -> Any:
    if isinstance(err, ServiceError):
        end_refused(err)
    return default(err)


def message(err: Refused) -> str:
    """The refusal in the reader's language."""
    return say(err.message)
