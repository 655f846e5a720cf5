"""Pages for disputes, voids and corrections, and the audit chain's head.

* ``/rounds`` -- recent rounds (a table's, or every table's), each opening ``/rounds/<id>``: the
  settlement box by box with a *Dispute* button, the event timeline, and the forms to ask for a
  void or a correction.
* ``/disputes`` -- the pit boss's queue (table, shift, status; age of each dispute);
  ``/disputes/<id>`` -- the review: claim, timeline with the cards, the settlement as recorded,
  the engine's recomputation and the differences; the decision form for those who may decide.
* ``/changes`` -- void and correction requests waiting for a second person's approval.
* ``/audit`` -- the chain head (administrators), and a verification on demand.

Views are thin: services check everything and raise named errors; a refused form is shown
again with the message and a 4xx.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from sqlmodel import col, select

from .. import audit, db
from ..edge import PageBlueprint, Refused, as_id, form_error, on_refusal, role_required
from ..i18n import money, when
from ..i18n.wording import action, say
from ..models import Role, Round, RoundSettlement
from ..rules.phrase import Phrase
from ..rules.settlement import FEES, at_showdown
from ..services import decisions
from ..services.disputes import disputes
from ..services.errors import ValidationError
from ..services.rounds import review as round_review
from ..services.rounds import voids
from ..services.tables import tables
from .forms import text, whole_number
from .tables import floor_zone

bp = PageBlueprint("disputes", __name__)
FLOOR = tuple(sorted(disputes.FILERS))
REVIEWERS = tuple(sorted(disputes.RESOLVERS))
ADMIN = (Role.ADMIN.value,)
#: the read-only auditor reads every page here and writes nothing
AUDITOR = (Role.AUDITOR.value,)
_SIGNED = re.compile(r"^[+-]?[0-9]{1,15}$")
STATUS_WORDS = {"open": "Open", "upheld": "Upheld", "denied": "Denied",
                "escalated": "Escalated", "pending": "Waiting", "approved": "Approved",
                "rejected": "Rejected"}


#: the strftime shapes the templates ask for -> ``i18n.when`` parts (the one date formatter)
_PARTS = {"%H:%M": "time", "%H:%M:%S": "clock", "%d.%m %H:%M": "short"}


@bp.app_template_filter("local_time")
def local_time(moment: datetime | None, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    """A stored moment on the floor's clock, in the reader's locale (``i18n.when``)."""
    return when(moment, _PARTS.get(fmt, "seconds"), zone=floor_zone()) if moment else ""


@bp.app_template_filter("age")
def age(moment: datetime) -> str:
    """``4 min``, ``2 h 05 min``, ``3 d 4 h``: how long a dispute has waited."""
    seconds = max(0, int((datetime.now(moment.tzinfo) - moment).total_seconds()))
    span = timedelta(seconds=seconds)
    if span < timedelta(hours=1):
        return str(gettext("%(minutes)s min", minutes=seconds // 60))
    if span < timedelta(days=1):
        return str(gettext("%(hours)s h %(minutes)s min", hours=seconds // 3600,
                           minutes=f"{seconds % 3600 // 60:02d}"))
    return str(gettext("%(days)s d %(hours)s h", days=span.days,
                       hours=seconds % 86400 // 3600))


@bp.app_template_filter("pay_take")
def pay_take(net: int, currency: str | None = None) -> str:
    """A net in the croupier's words, as the table screen said it: PAY 100, TAKE 50, RETURN."""
    if not net:
        return action(0)
    return f"{action(net)} {money(abs(net), currency)}"


@bp.app_template_filter("wager_said")
def wager_said(wager: dict[str, Any], name: str = "") -> str:
    """A wager as the table screen said it: a returned wager names its stake (RETURN 200), a
    fee was collected at the tap (COLLECTED 20)."""
    if name in FEES and wager.get("stake"):
        return f"{gettext('COLLECTED')} {money(int(wager['stake']))}"
    if wager.get("net") or not wager.get("stake"):
        return pay_take(int(wager.get("net") or 0))
    return f"{action(0)} {money(int(wager['stake']))}"


