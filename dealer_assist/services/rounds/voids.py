"""Voids and after-payment corrections: asked for by one person, approved by another.

A void (redeal, misdeal: the round does not count) or a correction of a paid round (an amount
paid or taken wrongly) starts as a :class:`RoundChangeRequest` with a mandatory reason. A pit boss
or shift manager who is neither the requester nor who dealt the round
(``services/people/duties.py``) approves or rejects it with a
:class:`RoundChangeDecision` (one per request). Only an approval changes anything: the round's
status becomes ``voided``, or a :class:`RoundCorrection` is written for the shift report.
Requests and decisions are rows that are never edited.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import GameTable, Role, Round, RoundStatus, User, utcnow
from ...models.audit import (
    TEXT_MAX,
    ChangeKind,
    CorrectionSource,
    RoundChangeDecision,
    RoundChangeRequest,
    RoundCorrection,
)
from ...rules.games.registry import get_game
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import duties
from . import review as round_review

#: who asks for a void or a correction (the same people file a dispute: ``disputes.FILERS``)
REQUESTERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: who approves one (the same people resolve a dispute: ``disputes.RESOLVERS``)
APPROVERS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: the largest correction, as a disputed amount (``disputes.AMOUNT_MAX``)
AMOUNT_MAX = 10**15
PENDING, APPROVED, REJECTED = "pending", "approved", "rejected"
STATUSES = (PENDING, APPROVED, REJECTED)


@dataclass(frozen=True, slots=True)
class ChangeView:
    id: int
    round_id: int
    round_number: int
    table_id: int
    shift_id: int
    kind: str
    box: str | None
    amount: int
    reason: str
    requested_by: int
    requested_by_name: str
    requested_at: datetime
    approved: bool | None = None
    note: str = ""
    decided_by: int | None = None
    decided_by_name: str | None = None
    decided_at: datetime | None = None

    @property
    def status(self) -> str:
        return PENDING if self.approved is None else APPROVED if self.approved else REJECTED


def _actor(session: Session, actor_id: int, roles: frozenset[str], what: str) -> User:
    user = session.get(User, actor_id)
    if user is None or not user.active or user.role not in roles:
        raise PermissionDenied("Your role may not %(what)s.", what=what)
    return user


def _reason(text: str, label: str, name: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ValidationError("%(label)s is required.", label=label, field=name)
    if len(text) > TEXT_MAX:
        raise ValidationError("%(label)s is at most %(TEXT_MAX)s characters.", label=label,
                              TEXT_MAX=TEXT_MAX, field=name)
    return text


def request_change(session: Session, *, round_id: int, kind: str, reason: str, actor_id: int,
                   box: str | None = None, amount: int = 0,
                   now: datetime | None = None) -> ChangeView:
    """Ask for a void (any round not yet voided) or a correction (a settled round)."""
    user = _actor(session, actor_id, REQUESTERS, "ask for a void or a correction")
    if kind not in {k.value for k in ChangeKind}:
        raise ValidationError("Choose a void or a correction.", field="kind")
    rnd = session.get(Round, round_id)
    if rnd is None:
        raise NotFound("No round with id %(round_id)s.", round_id=round_id)
    duties.check_round_act(session, user=user, rnd=rnd)
    if rnd.status == RoundStatus.VOIDED.value:
        raise Conflict("Round %(number)s is already voided.", number=rnd.number)
    reason = _reason(reason, "A reason", "reason")
    if kind == ChangeKind.VOID:
        duties.check_shift_open(session, rnd.shift_id, "voiding one of its rounds")
        _poker_void(session, rnd)
    box = (box or "").strip() or None
    if kind == ChangeKind.CORRECTION:
        if rnd.status != RoundStatus.SETTLED.value:
            raise Conflict("Round %(number)s is not paid yet; correct it at the table.",
                           number=rnd.number)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0 \
                or abs(amount) > AMOUNT_MAX:
            raise ValidationError("A correction needs a whole, non-zero amount.", field="amount")
        duties.check_amount(session, table_id=rnd.table_id, amount=amount, field="amount",
                            label="The correction")
        if box is not None and box not in round_review.settled_boxes(session, round_id):
            raise ValidationError("Box %(box)s did not play round %(number)s.", box=box,
                                  number=rnd.number, field="box")
    else:
        amount = 0
    if any(c.status == PENDING and c.kind == kind for c in changes(session, round_id=round_id)):
        raise Conflict("A %(kind)s of round %(number)s is already waiting for approval.",
                       kind=kind, number=rnd.number)
    row = RoundChangeRequest(round_id=round_id, table_id=rnd.table_id, shift_id=rnd.shift_id,
                             kind=kind, box=box, amount=amount, reason=reason,
                             requested_by=actor_id, requested_at=now or utcnow())
    session.add(row)
    session.flush()
    assert row.id is not None
    return get_change(session, row.id)


def _poker_void(session: Session, rnd: Round) -> None:
    """A poker hand is voided while it is dealt (a misdeal: the chips in the pot go
    back, the stacks are those before the hand, the button stays). A finished hand's pots were
    pushed and its stacks carried into the next hands: it is disputed or corrected instead."""
    table = session.get(GameTable, rnd.table_id)
    if table is not None and get_game(table.game).poker_room \
            and rnd.status != RoundStatus.OPEN.value:
        raise Conflict("Hand %(number)s is finished and its pots were pushed; file a "
                       "dispute on the award or ask for a correction instead of a void.",
                       number=rnd.number)


def decide_change(session: Session, *, request_id: int, approve: bool, note: str,
                  actor_id: int, now: datetime | None = None) -> ChangeView:
    """Approve or reject a request; the approver is never the requester."""
    user = _actor(session, actor_id, APPROVERS, "approve voids and corrections")
    request = get_change(session, request_id)
    if request.status != PENDING:
        raise Conflict("This request was already %(status)s.", status=request.status)
    duties.check_change_approver(session, user=user, round_id=request.round_id,
                                 requested_by=request.requested_by)
    if approve and request.kind == ChangeKind.VOID:
        duties.check_shift_open(session, request.shift_id, "voiding one of its rounds")
    note = (note or "").strip()
    if not approve:
        note = _reason(note, "A note saying why", "note")
    if len(note) > TEXT_MAX:
        raise ValidationError("The note is at most %(TEXT_MAX)s characters.",
                              TEXT_MAX=TEXT_MAX, field="note")
    rnd = session.exec(select(Round).where(Round.id == request.round_id)
                       .with_for_update()).one()
    if approve and rnd.status == RoundStatus.VOIDED.value:
        raise Conflict("Round %(number)s is already voided.", number=rnd.number)
    decision = RoundChangeDecision(request_id=request_id, approved=approve, note=note,
                                   decided_by=actor_id, decided_at=now or utcnow())
    try:
        with session.begin_nested():
            session.add(decision)
    except IntegrityError:
        raise Conflict("Someone decided on this request at the same moment; reload.") from None
    if approve and request.kind == ChangeKind.VOID:
        rnd.status = RoundStatus.VOIDED.value
        session.add(rnd)
    elif approve:
        session.add(RoundCorrection(
            round_id=request.round_id, table_id=request.table_id, shift_id=request.shift_id,
            box=request.box, amount=request.amount, source=CorrectionSource.CORRECTION.value,
            reason=request.reason, request_id=request_id, approved_by=actor_id,
            created_at=now or utcnow()))
    session.flush()
    return get_change(session, request_id)


def changes(session: Session, *, kind: str | None = None, status: str | None = None,
            table_id: int | None = None, shift_id: int | None = None,
            round_id: int | None = None, limit: int = 500) -> list[ChangeView]:
    """Requests with their decisions, oldest first."""
    if status and status not in STATUSES:
        raise ValidationError("Unknown status '%(status)s'.", status=status, field="status")
    query = (select(RoundChangeRequest, RoundChangeDecision, Round.number)
             .join(Round, col(Round.id) == RoundChangeRequest.round_id)
             .outerjoin(RoundChangeDecision,
                        col(RoundChangeDecision.request_id) == RoundChangeRequest.id))
    for column, value in ((RoundChangeRequest.kind, kind),
                          (RoundChangeRequest.table_id, table_id),
                          (RoundChangeRequest.shift_id, shift_id),
                          (RoundChangeRequest.round_id, round_id)):
        if value is not None:
            query = query.where(column == value)
    if status == PENDING:
        query = query.where(col(RoundChangeDecision.id).is_(None))
    elif status:
        query = query.where(RoundChangeDecision.approved == (status == APPROVED))
    rows = session.exec(query.order_by(col(RoundChangeRequest.id)).limit(limit)).all()
    ids = {r.requested_by for r, _, _ in rows} | {d.decided_by for _, d, _ in rows if d}
    names = dict(session.exec(select(User.id, User.display_name)
                              .where(col(User.id).in_(ids or {0}))).all())
    return [ChangeView(r.id or 0, r.round_id, number, r.table_id, r.shift_id, r.kind, r.box,
                       r.amount, r.reason, r.requested_by, names.get(r.requested_by, "?"),
                       r.requested_at, d.approved if d else None, d.note if d else "",
                       d.decided_by if d else None,
                       names.get(d.decided_by, "?") if d else None,
                       d.decided_at if d else None) for r, d, number in rows]


def get_change(session: Session, request_id: int) -> ChangeView:
    row = session.get(RoundChangeRequest, request_id)
    if row is None:
        raise NotFound("No request with id %(request_id)s.", request_id=request_id)
    return next(c for c in changes(session, round_id=row.round_id) if c.id == request_id)
