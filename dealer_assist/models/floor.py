"""The people of the floor: who deals where, the tablets bound to a table, and every
authenticated signature.

* :class:`DealerStint` -- a dealer's stint at a table during its shift (or a host's at a parlour
  game). Append-only: a stint *starts* with its row and *ends* when the next stint of the same
  table and shift starts (a relief) or when the shift closes; nothing is ever updated, so the
  history of who dealt when is the rows in order. ``kind`` says how it started: ``opening``
  (the croupier who counted the float opens the table), ``relief`` (between rounds, the
  incoming dealer's PIN), ``mid_round`` (during a round, with a pit boss's PIN too:
  ``authorized_by``, and ``round_id`` the round handed over, which keeps its dealer of record),
  ``start`` (nobody was tapped in and the person who started a round dealt it) or ``migrated``
  (revision 0013: the shift's croupier, for shifts from before stints).
* :class:`TableDevice` -- a tablet bound to one table ("table device" mode): the browser holds a
  random token in its own cookie, only its SHA-256 is stored. Revoking sets ``revoked_at``.
  ``heard_at`` is when the server last heard from the tablet (its ping every 3 s or
  any request it made; written at most every few seconds), with the queue figures of its last
  ping (steps and rounds waiting on the tablet, and since when it has been offline).
* :class:`OfflineRefusal` -- a step (or a round's start) the tablet recorded offline
  and the server refused when it was sent (the round was voided meanwhile, the shift closed...):
  the round is left as it was and the refusal kept for the floor and the shift report.
* :class:`ActSignature` -- one person authenticated for one act (a relief, a co-signature of a
  count, a fill or a credit): by PIN on a device or by his own signed-in session. Append-only.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, Index, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow


class StintKind(StrEnum):
    OPENING = "opening"
    RELIEF = "relief"
    MID_ROUND = "mid_round"
    START = "start"
    MIGRATED = "migrated"


class SignMethod(StrEnum):
    PIN = "pin"
    SESSION = "session"


class DealerStint(SQLModel, table=True):
    """A dealer's stint at a table in one shift (``table_id`` and ``shift_id``), or a host's at a
    parlour game (``parlour_game_id``). It ends when the next one of the same place starts."""

    __tablename__ = "dealer_stint"
    __table_args__ = (
        CheckConstraint(check_in("kind", StintKind), name="kind"),
        CheckConstraint("(shift_id IS NOT NULL AND table_id IS NOT NULL "
                        "AND parlour_game_id IS NULL) OR (shift_id IS NULL AND table_id IS NULL "
                        "AND parlour_game_id IS NOT NULL)", name="place"),
        Index("ix_dealer_stint_dealer_id_started_at", "dealer_id", "started_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int | None = Field(default=None, foreign_key="game_table.id", index=True)
    shift_id: int | None = Field(default=None, foreign_key="shift.id", index=True)
    parlour_game_id: int | None = Field(default=None, foreign_key="parlour_game.id", index=True)
    dealer_id: int = Field(foreign_key="user_account.id", nullable=False)
    started_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    kind: str = Field(sa_type=String(12), nullable=False)
    #: mid-round: the pit boss whose PIN allowed the handover
    authorized_by: int | None = Field(default=None, foreign_key="user_account.id")
    #: mid-round: the round (or poker hand) handed over; it keeps its dealer of record
    round_id: int | None = Field(default=None, foreign_key="game_round.id")
    #: the table device the relief was made on (None: a signed-in session)
    device_id: int | None = Field(default=None, foreign_key="table_device.id")


class TableDevice(SQLModel, table=True):
    """A tablet bound to one table: it shows that table's screen and the relief, nothing else."""

    __tablename__ = "table_device"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    token_hash: str = Field(sa_type=String(64), unique=True, nullable=False)
    label: str = Field(sa_type=String(64), nullable=False)
    bound_by: int = Field(foreign_key="user_account.id", nullable=False)
    bound_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    revoked_by: int | None = Field(default=None, foreign_key="user_account.id")
    #: last heard from (any request of the tablet; its ping every 3 s)
    heard_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    #: the last ping's figures: steps and rounds waiting in the tablet's queue
    queued_steps: int = Field(default=0, nullable=False, sa_column_kwargs={"server_default": "0"})
    queued_rounds: int = Field(default=0, nullable=False,
                               sa_column_kwargs={"server_default": "0"})
    #: since when the tablet has been offline, as its last ping said (None: online)
    offline_since: datetime | None = Field(default=None, sa_type=UTCDateTime)


class OfflineRefusal(SQLModel, table=True):
    """A step recorded offline on a table's tablet and refused when it was sent.

    One row per refused idempotency key and table (a resend of the same refused step adds
    none); ``seen_at``/``seen_by``: a pit boss or shift manager marked it seen on the floor."""

    __tablename__ = "offline_refusal"
    __table_args__ = (UniqueConstraint("table_id", "idempotency_key"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int | None = Field(default=None, foreign_key="shift.id", index=True)
    round_id: int | None = Field(default=None, foreign_key="game_round.id")
    #: who sent it (the table's dealer on its device, or the signed-in person)
    actor_id: int | None = Field(default=None, foreign_key="user_account.id")
    device_id: int | None = Field(default=None, foreign_key="table_device.id")
    type: str = Field(sa_type=String(40), nullable=False)
    payload: str = Field(sa_type=Text, nullable=False)
    tapped_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    idempotency_key: str = Field(sa_type=String(64), nullable=False)
    status: int = Field(nullable=False)
    detail: str = Field(sa_type=String(500), nullable=False)
    #: the refusal's sentence as a message id and its values (JSON), said in each reader's
    #: language on the floor and in the report (``detail`` is as the tablet was answered)
    reason: str | None = Field(default=None, sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    seen_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    seen_by: int | None = Field(default=None, foreign_key="user_account.id")


class ActSignature(SQLModel, table=True):
    """One person authenticated for one act (``act`` on ``entity``/``entity_id``)."""

    __tablename__ = "act_signature"
    __table_args__ = (CheckConstraint(check_in("method", SignMethod), name="method"),)

    id: int | None = Field(default=None, primary_key=True)
    act: str = Field(sa_type=String(20), nullable=False)
    user_id: int = Field(foreign_key="user_account.id", index=True, nullable=False)
    method: str = Field(sa_type=String(8), nullable=False)
    entity: str = Field(sa_type=String(40), nullable=False)
    entity_id: str = Field(sa_type=String(40), nullable=False)
    device_id: int | None = Field(default=None, foreign_key="table_device.id")
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


#: tables whose rows are never updated or deleted (triggers in revision 0013)
FLOOR_APPEND_ONLY = ("dealer_stint", "act_signature")

__all__ = ["ActSignature", "DealerStint", "FLOOR_APPEND_ONLY", "OfflineRefusal", "SignMethod",
           "StintKind", "TableDevice"]
