"""Audit, disputes, voids and corrections. (``models/__init__`` imports it.)

Every table here is append-only: rows are inserted and never updated or deleted (database
triggers refuse it, see the Alembic revision ``0003``). A later decision supersedes an earlier
one with a row of its own; a status is derived from the newest row, never stored and rewritten.

* :class:`AuditEntry` -- the hash-chained audit log (``dealer_assist/audit/``). ``seq`` is the
  primary key and the position in the chain (1, 2, 3, ... with no gaps).
* :class:`Dispute` and :class:`DisputeDecision` -- a player's claim on a settled box and the pit
  boss's decisions on it (upheld with an adjustment, denied, escalated).
* :class:`RoundChangeRequest` and :class:`RoundChangeDecision` -- a void (redeal, misdeal) or an
  after-payment correction asked for by one person and approved (or rejected) by a pit boss who
  is not the requester.
* :class:`RoundCorrection` -- money moved after a round was paid (an upheld dispute, an approved
  correction, or the reversal of a superseded decision): what the shift report adds up.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, SmallInteger, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow

TEXT_MAX = 1000


class Outcome(StrEnum):
    UPHELD = "upheld"
    DENIED = "denied"
    ESCALATED = "escalated"


class ChangeKind(StrEnum):
    VOID = "void"
    CORRECTION = "correction"


class CorrectionSource(StrEnum):
    DISPUTE = "dispute"
    CORRECTION = "correction"
    REVERSAL = "reversal"


class AuditEntry(SQLModel, table=True):
    """One state change. ``hash`` = SHA-256 (chain 1) or HMAC-SHA-256 with the instance key
    (chain 2) of ``prev_hash`` + the canonical JSON of the other fields."""

    __tablename__ = "audit_entry"

    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    at: datetime = Field(sa_type=UTCDateTime, nullable=False)
    actor_id: int | None = Field(default=None)
    actor: str = Field(sa_type=String(64), nullable=False)
    role: str = Field(sa_type=String(20), nullable=False)
    table_id: int | None = Field(default=None, index=True)
    action: str = Field(sa_type=String(40), nullable=False)
    entity: str = Field(sa_type=String(40), nullable=False)
    entity_id: str | None = Field(default=None, sa_type=String(40))
    payload: str = Field(sa_type=Text, nullable=False)
    prev_hash: str = Field(sa_type=String(64), nullable=False)
    hash: str = Field(sa_type=String(64), nullable=False, unique=True)
    #: 1: unkeyed SHA-256 (before revision 0005); 2: HMAC-SHA-256 keyed with the instance secret
    chain: int = Field(default=1, sa_type=SmallInteger, nullable=False,
                       sa_column_kwargs={"server_default": "1"})


class Dispute(SQLModel, table=True):
    """A player's claim on one settled box, filed by the croupier or a pit boss."""

    __tablename__ = "dispute"
    __table_args__ = (CheckConstraint("claimed_amount >= 0", name="claimed_amount"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="game_round.id", index=True, nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    box: str = Field(sa_type=String(8), nullable=False)
    claim: str = Field(sa_type=String(TEXT_MAX), nullable=False)
    claimed_amount: int = Field(sa_type=BigInteger, nullable=False)
    croupier_note: str = Field(default="", sa_type=String(TEXT_MAX), nullable=False)
    camera: str | None = Field(default=None, sa_type=String(40))
    camera_time: str | None = Field(default=None, sa_type=String(40))
    filed_by: int = Field(foreign_key="user_account.id", nullable=False)
    filed_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class DisputeDecision(SQLModel, table=True):
    """A decision on a dispute; decision ``number`` n+1 supersedes decision n."""

    __tablename__ = "dispute_decision"
    __table_args__ = (
        CheckConstraint(check_in("outcome", Outcome), name="outcome"),
        CheckConstraint("outcome = 'upheld' OR adjustment = 0", name="adjustment"),
        UniqueConstraint("dispute_id", "number"),
    )

    id: int | None = Field(default=None, primary_key=True)
    dispute_id: int = Field(foreign_key="dispute.id", index=True, nullable=False)
    number: int = Field(nullable=False)
    outcome: str = Field(sa_type=String(10), nullable=False)
    adjustment: int = Field(default=0, sa_type=BigInteger, nullable=False)
    note: str = Field(sa_type=String(TEXT_MAX), nullable=False)
    decided_by: int = Field(foreign_key="user_account.id", nullable=False)
    decided_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class RoundChangeRequest(SQLModel, table=True):
    """A request to void a round or to correct a paid one; nothing changes until approved."""

    __tablename__ = "round_change_request"
    __table_args__ = (
        CheckConstraint(check_in("kind", ChangeKind), name="kind"),
        CheckConstraint("kind = 'correction' OR amount = 0", name="amount"),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="game_round.id", index=True, nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    kind: str = Field(sa_type=String(12), nullable=False)
    box: str | None = Field(default=None, sa_type=String(8))
    amount: int = Field(default=0, sa_type=BigInteger, nullable=False)
    reason: str = Field(sa_type=String(TEXT_MAX), nullable=False)
    requested_by: int = Field(foreign_key="user_account.id", nullable=False)
    requested_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class RoundChangeDecision(SQLModel, table=True):
    """A pit boss's approval or rejection of a change request (one per request)."""

    __tablename__ = "round_change_decision"

    id: int | None = Field(default=None, primary_key=True)
    request_id: int = Field(foreign_key="round_change_request.id", unique=True, nullable=False)
    approved: bool = Field(nullable=False)
    note: str = Field(default="", sa_type=String(TEXT_MAX), nullable=False)
    decided_by: int = Field(foreign_key="user_account.id", nullable=False)
    decided_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class RoundCorrection(SQLModel, table=True):
    """Money moved after payment. ``amount`` is from the player's side, like a settlement's
    ``net``: positive means the house paid the player that much more."""

    __tablename__ = "round_correction"
    __table_args__ = (CheckConstraint(check_in("source", CorrectionSource), name="source"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="game_round.id", index=True, nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    box: str | None = Field(default=None, sa_type=String(8))
    amount: int = Field(sa_type=BigInteger, nullable=False)
    source: str = Field(sa_type=String(12), nullable=False)
    reason: str = Field(sa_type=String(TEXT_MAX), nullable=False)
    dispute_decision_id: int | None = Field(default=None, foreign_key="dispute_decision.id")
    request_id: int | None = Field(default=None, foreign_key="round_change_request.id")
    approved_by: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


#: tables whose rows are never updated or deleted (triggers in revision 0003)
APPEND_ONLY = ("audit_entry", "round_event", "dispute", "dispute_decision",
               "round_change_request", "round_change_decision", "round_correction")

__all__ = ["APPEND_ONLY", "AuditEntry", "ChangeKind", "CorrectionSource", "Dispute",
           "DisputeDecision", "Outcome", "RoundChangeDecision", "RoundChangeRequest",
           "RoundCorrection", "TEXT_MAX"]
