"""Read-only API for auditors: disputes (with the engine's recomputation), voids, corrections and
the audit chain's head (``docs/api.md``, section "Disputes, voids and corrections").

Authentication is the web app's login session cookie, as for the rounds API; every view here
only reads (GET), so no CSRF header is needed. Pit bosses, shift managers and administrators
may read; anyone else gets 403, and no session 401. Each view carries its roles in ``.roles``
so the route-role test and ``may_reach`` see them (only the stateless calculators are public).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import wraps
from typing import Any

from flask import current_app, jsonify, request, session

from .. import audit, db
from ..models import Role
from ..services import auth, disputes, voids
from ..services.errors import ServiceError
from ..web.security import TOKEN_KEY
from . import bp
from .errors import problem

AUDITORS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value, Role.ADMIN.value})


def _signed_in() -> auth.ActiveSession | None:
    token = session.get(TOKEN_KEY)
    if not token:
        return None
    idle = timedelta(minutes=float(current_app.config["IDLE_TIMEOUT_MINUTES"]))
    with db.session_scope(write=False) as dbs:
        return auth.resolve(dbs, str(token), idle_timeout=idle)


def auditor(view: Callable[..., Any]) -> Callable[..., Any]:
    """Signed in (session cookie) as a pit boss, shift manager or administrator."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        user = _signed_in()
        if user is None:
            return problem(401, "Not signed in", "sign in first (session cookie)")
        if user.must_change_password or user.role not in AUDITORS:
            return problem(403, "Not allowed",
                           "disputes, voids and corrections are read by pit bosses, shift "
                           "managers and administrators")
        try:
            return view(*args, **kwargs)
        except ServiceError as err:
            status = 404 if type(err).__name__ == "NotFound" else 422
            return problem(status, type(err).__name__, err.message, field=err.field)

    wrapper.roles = AUDITORS  # type: ignore[attr-defined]
    return wrapper


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
    raw = request.args.get(name, "").strip()
    return int(raw) if raw.isdigit() else None


def _dispute(d: disputes.DisputeView) -> dict[str, Any]:
    out: dict[str, Any] = plain(d)
    out["status"] = d.status
    return out


@bp.get("/disputes")
@auditor
def list_disputes() -> Any:
    with db.session_scope(write=False) as dbs:
        found = disputes.queue(dbs, table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                               round_id=_arg("round_id"),
                               status=request.args.get("status") or None)
        return jsonify({"disputes": [_dispute(d) for d in found]})


@bp.get("/disputes/<int:dispute_id>")
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
        return jsonify(out)


def _change(c: voids.ChangeView) -> dict[str, Any]:
    out: dict[str, Any] = plain(c)
    out["status"] = c.status
    return out


@bp.get("/voids")
@auditor
def list_voids() -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.changes(dbs, kind="void", status=request.args.get("status") or None,
                              table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                              round_id=_arg("round_id"))
        return jsonify({"voids": [_change(c) for c in found]})


@bp.get("/voids/<int:request_id>")
@auditor
def get_void(request_id: int) -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.get_change(dbs, request_id)
        if found.kind != "void":
            return problem(404, "NotFound", f"No void request with id {request_id}.")
        return jsonify(_change(found))


@bp.get("/correction-requests")
@auditor
def list_correction_requests() -> Any:
    with db.session_scope(write=False) as dbs:
        found = voids.changes(dbs, kind="correction",
                              status=request.args.get("status") or None,
                              table_id=_arg("table_id"), shift_id=_arg("shift_id"),
                              round_id=_arg("round_id"))
        return jsonify({"correction_requests": [_change(c) for c in found]})


@bp.get("/corrections")
@auditor
def list_corrections() -> Any:
    with db.session_scope(write=False) as dbs:
        found = disputes.corrections(dbs, shift_id=_arg("shift_id"), table_id=_arg("table_id"),
                                     round_id=_arg("round_id"))
        return jsonify({"corrections": plain(found), "total": sum(c.amount for c in found)})


@bp.get("/audit/head")
@auditor
def audit_head() -> Any:
    with db.session_scope(write=False) as dbs:
        head = audit.chain_head(dbs)
        return jsonify({"seq": head.seq, "hash": head.hash,
                        "at": head.at.isoformat() if head.at else None})