@bp.app_template_filter("at_showdown")
def showdown_net(box: dict[str, Any]) -> int:
    """A box's result as the table screen's headline said it: what moved at the showdown (its
    wagers; the fees were collected at the tap). A poker seat has no fees: its net."""
    return at_showdown(box) if "wagers" in box else int(box.get("net") or 0)


def _signed(name: str, label: str) -> int:
    raw = request.form.get(name, "").strip().replace(" ", "")
    if not _SIGNED.match(raw) or len(raw) > 19:
        raise ValidationError("%(label)s must be a whole number, e.g. 100 or -50.",
                              label=Phrase(label), field=name)
    return int(raw)


def _int_arg(name: str) -> int | None:
    return as_id(request.args.get(name, ""))


# --- rounds ------------------------------------------------------------------------------------

@bp.get("/rounds")
@role_required(*FLOOR, *ADMIN, *AUDITOR)
def rounds_page() -> str:
    """Recent rounds, newest first, with each box's result as recorded."""
    dbs = db.get_session()
    table_id = _int_arg("table_id")
    query = select(Round, RoundSettlement).outerjoin(
        RoundSettlement, col(RoundSettlement.round_id) == Round.id)
    if table_id is not None:
        query = query.where(Round.table_id == table_id)
    rows = dbs.exec(query.order_by(col(Round.id).desc()).limit(60)).all()
    names = {t.id: t.name for t in tables.list_tables(dbs, include_inactive=True)}
    lines = []
    for rnd, stored in rows:
        boxes = []
        if stored is not None:
            boxes = [(b["box"], showdown_net(b))
                     for b in json.loads(stored.settlement)["boxes"]]
        lines.append({"round": rnd, "table": names.get(rnd.table_id, "?"), "boxes": boxes})
    return render_template("disputes/rounds.html", lines=lines, tables=names,
                           table_id=table_id)


def _round_context(round_id: int) -> dict[str, Any]:
    dbs = db.get_session()
    replayed = round_review.replay_round(dbs, round_id)
    return {"rr": replayed, "judged": decisions.round_decisions(dbs, round_id),
            "disputes": disputes.queue(dbs, round_id=round_id),
            "changes": voids.changes(dbs, round_id=round_id),
            "corrections": disputes.corrections(dbs, round_id=round_id), "form": {}}


@bp.get("/rounds/<int:round_id>")
@role_required(*FLOOR, *ADMIN, *AUDITOR)
def round_page(round_id: int) -> str:
    return render_template("disputes/round.html", **_round_context(round_id))


def _file_refused(err: Refused, round_id: int) -> Any:
    return form_error(err, "disputes/file.html",
                      rr=round_review.replay_round(db.get_session(), round_id),
                      box=request.form.get("box", ""), form=request.form)


@bp.route("/rounds/<int:round_id>/disputes", methods=["GET", "POST"])
@on_refusal(_file_refused)
@role_required(*FLOOR)
def file_dispute(round_id: int) -> Any:
    """The filing form for one box (``?box=``), and filing it."""
    dbs = db.get_session()
    if request.method == "GET":
        return render_template("disputes/file.html", rr=round_review.replay_round(dbs, round_id),
                               box=request.args.get("box", ""), form={})
    form = request.form
    filed = disputes.file_dispute(
        dbs, round_id=round_id, box=form.get("box", ""),
        claim=text("claim", max_length=1000),
        claimed_amount=whole_number("claimed_amount", "The amount claimed"),
        croupier_note=text("croupier_note", max_length=1000),
        camera=text("camera", max_length=40), camera_time=text("camera_time", max_length=40),
        actor_id=g.user.id)
    flash(gettext("Dispute %(id)s filed on box %(box)s of round %(round_number)s. A pit boss "
                 "will review it.", id=filed.id, box=filed.box,
                 round_number=filed.round_number), "success")
    if g.get("device") is not None:  # a table device shows the round, not the pit's review
        return redirect(url_for("disputes.round_page", round_id=round_id), 303)
    return redirect(url_for("disputes.review", dispute_id=filed.id), 303)


