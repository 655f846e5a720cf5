"""The cage issues fills and credits; the table signs for them.

Every table-games MICS (Nevada, New Jersey, Maryland) has fill and credit slips issued by the
cage, not written by the pit: RULES.md, "People at the table": "fill and credit slips are issued
by the cage and signed at the table by the dealer and the pit". So a fill or credit is two acts
by two authenticated sides who can never be the same person (different roles):

1. :func:`issue` -- a cage cashier, signed in, issues a fill or credit of an amount for a
   table's open shift (his session is his signature, ``act_signature`` on the ``cage_issue``).
2. ``shifts.inventory.record_transfer(issue_id=...)`` -- at the table the pit boss (his session)
   and the croupier (his PIN) sign for that issue: the transfer takes the issue's kind and
   amount (chips counted by denomination must add up to it), gets its numbered slip, and a
   ``cage_receipt`` row ties the two. An issue is signed for once.

An issue the table never signed for counts nowhere (the table's win reads the transfers); the
shift's inventory page lists it as waiting.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import GameTable, Role, Shift, ShiftStatus, User, utcnow
from ...models.cage import NOTE_MAX, CageIssue, CageReceipt
from ...rules.phrase import Phrase
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import cosign

ISSUERS = frozenset({Role.CAGE_CASHIER.value})
KINDS = ("fill", "credit")
#: larger than any table's chip float (as ``shifts.inventory.MAX_AMOUNT``)
MAX_AMOUNT = 10**12


@dataclass(frozen=True, slots=True)
class IssueView:
    id: int
    kind: str
    table_id: int
    table: str
    shift_id: int
    amount: int
    issued_by: str
    issued_at: datetime
    note: str
    #: the transfer the table signed for it; None: waiting for the table
    transfer_id: int | None = None


def issue(session: Session, *, kind: str, table_id: int, amount: int, actor_id: int,
          note: str = "", now: datetime | None = None) -> IssueView:
    """The cage issues a fill or credit of ``amount`` for ``table_id``'s open shift."""
    now = now or utcnow()
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in ISSUERS:
        raise PermissionDenied("Only a cage cashier issues a fill or credit slip.")
    if kind not in KINDS:
        raise ValidationError("A transfer is a fill or a credit.", field="kind")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT:
        raise ValidationError("The amount must be between %(low)s and %(MAX_AMOUNT)s.", low=1,
                              MAX_AMOUNT=format(MAX_AMOUNT, ","), field="amount")
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationError("A note is at most %(NOTE_MAX)s characters.", NOTE_MAX=NOTE_MAX,
                              field="note")
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    shift_id = session.exec(select(Shift.id).where(Shift.table_id == table_id,
                                                   Shift.status == ShiftStatus.OPEN.value)
                            ).first()
    if shift_id is None:
        raise Conflict("%(table)s has no open shift: a fill or credit goes to an open table.",
                       table=table.name)
    row = CageIssue(kind=kind, table_id=table_id, shift_id=shift_id, amount=amount,
                    issued_by=actor_id, issued_at=now, note=note)
    session.add(row)
    session.flush()
    assert row.id is not None and actor.id is not None
    cosign.record(session, cosign.Signature(actor.id, actor.display_name, actor.role, kind,
                                            "session"),
                  entity="cage_issue", entity_id=row.id, now=now)
    return _views(session, [row])[0]


def receive(session: Session, *, issue_id: int, shift_id: int, kind: str | None,
            amount: int | None) -> CageIssue:
    """The issue the table is signing for: of this shift, not yet signed for, and (when the
    table says them) of the same kind and amount. Checked before anything is written."""
    row = session.get(CageIssue, issue_id)
    if row is None or row.shift_id != shift_id:
        raise ValidationError("Choose a fill or credit the cage issued for this shift.",
                              field="issue_id")
    if session.exec(select(CageReceipt.id).where(CageReceipt.issue_id == issue_id)).first():
        raise Conflict("The table has already signed for this fill or credit.")
    if kind is not None and kind != row.kind:
        raise ValidationError("The cage issued a %(issued)s, not a %(kind)s.",
                              issued=Phrase(row.kind), kind=Phrase(kind), field="kind")
    if amount is not None and amount != row.amount:
        raise ValidationError("The cage issued %(issued)s, not %(amount)s: count the chips "
                              "again or ask the cage.", issued=format(row.amount, ","),
                              amount=format(amount, ","), field="amount")
    return row


def link(session: Session, issue_id: int, transfer_id: int) -> None:
    """Tie the issue to the transfer the table signed (same transaction)."""
    try:
        with session.begin_nested():
            session.add(CageReceipt(issue_id=issue_id, transfer_id=transfer_id))
    except IntegrityError:
        raise Conflict("The table has already signed for this fill or credit.") from None


def _views(session: Session, rows: list[CageIssue]) -> list[IssueView]:
    if not rows:
        return []
    ids = [r.id for r in rows]
    received = dict(session.exec(select(CageReceipt.issue_id, CageReceipt.transfer_id)
                                 .where(col(CageReceipt.issue_id).in_(ids))).all())
    tables = {t.id: t.name for t in session.exec(select(GameTable).where(
        col(GameTable.id).in_({r.table_id for r in rows}))).all()}
    people = {u.id: u.display_name for u in session.exec(select(User).where(
        col(User.id).in_({r.issued_by for r in rows}))).all()}
    return [IssueView(r.id or 0, r.kind, r.table_id, tables.get(r.table_id, "?"), r.shift_id,
                      r.amount, people.get(r.issued_by, "?"), r.issued_at, r.note,
                      received.get(r.id or 0)) for r in rows]


def of_shift(session: Session, shift_id: int, *, waiting: bool = False) -> list[IssueView]:
    """The shift's issues, oldest first (``waiting``: only those the table has not signed)."""
    rows = list(session.exec(select(CageIssue).where(CageIssue.shift_id == shift_id)
                             .order_by(col(CageIssue.id))).all())
    found = _views(session, rows)
    return [v for v in found if v.transfer_id is None] if waiting else found


def recent(session: Session, limit: int = 50) -> list[IssueView]:
    """The cage's latest issues, newest first (the cage's page)."""
    rows = list(session.exec(select(CageIssue).order_by(col(CageIssue.id).desc())
                             .limit(limit)).all())
    return _views(session, rows)


def issuer_of_transfers(session: Session, transfer_ids: list[int]) -> dict[int, str]:
    """transfer id -> the name of the cashier who issued it (the slip's cage signature)."""
    if not transfer_ids:
        return {}
    query = (select(CageReceipt.transfer_id, User.display_name)
             .join(CageIssue, col(CageIssue.id) == CageReceipt.issue_id)
             .join(User, col(User.id) == CageIssue.issued_by)
             .where(col(CageReceipt.transfer_id).in_(transfer_ids)))
    return {t: name for t, name in session.exec(query).all()}


def open_tables(session: Session) -> list[tuple[int, str]]:
    """(id, name) of the tables with an open shift, by name: where the cage can send chips."""
    query = (select(GameTable.id, GameTable.name)
             .join(Shift, col(Shift.table_id) == GameTable.id)
             .where(Shift.status == ShiftStatus.OPEN.value).order_by(col(GameTable.name)))
    return [(i, n) for i, n in session.exec(query).all() if i is not None]
