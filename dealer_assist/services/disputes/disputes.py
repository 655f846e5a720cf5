"""Disputes: a player's claim on a settled box, the pit boss's review, and the decisions.

Filing: the croupier, a pit boss or a shift manager files on a box of a *settled* round: what
the player claims (text and an amount), the croupier's note and an optional surveillance
reference (camera and time). The review (:func:`review`) shows the round's events, the
settlement as recorded and the engine's recomputation (the events replayed under the profile
that settled the round, through the live engine's codec ``rules.engine``) with any
difference said in plain words.

Deciding: a pit boss or shift manager upholds (with an adjustment), denies or escalates; a note
is mandatory. Who may decide is the separation-of-duties policy of ``services/people/duties.py``:
not the filer, not who dealt the round; once escalated (or decided by a shift manager), only a
shift manager; an adjustment within the table's limits. Decisions are rows, never edited:
decision n+1 supersedes decision n. An upheld decision writes a :class:`RoundCorrection` (the
shift report adds them up); superseding it writes the reversal, so a round's corrections always
sum to what the latest decision says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from ...models import GameTable, Role, Round, RoundStatus, User, utcnow
from ...models.audit import (
    TEXT_MAX,
    CorrectionSource,
    Dispute,
    DisputeDecision,
    Outcome,
    RoundCorrection,
)
from ...rules.phrase import Phrase
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import duties
from ..rounds import review as replay
from ..rounds import voids

#: who files a dispute and who resolves one: the people who ask for and approve a void
FILERS = voids.REQUESTERS
RESOLVERS = voids.APPROVERS
#: the largest disputed amount (a correction's too)
AMOUNT_MAX = voids.AMOUNT_MAX

ESCALATION = frozenset({Role.SHIFT_MANAGER.value})
OPEN = "open"
STATUSES = (OPEN, *(o.value for o in Outcome))


@dataclass(frozen=True, slots=True)
class DecisionView:
    id: int
    number: int
    outcome: str
    adjustment: int
    note: str
    decided_by: int
    decided_by_name: str
    decided_at: datetime


@dataclass(frozen=True, slots=True)
class DisputeView:
    id: int
    round_id: int
    round_number: int
    table_id: int
    table_name: str
    shift_id: int
    box: str
    claim: str
    claimed_amount: int
    croupier_note: str
    camera: str | None
    camera_time: str | None
    filed_by: int
    filed_by_name: str
    filed_at: datetime
    decisions: tuple[DecisionView, ...] = ()

    @property
    def status(self) -> str:
        return self.decisions[-1].outcome if self.decisions else OPEN

    @property
    def latest(self) -> DecisionView | None:
        return self.decisions[-1] if self.decisions else None

    def age(self, now: datetime | None = None) -> timedelta:
        return (now or utcnow()) - self.filed_at


@dataclass(frozen=True, slots=True)
class Review:
    """Everything the review page shows."""

    dispute: DisputeView
    round: replay.Replayed
    dealt_by: frozenset[int] = field(default_factory=frozenset)


def _text(value: str, label: str, name: str, *, required: bool) -> str:
    value = (value or "").strip()
    if required and not value:
        raise ValidationError("%(label)s is required.", label=label, field=name)
    if len(value) > TEXT_MAX:
        raise ValidationError("%(label)s is at most %(TEXT_MAX)s characters.", label=label,
                              TEXT_MAX=TEXT_MAX, field=name)
    return value


def _amount(value: int, label: str, name: str, *, signed: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValidationError("%(label)s must be a whole number.", label=label, field=name)
    if abs(value) > AMOUNT_MAX or (value < 0 and not signed):
        raise ValidationError("%(label)s is out of range.", label=label, field=name)
    return value


def _user(session: Session, user_id: int, roles: frozenset[str], what: str) -> User:
    user = session.get(User, user_id)
    if user is None or not user.active or user.role not in roles:
        raise PermissionDenied("Your role may not %(what)s.", what=what)
    return user


dealt_by = duties.dealt_by


def file_dispute(session: Session, *, round_id: int, box: str, claim: str, claimed_amount: int,
                 croupier_note: str, actor_id: int, camera: str = "", camera_time: str = "",
                 now: datetime | None = None) -> DisputeView:
    """File a dispute on one box of a settled round."""
    user = _user(session, actor_id, FILERS, "file a dispute")
    rnd = session.get(Round, round_id)
    if rnd is None:
        raise NotFound("No round with id %(round_id)s.", round_id=round_id)
    duties.check_round_act(session, user=user, rnd=rnd)
    if rnd.status != RoundStatus.SETTLED.value:
        raise Conflict("Round %(number)s is %(status)s; only a settled round is disputed.",
                       number=rnd.number, status=rnd.status)
    duties.check_amount(session, table_id=rnd.table_id, amount=_amount(
        claimed_amount, "The amount claimed", "claimed_amount"), field="claimed_amount",
        label="The amount claimed")
    boxes = replay.settled_boxes(session, round_id)
    if box not in boxes:
        raise ValidationError("Box %(v)s did not play round %(number)s.", v=box or '?',
                              number=rnd.number, field="box")
    row = Dispute(round_id=round_id, table_id=rnd.table_id, shift_id=rnd.shift_id, box=box,
                  claim=_text(claim, "What the player claims", "claim", required=True),
                  claimed_amount=_amount(claimed_amount, "The amount claimed", "claimed_amount"),
                  croupier_note=_text(croupier_note, "The croupier's note", "croupier_note",
                                      required=False),
                  camera=_text(camera, "The camera", "camera", required=False)[:40] or None,
                  camera_time=_text(camera_time, "The camera time", "camera_time",
                                    required=False)[:40] or None,
                  filed_by=actor_id, filed_at=now or utcnow())
    session.add(row)
    session.flush()
    assert row.id is not None
    return get(session, row.id)


def decide(session: Session, *, dispute_id: int, outcome: str, note: str, actor_id: int,
           adjustment: int = 0, now: datetime | None = None) -> DisputeView:
    """Record a decision (superseding the previous one, if any)."""
    user = _user(session, actor_id, RESOLVERS, "decide on a dispute")
    current = get(session, dispute_id)
    if outcome not in {o.value for o in Outcome}:
        raise ValidationError("Choose upheld, denied or escalated.", field="outcome")
    note = _text(note, "A note", "note", required=True)
    adjustment = _amount(adjustment, "The adjustment", "adjustment", signed=True)
    if outcome == Outcome.UPHELD and adjustment == 0:
        raise ValidationError("An upheld dispute needs the adjustment to pay (not 0).",
                              field="adjustment")
    if outcome != Outcome.UPHELD:
        adjustment = 0
    if outcome == Outcome.ESCALATED and user.role in ESCALATION:
        raise ValidationError("A shift manager decides the dispute: uphold it or deny it "
                              "(there is nobody to escalate it to).", field="outcome")
    duties.check_dispute_decider(
        session, user=user, round_id=current.round_id, filed_by=current.filed_by,
        previous=[(d.outcome, d.decided_by) for d in current.decisions])
    if adjustment:
        duties.check_amount(session, table_id=current.table_id, amount=adjustment,
                            field="adjustment", label="The adjustment")
    number = len(current.decisions) + 1
    decision = DisputeDecision(dispute_id=dispute_id, number=number, outcome=outcome,
                               adjustment=adjustment, note=note, decided_by=actor_id,
                               decided_at=now or utcnow())
    try:
        with session.begin_nested():
            session.add(decision)
    except IntegrityError:
        raise Conflict("Someone decided on this dispute at the same moment; reload.") from None
    _correct(session, current, decision, now)
    return get(session, dispute_id)


def _correct(session: Session, dispute: DisputeView, decision: DisputeDecision,
             now: datetime | None) -> None:
    """Corrections that make the round's dispute adjustments equal the latest decision's."""
    previous = dispute.latest.adjustment if dispute.latest else 0
    rows = []
    if previous:
        rows.append((-previous, CorrectionSource.REVERSAL,
                     Phrase("Dispute %(id)s: decision %(new)s supersedes decision %(old)s",
                            id=dispute.id, new=decision.number, old=decision.number - 1)))
    if decision.adjustment:
        rows.append((decision.adjustment, CorrectionSource.DISPUTE,
                     Phrase("Dispute %(id)s upheld: %(note)s", id=dispute.id,
                            note=decision.note)))
    for amount, source, reason in rows:
        session.add(RoundCorrection(
            round_id=dispute.round_id, table_id=dispute.table_id, shift_id=dispute.shift_id,
            box=dispute.box, amount=amount, source=source.value, reason=reason[:TEXT_MAX],
            dispute_decision_id=decision.id, approved_by=decision.decided_by,
            created_at=now or utcnow()))
    session.flush()


# --- reading ---------------------------------------------------------------------------------

def _names(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = session.exec(select(User.id, User.display_name).where(col(User.id).in_(ids)))
    names: dict[int, str] = {}
    for i, n in rows:
        assert i is not None  # a stored row's primary key
        names[i] = n
    return names


def _views(session: Session, rows: list[tuple[Dispute, Round, GameTable]]) -> list[DisputeView]:
    ids = [d.id for d, _, _ in rows]
    decisions: dict[int, list[DisputeDecision]] = {}
    if ids:
        query = (select(DisputeDecision).where(col(DisputeDecision.dispute_id).in_(ids))
                 .order_by(col(DisputeDecision.dispute_id), col(DisputeDecision.number)))
        for decision in session.exec(query):
            decisions.setdefault(decision.dispute_id, []).append(decision)
    names = _names(session, {d.filed_by for d, _, _ in rows}
                   | {x.decided_by for ds in decisions.values() for x in ds})
    out = []
    for d, rnd, table in rows:
        assert d.id is not None
        out.append(DisputeView(
            d.id, d.round_id, rnd.number, d.table_id, table.name, d.shift_id, d.box, d.claim,
            d.claimed_amount, d.croupier_note, d.camera, d.camera_time, d.filed_by,
            names.get(d.filed_by, "?"), d.filed_at,
            tuple(DecisionView(x.id or 0, x.number, x.outcome, x.adjustment, x.note,
                               x.decided_by, names.get(x.decided_by, "?"), x.decided_at)
                  for x in decisions.get(d.id, []))))
    return out


def _base() -> Any:
    return (select(Dispute, Round, GameTable)
            .join(Round, col(Round.id) == Dispute.round_id)
            .join(GameTable, col(GameTable.id) == Dispute.table_id))


def get(session: Session, dispute_id: int) -> DisputeView:
    row = session.exec(_base().where(Dispute.id == dispute_id)).first()
    if row is None:
        raise NotFound("No dispute with id %(dispute_id)s.", dispute_id=dispute_id)
    return _views(session, [tuple(row)])[0]


def _filtered(table_id: int | None, shift_id: int | None, status: str | None,
              round_id: int | None) -> Any:
    """The disputes query, filtered by table, shift, round and status (derived from the
    latest decision: ``open`` when there is none)."""
    if status and status not in STATUSES:
        raise ValidationError("Unknown status '%(status)s'.", status=status, field="status")
    query = _base()
    if table_id is not None:
        query = query.where(Dispute.table_id == table_id)
    if shift_id is not None:
        query = query.where(Dispute.shift_id == shift_id)
    if round_id is not None:
        query = query.where(Dispute.round_id == round_id)
    if status:
        latest = (select(DisputeDecision.dispute_id,
                         func.max(DisputeDecision.number).label("n"))
                  .group_by(col(DisputeDecision.dispute_id)).subquery())
        query = query.outerjoin(latest, latest.c.dispute_id == Dispute.id)
        if status == OPEN:
            query = query.where(latest.c.n.is_(None))
        else:
            decided = select(DisputeDecision.dispute_id).where(
                DisputeDecision.dispute_id == latest.c.dispute_id,
                DisputeDecision.number == latest.c.n, DisputeDecision.outcome == status)
            query = query.where(col(Dispute.id).in_(decided.scalar_subquery()))
    return query


def queue(session: Session, *, table_id: int | None = None, shift_id: int | None = None,
          status: str | None = None, round_id: int | None = None,
          limit: int = 500) -> list[DisputeView]:
    """Disputes, oldest first, filtered by table, shift, round and status (derived from the
    latest decision: ``open`` when there is none)."""
    query = _filtered(table_id, shift_id, status, round_id)
    rows = session.exec(query.order_by(col(Dispute.filed_at), col(Dispute.id))
                        .limit(limit)).all()
    return _views(session, [tuple(r) for r in rows])


def count(session: Session, *, status: str) -> int:
    """How many disputes have ``status`` (the header's badge: one COUNT, no rows loaded)."""
    inner = _filtered(None, None, status, None).subquery()
    return int(session.exec(select(func.count()).select_from(inner)).one())


def review(session: Session, dispute_id: int) -> Review:
    dispute = get(session, dispute_id)
    return Review(dispute, replay.replay_round(session, dispute.round_id),
                  dealt_by(session, dispute.round_id))


@dataclass(frozen=True, slots=True)
class CorrectionView:
    id: int
    round_id: int
    round_number: int
    table_id: int
    shift_id: int
    box: str | None
    amount: int
    source: str
    reason: str
    approved_by: int
    approved_by_name: str
    created_at: datetime
    dispute_decision_id: int | None
    request_id: int | None


def corrections(session: Session, *, shift_id: int | None = None, table_id: int | None = None,
                round_id: int | None = None) -> list[CorrectionView]:
    """Money moved after payment (upheld disputes, approved corrections, reversals), oldest
    first. The shift report lists them; their sum changes the shift's win by ``-sum``."""
    query = (select(RoundCorrection, Round.number)
             .join(Round, col(Round.id) == RoundCorrection.round_id))
    if shift_id is not None:
        query = query.where(RoundCorrection.shift_id == shift_id)
    if table_id is not None:
        query = query.where(RoundCorrection.table_id == table_id)
    if round_id is not None:
        query = query.where(RoundCorrection.round_id == round_id)
    rows = session.exec(query.order_by(col(RoundCorrection.id))).all()
    names = _names(session, {c.approved_by for c, _ in rows})
    return [CorrectionView(c.id or 0, c.round_id, number, c.table_id, c.shift_id, c.box,
                           c.amount, c.source, c.reason, c.approved_by,
                           names.get(c.approved_by, "?"), c.created_at, c.dispute_decision_id,
                           c.request_id) for c, number in rows]
