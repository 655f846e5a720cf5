"""The stateful rounds API: start a round, append a step, read a round (``docs/api.md``).

Same service and same engine checks as the table screen (``services.live``). Authentication is
the login session cookie of the web app (there is no API token yet); because a cookie is sent
by the browser automatically, every write must also carry the session's CSRF token in the
``X-CSRF-Token`` header (a cross-site page cannot read it), else 403. The security hook
exempts ``/api`` (the calculator is public), so each view here makes its own check and carries
its roles in ``.roles`` (table staff), for the route-role test and ``may_reach``.

A ``redeal`` step stores no event: it asks a pit boss to void the round (answer 202, the round
with its ``void_request``); until one decides, every step is a 409.

Errors are problem bodies: 401 not signed in, 403 wrong role or missing CSRF header, 404, 409
(a key reused for another step, a stale ``expected_seq``, a closed round), 400 malformed JSON,
422 a rule broken (``code``, ``field``, ``value`` from the engine).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from flask import current_app, g, request, session

from .. import db
from ..rules.request import get_int, get_list, get_str, need_mapping
from ..services import auth, live
from ..services.errors import ValidationError
from ..web.security import CSRF_KEY, TOKEN_KEY
from . import bp
from .calculator import json_body
from .errors import problem


def _user() -> auth.ActiveSession | None:
    token = session.get(TOKEN_KEY)
    if not token:
        return None
    idle = timedelta(minutes=float(current_app.config["IDLE_TIMEOUT_MINUTES"]))
    with db.session_scope(write=False) as dbs:
        active = auth.resolve(dbs, str(token), idle_timeout=idle)
    if active is not None and active.needs_touch:
        with db.session_scope() as dbs:
            auth.touch(dbs, active.session_id)
    return active


def staff(write: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Signed in as table staff; for a write, the CSRF token in ``X-CSRF-Token`` too."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            user = _user()
            if user is None:
                return problem(401, "Not signed in", "sign in first (session cookie)")
            if user.must_change_password or user.role not in live.RECORDERS:
                return problem(403, "Not allowed", "only table staff record rounds")
            if write:
                expected, sent = session.get(CSRF_KEY), request.headers.get("X-CSRF-Token")
                if not expected or not sent or not secrets.compare_digest(str(expected), sent):
                    return problem(403, "CSRF token missing",
                                   "send the session's CSRF token in the X-CSRF-Token header")
            g.api_user = user
            return view(*args, **kwargs)

        wrapper.roles = live.RECORDERS  # type: ignore[attr-defined]
        return wrapper

    return decorate


def round_json(rnd: live.LiveRound) -> dict[str, Any]:
    r = rnd.round
    return {
        "id": r.id, "table_id": r.table_id, "shift_id": r.shift_id, "number": r.number,
        "status": r.status, "opened_at": r.opened_at.isoformat(),
        "game": rnd.rules.get("game", rnd.table.game), "profile": rnd.state.profile.name,
        "rules": rnd.rules,
        "events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "actor_id": e.actor_id,
                    "created_at": e.created_at.isoformat()} for e in rnd.events],
        "state": rnd.summary(),
        "settlement": rnd.settlement.to_dict() if rnd.settlement else None,
        "stored_settlement": rnd.stored_settlement,
        "void_request": _void_request(rnd),
    }


def _void_request(rnd: live.LiveRound) -> dict[str, Any] | None:
    """The round's newest void request: pending (the round is frozen), approved or rejected."""
    c = rnd.void_request
    if c is None:
        return None
    return {"id": c.id, "status": c.status, "reason": c.reason,
            "requested_by": c.requested_by, "requested_at": c.requested_at.isoformat(),
            "decided_by": c.decided_by, "note": c.note,
            "decided_at": c.decided_at.isoformat() if c.decided_at else None}


def _key(body: Any) -> str:
    key = request.headers.get("Idempotency-Key") or (
        body.get("idempotency_key") if isinstance(body, dict) else None)
    if not isinstance(key, str) or not key.strip():
        raise ValidationError("an Idempotency-Key header (or idempotency_key field) is required",
                              field="idempotency_key")
    return key


def _answer(rnd: live.LiveRound, created: bool) -> Any:
    return round_json(rnd), 201 if created else 200


@bp.post("/tables/<int:table_id>/rounds")
@staff(write=True)
def create_round(table_id: int) -> Any:
    data, error = json_body()
    if error is not None:
        return error
    body = need_mapping(data, "")
    boxes = []
    for i, raw in enumerate(get_list(body, "boxes")):
        d = need_mapping(raw, f"boxes[{i}]")
        box = get_str(d, "box", f"boxes[{i}]")
        boxes.append(live.BoxStake(box, get_int(d, "ante", f"boxes[{i}]"),
                                   get_int(d, "bonus", f"boxes[{i}]", default=0),
                                   get_str(d, "seat", f"boxes[{i}]", default=box)))
    dbs = db.get_session()
    before = live.open_round_id(dbs, table_id)
    rnd = live.start_round(dbs, table_id=table_id, actor_id=g.api_user.user_id, boxes=boxes,
                           idempotency_key=_key(body))
    dbs.commit()
    return _answer(rnd, rnd.round.id != before)


@bp.get("/tables/<int:table_id>/rounds/current")
@staff(write=False)
def current_round(table_id: int) -> Any:
    dbs = db.get_session()
    rid = live.open_round_id(dbs, table_id)
    if rid is None:
        return problem(404, "No round", f"table {table_id} has no round in progress")
    return round_json(live.load(dbs, rid))


@bp.get("/rounds/<int:round_id>")
@staff(write=False)
def get_round(round_id: int) -> Any:
    return round_json(live.load(db.get_session(), round_id))


@bp.post("/rounds/<int:round_id>/events")
@staff(write=True)
def append(round_id: int) -> Any:
    data, error = json_body()
    if error is not None:
        return error
    body = need_mapping(data, "")
    payload = need_mapping(body.get("payload", {}), "payload")
    expected = body.get("expected_seq")
    expected_seq = None if expected is None else get_int(body, "expected_seq")
    dbs = db.get_session()
    before = live.event_count(dbs, round_id)
    pending = live.load(dbs, round_id).void_pending
    rnd = live.record_step(dbs, round_id=round_id, actor_id=g.api_user.user_id,
                           type=get_str(body, "type"), payload=payload,
                           idempotency_key=_key(body), expected_seq=expected_seq)
    dbs.commit()
    if rnd.void_pending and not pending:
        return round_json(rnd), 202  # a void asked for: nothing recorded until a pit boss decides
    return _answer(rnd, len(rnd.events) != before)