@bp.post("/rounds/<int:round_id>/changes")
@on_refusal(lambda err, round_id: form_error(err, "disputes/round.html", **{
    **_round_context(round_id), "form": request.form}))
@role_required(*FLOOR)
def request_change(round_id: int) -> Any:
    kind = request.form.get("kind", "")
    amount = _signed("amount", "The amount") if kind == "correction" else 0
    made = voids.request_change(db.get_session(), round_id=round_id, kind=kind,
                                reason=text("reason", max_length=1000),
                                box=request.form.get("box", ""), amount=amount,
                                actor_id=g.user.id)
    flash(gettext("The void of round %(round)s waits for a pit boss's approval.",
                  round=made.round_number) if made.kind == "void" else
          gettext("The correction of round %(round)s waits for a pit boss's approval.",
                  round=made.round_number), "info")
    return redirect(url_for("disputes.round_page", round_id=round_id), 303)


# --- the pit boss's queue and review -----------------------------------------------------------

def waiting_status(role: str) -> str:
    """The disputes that wait for this role: escalated ones for a shift manager (only he may
    decide them), open ones for a pit boss (and an administrator, who reads along)."""
    return "escalated" if role in disputes.ESCALATION else disputes.OPEN


@bp.app_context_processor
def _waiting_disputes() -> dict[str, Any]:
    """``waiting_disputes()`` for the header badge: how many disputes wait for the signed-in
    role (a function, so only pages that show the badge query)."""
    def count() -> int:
        return disputes.count(db.get_session(), status=waiting_status(g.user.role))

    return {"waiting_disputes": count}


@bp.get("/disputes")
@role_required(*REVIEWERS, *ADMIN, *AUDITOR)
def queue() -> str:
    """Opens on what waits for this role (``waiting_status``); ``?status=all`` lists all."""
    dbs = db.get_session()
    waiting = waiting_status(g.user.role)
    status = request.args.get("status", waiting)
    status = status if status in disputes.STATUSES else ""
    found = disputes.queue(dbs, table_id=_int_arg("table_id"), shift_id=_int_arg("shift_id"),
                           status=status or None)
    names = {t.id: t.name for t in tables.list_tables(dbs, include_inactive=True)}
    return render_template("disputes/queue.html", disputes=found, tables=names,
                           status=status, table_id=_int_arg("table_id"),
                           shift_id=_int_arg("shift_id"), statuses=disputes.STATUSES,
                           words=STATUS_WORDS, for_role=waiting,
                           pending=len(voids.changes(dbs, status=voids.PENDING)))


def _review_context(dispute_id: int) -> dict[str, Any]:
    dbs = db.get_session()
    review = disputes.review(dbs, dispute_id)
    user = g.user
    may_decide = user.role in disputes.RESOLVERS and user.id not in review.dealt_by and (
        review.dispute.status != "escalated" or user.role in disputes.ESCALATION)
    return {"review": review, "d": review.dispute, "rr": review.round,
            "judged": decisions.round_decisions(dbs, review.dispute.round_id),
            "may_decide": may_decide, "words": STATUS_WORDS, "form": {},
            "corrections": [c for c in disputes.corrections(dbs, round_id=review.dispute.round_id)
                            if c.box == review.dispute.box]}


@bp.get("/disputes/<int:dispute_id>")
@role_required(*FLOOR, *ADMIN, *AUDITOR)
def review(dispute_id: int) -> str:
    return render_template("disputes/review.html", **_review_context(dispute_id))


