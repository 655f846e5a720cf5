"""Read-only API for auditors: disputes (with the engine's recomputation), voids, corrections and
the audit chain's head (``docs/api.md``, section "Disputes, voids and corrections").

Authentication is the web app's login session cookie, as for the rounds API (one user loader,
``edge.guard``); every view here only reads (GET). Auditors, pit bosses, shift managers and
administrators may read; anyone else gets 403, and no session 401. A service error becomes a
problem body through the one mapping of ``edge/status.py`` (``STATUS``).
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Any

from flask import request

from .. import audit, db
from ..edge import as_id, problem, role_required
from ..models import Role
from ..services.disputes import disputes
from ..services.rounds import voids
from .operations import READ_ERRORS, answer, path_param, query, read_answers, route
from .shapes.rounds import (
    AuditHead,
    ChangeRequest,
    CorrectionList,
    CorrectionRequestList,
    Dispute,
    DisputeList,
    VoidList,
)

AUDITORS = frozenset({Role.AUDITOR.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value,
                      Role.ADMIN.value})


#: reading the audit API: auditors (read-only), pit bosses, shift managers, administrators
auditor = role_required(*sorted(AUDITORS))
FILTERS = (query("table_id", "only this table"), query("shift_id", "only this shift"),
           query("round_id", "only this round"))


def _status(*values: str) -> dict[str, Any]:
    return query("status", ", ".join(values), type="string", enum=list(values))


def _listed(shape: type[Any]) -> dict[str, Any]:
    return {"200": shape, **READ_ERRORS, "422": "Unprocessable"}


def plain(value: Any) -> Any:
    """Dataclasses, datetimes and tuples as JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def _arg(name: str) -> int | None:
    return as_id(request.args.get(name, ""))


def _dispute(d: disputes.DisputeView) -> dict[str, Any]:
    out: dict[str, Any] = plain(d)
    out["status"] = d.status
    return out


@route("get", "/disputes", "Disputes, oldest first", tag="audit", answers=_listed(DisputeList),
       parameters=(_status("open", "upheld", "denied", "escalated"), *FILTERS))
@auditor
def list_disputes() -> Any:
    with db.session_scope(write=False) as dbs:
        found = disputes.queue(dbs, table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                               round_id=_arg("round_id"),
                               status=request.args.get("status") or None)
        return answer(DisputeList, {"disputes": [_dispute(d) for d in found]})


@route("get", "/disputes/<int:dispute_id>",
       "One dispute with its decisions, the engine's review and corrections", tag="audit",
       answers=read_answers(Dispute), parameters=(path_param("dispute_id", "the dispute"),))
@auditor
def get_dispute(dispute_id: int) -> Any:
    with db.session_scope(write=False) as dbs:
        review = disputes.review(dbs, dispute_id)
        rr = review.round
        out = _dispute(review.dispute)
        out["review"] = {
            "matches": rr.matches, "differences": list(rr.differences), "error": rr.error,
            "profile": rr.profile, "stored_by": rr.stored_by,
            "box_as_paid": rr.box(review.dispute.box, "stored"),
            "box_recomputed": rr.box(review.dispute.box, "recomputed"),
            "events": plain(rr.events)}
        out["corrections"] = plain(disputes.corrections(dbs, round_id=review.dispute.round_id))
        return answer(Dispute, out)


def _change(c: voids.ChangeView) -> dict[str, Any]:
    out: dict[str, Any] = plain(c)
    out["status"] = c.status
    return out


@route("get", "/voids", "Void requests", tag="audit", answers=_listed(VoidList),
       parameters=(_status("pending", "approved", "rejected"), *FILTERS))
@auditor
def list_voids() -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.changes(dbs, kind="void", status=request.args.get("status") or None,
                              table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                              round_id=_arg("round_id"))
        return answer(VoidList, {"voids": [_change(c) for c in found]})


@route("get", "/voids/<int:request_id>", "One void request", tag="audit",
       answers=read_answers(ChangeRequest),
       parameters=(path_param("request_id", "the void request"),))
@auditor
def get_void(request_id: int) -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.get_change(dbs, request_id)
        if found.kind != "void":
            return problem(404, "NotFound", f"No void request with id {request_id}.")
        return answer(ChangeRequest, _change(found))


@route("get", "/correction-requests", "Correction requests", tag="audit",
       answers=_listed(CorrectionRequestList),
       parameters=(_status("pending", "approved", "rejected"), *FILTERS))
@auditor
def list_correction_requests() -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.changes(dbs, kind="correction",
                              status=request.args.get("status") or None,
                              table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                              round_id=_arg("round_id"))
        return answer(CorrectionRequestList,
                      {"correction_requests": [_change(c) for c in found]})


@route("get", "/corrections", "Money moved after payment", tag="audit",
       answers={"200": CorrectionList, **READ_ERRORS}, parameters=FILTERS)
@auditor
def list_corrections() -> Any:
    with db.session_scope(write=False) as dbs:
        found = disputes.corrections(dbs, shift_id=_arg("shift_id"), table_id=_arg("table_id"),
                                     round_id=_arg("round_id"))
        return answer(CorrectionList, {"corrections": plain(found),
                                       "total": sum(c.amount for c in found)})


@route("get", "/audit/head", "The audit chain's head", tag="audit",
       answers={"200": AuditHead, **READ_ERRORS})
@auditor
def audit_head() -> Any:
    with db.session_scope(write=False) as dbs:
        head = audit.chain_head(dbs)
        return answer(AuditHead, {"seq": head.seq, "hash": head.hash,
                                  "at": head.at.isoformat() if head.at else None})
