"""At the edge: a step's tapped time, a refused queued step, a tablet heard from.

The table screen's step and start and the API's event and round start read the same two
optional fields (:func:`tap_of`: ``tapped_at``, ``offline``). When a step sent with
``offline: true`` is refused, :func:`kept` stores what the tablet had recorded
(``services.rounds.offline.keep_refusal``) in a transaction of its own -- the request's own was
rolled back, the round is left exactly as it was -- and adds ``"offline_refusal": <id>`` to the
usual problem body. :func:`note_heard` counts any request of a bound tablet as heard from.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from flask import Response, current_app, g, request
from sqlalchemy.exc import DBAPIError

from .. import db
from ..i18n.steps import phrase_data
from ..models import utcnow
from ..rules.errors import RulesError
from ..services.errors import ServiceError
from ..services.rounds import offline
from ..services.rounds.txn import Busy, is_contention
from ..services.tables import heard
from ..services.tables.devices import DeviceView


def tap_of(body: Mapping[str, Any]) -> offline.Tap:
    """``tapped_at`` and ``offline`` of a request body or form (400 malformed, 422 a tapped
    time more than 5 minutes ahead of the server's clock)."""
    return offline.read_tap(body.get("tapped_at"), body.get("offline"), utcnow())


def tap_said(body: Mapping[str, Any]) -> offline.Tap:
    """What a refused request said of its tap (a malformed one: not from the queue)."""
    try:
        return tap_of(body)
    except ServiceError:
        return offline.Tap()


def kept(response: Response, tap: offline.Tap, *, type: str, payload: Mapping[str, Any],
         key: str, round_id: int | None = None, table_id: int | None = None,
         reason: str | None = None) -> Response:
    """``response`` (a refusal's problem body) with the refused queued step stored and named
    (``offline_refusal``); any other answer, or a step not sent from the queue, unchanged.
    ``reason``: the error's sentence (a ``Phrase``), kept to be said in each reader's
    language."""
    if not tap.offline or response.status_code not in offline.REFUSALS:
        return response
    body = response.get_json(silent=True)
    if not isinstance(body, dict):
        return response
    user, device = g.get("user"), g.get("device")
    refused = offline.Refused(
        table_id=table_id, round_id=round_id, actor_id=user.id if user is not None else None,
        device_id=device.id if device is not None else None, type=type, payload=payload,
        tap=tap, idempotency_key=key, status=response.status_code,
        detail=str(body.get("detail") or body.get("title") or ""),
        reason=json.dumps(phrase_data(reason), ensure_ascii=False) if reason else None)
    with db.session_scope() as dbs:  # commits: a transaction of its own
        found = offline.keep_refusal(dbs, refused)
    if found is None:
        return response
    body["offline_refusal"] = found
    response.set_data(json.dumps(body, ensure_ascii=False))
    return response


F = TypeVar("F", bound=Callable[..., Any])


def keeps_refusals(step: Callable[[Mapping[str, Any], dict[str, Any]], dict[str, Any]]
                   ) -> Callable[[F], F]:
    """An API view whose refusal of a step sent from a tablet's offline queue is kept
    (:func:`kept`); any other refusal goes to the blueprint's handlers as always.
    ``step(body, view_args)``: the step's ``type``, ``payload``, ``key`` and its round or
    table, as :func:`kept` names them."""
    from .problems import HANDLERS  # the API's handlers: problems imports nothing of this

    def wrap(view: F) -> F:
        @functools.wraps(view)
        def inner(*args: Any, **kwargs: Any) -> Any:
            try:
                return view(*args, **kwargs)
            except (RulesError, ServiceError, Busy) as err:
                body = request.get_json(silent=True)
                body = body if isinstance(body, dict) else {}
                tap = tap_said(body)
                if not tap.offline:
                    raise
                handler = next(HANDLERS[c] for c in type(err).__mro__ if c in HANDLERS)
                return kept(handler(err), tap, reason=getattr(err, "message", None),
                            **step(body, kwargs))
        return cast(F, inner)
    return wrap


def note_heard(device: DeviceView) -> None:
    """Any request of a bound tablet counts as heard from (``services.tables.heard``: a write
    at most every few seconds, none at all in between). Contention skips it: a heartbeat never
    fails or delays a tap; the next request or ping writes it."""
    now = utcnow()
    engine = db.get_engine()
    if not heard.due(str(engine.url), device.id, now):
        return
    try:
        with db.session_scope() as dbs:
            heard.heard(dbs.connection(), device.id, now)
    except DBAPIError as err:
        if not is_contention(err):
            raise
        current_app.logger.info("heard-from of device %s skipped (busy)", device.id)
