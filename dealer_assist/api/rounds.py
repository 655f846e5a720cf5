"""The stateful rounds API: start a round, append a step, read a round (``docs/api.md``).

Same service and same engine checks as the table screen (``services.rounds.live``). Authentication
is the login session cookie of the web app (there is no API token yet); because a cookie is sent by
the browser automatically, every write must also carry the session's CSRF token in the
``X-CSRF-Token`` header (a cross-site page cannot read it), else 403. The one request hook of
the edge (``edge.guard``) loads the user (so the audit log names who recorded each step) and
checks the roles and the token; the views declare their roles (table staff) with
``role_required``.

A ``redeal`` step stores no event: it asks a pit boss to void the round (answer 202, the round
with its ``void_request``); until one decides, every step is a 409.

Errors are problem bodies: 401 not signed in, 403 wrong role or missing CSRF header, 404, 409
(a key reused for another step, a stale ``expected_seq``, a closed round), 400 malformed JSON,
422 a rule broken (``code``, ``field``, ``value`` from the engine), 503 with ``Retry-After``
when the database stayed busy through every retry (nothing recorded; send it again).

Each write is a short transaction of :mod:`..services.steps` (read and verify, then
compare-and-append under the lock); its ``created`` flag, not a count taken before, decides
201 (stored by this request) or 200 (a resend or double tap: the round as stored).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import g

from .. import db
from ..edge import problem, role_required
from ..edge.offline import keeps_refusals
from ..services.rounds import live, steps
from .operations import (
    WRITE,
    answer,
    parsed,
    path_param,
    read_answers,
    route,
    write_answers,
)
from .shapes.rounds import EventCreate, Round, RoundCreate

TABLE = path_param("table_id", "the table")
ROUND = path_param("round_id", "the round")


def staff(view: Callable[..., Any]) -> Callable[..., Any]:
    """Table staff only. Who is signed in, the roles and, for a write (by its method), the
    ``X-CSRF-Token`` header are checked once for every path by ``edge.guard``."""
    return role_required(*sorted(live.RECORDERS))(view)


def round_json(rnd: live.LiveRound) -> dict[str, Any]:
    """The answer, built by the :class:`~.shapes.rounds.Round` shape the document describes
    (a field the shape does not allow is a bug found here, not by the client)."""
    r = rnd.round
    values = {
        "id": r.id, "table_id": r.table_id, "shift_id": r.shift_id, "number": r.number,
        "status": r.status, "opened_at": r.opened_at.isoformat(),
        "dealer_id": r.dealer_id,  # the dealer of record
        "game": rnd.rules.get("game", rnd.table.game), "profile": rnd.state.profile.name,
        "rules": rnd.rules,
        "events": [{"seq": e.seq, "type": e.type, "payload": e.payload, "actor_id": e.actor_id,
                    "created_at": e.created_at.isoformat(),  # received by the server
                    # tapped on the tablet (its clock), and queued offline
                    "tapped_at": e.tapped_at.isoformat() if e.tapped_at else None,
                    "offline": e.offline} for e in rnd.events],
        "state": rnd.summary(),
        "settlement": rnd.settlement.to_dict() if rnd.settlement else None,
        "stored_settlement": rnd.stored_settlement,
        "void_request": _void_request(rnd),
    }
    return answer(Round, values)


def _void_request(rnd: live.LiveRound) -> dict[str, Any] | None:
    """The round's newest void request: pending (the round is frozen), approved or rejected."""
    c = rnd.void_request
    if c is None:
        return None
    return {"id": c.id, "status": c.status, "reason": c.reason,
            "requested_by": c.requested_by, "requested_at": c.requested_at.isoformat(),
            "decided_by": c.decided_by, "note": c.note,
            "decided_at": c.decided_at.isoformat() if c.decided_at else None}


def _answer(rnd: live.LiveRound, created: bool) -> Any:
    return round_json(rnd), 201 if created else 200


@route("post", "/tables/<int:table_id>/rounds",
       "Start a round at a table (its first event is place)", tag="rounds", body=RoundCreate,
       answers=write_answers(Round), parameters=(TABLE, *WRITE),
       example={"boxes": [{"box": "1", "ante": 100, "bonus": 50, "seat": "A"}]})
@staff
@keeps_refusals(RoundCreate.refused)
def create_round(table_id: int) -> Any:
    start = parsed(RoundCreate).got
    done = steps.begin(db.get_session(), table_id=table_id, actor_id=g.user.id,  # commits
                       boxes=start.boxes, idempotency_key=start.key,  # (short transaction)
                       tapped_at=start.tap.tapped_at, offline=start.tap.offline)
    return _answer(done.live_round, done.created)


@route("get", "/tables/<int:table_id>/rounds/current", "The round in progress at a table",
       tag="rounds", answers={**read_answers(Round), "409": "Conflict"}, parameters=(TABLE,))
@staff
def current_round(table_id: int) -> Any:
    dbs = db.get_session()
    rid = live.open_round_id(dbs, table_id)
    if rid is None:
        return problem(404, "No round", f"table {table_id} has no round in progress")
    return round_json(live.load(dbs, rid))


@route("get", "/rounds/<int:round_id>", "A round", tag="rounds",
       answers={**read_answers(Round), "409": "Conflict"}, parameters=(ROUND,))
@staff
def get_round(round_id: int) -> Any:
    return round_json(live.load(db.get_session(), round_id))


@route("post", "/rounds/<int:round_id>/events", "Record one step of a round", tag="rounds",
       body=EventCreate, answers={**write_answers(Round), "202": Round},
       parameters=(ROUND, *WRITE),
       example={"type": "deal_box", "payload": {"box": "1",
                                                "cards": ["As", "Kd", "Qh", "Jc", "9s"]},
                "expected_seq": 1})
@staff
@keeps_refusals(EventCreate.refused)
def append(round_id: int) -> Any:
    step = parsed(EventCreate).got
    done = steps.record(db.get_session(), round_id=round_id, actor_id=g.user.id,
                        type=step.type, payload=step.payload, idempotency_key=step.key,
                        expected_seq=step.expected_seq,  # commits (short transaction)
                        tapped_at=step.tap.tapped_at, offline=step.tap.offline)
    if step.type == live.REDEAL and done.created:
        # a void asked for: nothing recorded until a pit boss decides
        return round_json(done.live_round), 202
    return _answer(done.live_round, done.created)