@bp.post("/disputes/<int:dispute_id>/decisions")
@on_refusal(lambda err, dispute_id: form_error(err, "disputes/review.html", **{
    **_review_context(dispute_id), "form": request.form}))
@role_required(*REVIEWERS)
def decide(dispute_id: int) -> Any:
    outcome = request.form.get("outcome", "")
    adjustment = _signed("adjustment", "The adjustment") if outcome == "upheld" else 0
    done = disputes.decide(db.get_session(), dispute_id=dispute_id, outcome=outcome,
                           note=text("note", max_length=1000), adjustment=adjustment,
                           actor_id=g.user.id)
    if done.status == "upheld" and done.latest:
        said = gettext("Dispute %(id)s upheld: pay %(amount)s.", id=done.id,
                       amount=money(done.latest.adjustment))
    else:
        said = {"upheld": gettext("Dispute %(id)s upheld.", id=done.id),
                "denied": gettext("Dispute %(id)s denied.", id=done.id),
                "escalated": gettext("Dispute %(id)s escalated to the shift manager.",
                                     id=done.id)}.get(done.status, str(done.status))
    flash(said, "success")
    return redirect(url_for("disputes.review", dispute_id=dispute_id), 303)


# --- voids and corrections ----------------------------------------------------------------------

@bp.app_context_processor
def _approvals() -> dict[str, Any]:
    """``pending_approvals()`` for the header: how many void/correction requests wait (a table
    may be frozen until a pit boss decides). A function, so only pages that show it query."""
    return {"pending_approvals": _pending_approvals}


def _pending_approvals() -> int:
    """Read in its own read-only transaction: on a POST the request's session would otherwise
    start its write transaction while the page renders (no nested writers)."""
    with db.session_scope(write=False) as dbs:
        return len(voids.changes(dbs, status=voids.PENDING))


@bp.get("/changes")
@role_required(*REVIEWERS, *ADMIN, *AUDITOR)
def changes_page() -> str:
    dbs = db.get_session()
    status = request.args.get("status", voids.PENDING)
    status = status if status in voids.STATUSES else ""
    names = {t.id: t.name for t in tables.list_tables(dbs, include_inactive=True)}
    return render_template("disputes/changes.html", words=STATUS_WORDS, status=status,
                           changes=voids.changes(dbs, status=status or None),
                           statuses=voids.STATUSES, table_names=names)


def _change_refused(err: Refused, **_: Any) -> Any:
    flash(say(err.message), "error")
    return redirect(url_for("disputes.changes_page"), 303)


@bp.post("/changes/<int:request_id>/decision")
@on_refusal(_change_refused)
@role_required(*REVIEWERS)
def decide_change(request_id: int) -> Any:
    approve = request.form.get("approve") == "yes"
    done = voids.decide_change(db.get_session(), request_id=request_id, approve=approve,
                               note=text("note", max_length=1000), actor_id=g.user.id)
    words = {("void", "approved"): gettext("The void of round %(round)s was approved."),
             ("void", "rejected"): gettext("The void of round %(round)s was rejected."),
             ("correction", "approved"):
                 gettext("The correction of round %(round)s was approved."),
             ("correction", "rejected"):
                 gettext("The correction of round %(round)s was rejected.")}
    said = words.get((done.kind, done.status), f"{done.kind}: {done.status}")
    flash(said.replace("%(round)s", str(done.round_number)), "success")
    return redirect(url_for("disputes.changes_page"), 303)


# --- the audit chain ----------------------------------------------------------------------------

@bp.get("/audit")
@role_required(*ADMIN, *AUDITOR)
def audit_page() -> str:
    return render_template("disputes/audit.html", head=audit.chain_head(db.get_session()),
                           result=None)


@bp.post("/audit/verify")
@role_required(*ADMIN)
def audit_verify() -> str:
    dbs = db.get_session()
    return render_template("disputes/audit.html", head=audit.chain_head(dbs),
                           result=audit.verify(dbs))
