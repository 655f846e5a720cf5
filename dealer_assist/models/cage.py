"""The table's money as the cage counts it: buy-ins, numbered slips, the drop box's
soft count and the notes on a hold outside its band.

Same conventions as every table module (``models/base.py``): money is an integer (BigInteger),
times are aware UTC, kinds are short strings guarded by CHECK constraints. Every table here is
append-only (triggers in revision 0015), so a mistake is a new row, never an UPDATE:

* :class:`BuyIn` -- cash exchanged for chips at the table: the cash goes through the slot into
  the drop box, the chips leave the tray. ``round_id`` is the round that was open at that
  moment (the buy-in does not touch it).
* :class:`Slip` -- a numbered fill, credit, opener or closer slip. ``number`` is issued from
  :class:`SlipCounter` under a lock, so it never repeats across tables, devices and restarts.
* :class:`SlipVoid` -- a slip marked VOID with a reason and two signers; the slip stays.
* :class:`DropCount` -- the soft count of one table's drop box for one gaming date.
* :class:`CageIssue` -- a fill or credit the cage issued for a table's open shift (a
  cage cashier, signed in); :class:`CageReceipt` links it to the table's transfer when the pit
  boss and the croupier sign for it (one receipt per issue, one issue per transfer).
* :class:`HoldNote` -- a shift manager's investigation note on a hold outside the band.

:class:`SlipCounter` is the one row that is updated (the last number issued); every update is an
ORM update, so it is in the audit chain too.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow

NOTE_MAX = 500


class SlipKind(StrEnum):
    FILL = "fill"
    CREDIT = "credit"
    OPENER = "opener"
    CLOSER = "closer"


class HoldPeriod(StrEnum):
    DAY = "day"
    MONTH = "month"


class BuyIn(SQLModel, table=True):
    """Cash for chips at the table, recorded by the croupier when it happens."""

    __tablename__ = "buy_in"
    __table_args__ = (CheckConstraint("amount > 0", name="amount"),
                      UniqueConstraint("shift_id", "key"))

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    gaming_date: date = Field(nullable=False, index=True)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    #: the round open at that moment (informative: the round itself is not touched)
    round_id: int | None = Field(default=None, foreign_key="game_round.id")
    seat: str | None = Field(default=None, sa_type=String(8))
    #: the player's card number when he shows one
    player: str | None = Field(default=None, sa_type=String(40))
    recorded_by: int = Field(foreign_key="user_account.id", nullable=False)
    #: the request's idempotency key (one per rendered form): a double tap records once
    key: str | None = Field(default=None, sa_type=String(64))


class SlipCounter(SQLModel, table=True):
    """The last slip number issued (one row): locked, incremented, written in the slip's own
    transaction, so a rolled back slip gives its number back and no number is issued twice."""

    __tablename__ = "slip_counter"

    id: int | None = Field(default=None, primary_key=True)
    last: int = Field(default=0, sa_type=BigInteger, nullable=False)


class Slip(SQLModel, table=True):
    """A numbered slip: what the cage and the table both keep a copy of."""

    __tablename__ = "slip"
    __table_args__ = (
        CheckConstraint(check_in("kind", SlipKind), name="kind"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("croupier_id <> pit_boss_id", name="two_signers"),
        UniqueConstraint("number"),
    )

    id: int | None = Field(default=None, primary_key=True)
    number: int = Field(sa_type=BigInteger, nullable=False)
    kind: str = Field(sa_type=String(10), nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    game: str = Field(sa_type=String(20), nullable=False)
    gaming_date: date = Field(nullable=False)
    issued_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    #: by denomination, canonical JSON ``{"25": 40, ...}``; null when entered as one amount
    chips: str | None = Field(default=None, sa_type=Text, nullable=True)
    croupier_id: int = Field(foreign_key="user_account.id", nullable=False)
    pit_boss_id: int = Field(foreign_key="user_account.id", nullable=False)
    transfer_id: int | None = Field(default=None, foreign_key="chip_transfer.id")
    count_id: int | None = Field(default=None, foreign_key="inventory_count.id")


class SlipVoid(SQLModel, table=True):
    """A slip marked VOID: who asked (his session), who signed with him (his PIN), why."""

    __tablename__ = "slip_void"
    __table_args__ = (
        CheckConstraint("requested_by <> signed_by", name="two_signers"),
        UniqueConstraint("slip_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    slip_id: int = Field(foreign_key="slip.id", nullable=False)
    reason: str = Field(sa_type=String(NOTE_MAX), nullable=False)
    requested_by: int = Field(foreign_key="user_account.id", nullable=False)
    signed_by: int = Field(foreign_key="user_account.id", nullable=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class CageIssue(SQLModel, table=True):
    """A fill or credit the cage issued: the cashier's half of the slip."""

    __tablename__ = "cage_issue"
    __table_args__ = (
        CheckConstraint("kind IN ('fill', 'credit')", name="kind"),
        CheckConstraint("amount > 0", name="amount"),
    )

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(sa_type=String(10), nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    issued_by: int = Field(foreign_key="user_account.id", nullable=False)
    issued_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    note: str = Field(default="", sa_type=String(NOTE_MAX), nullable=False)


class CageReceipt(SQLModel, table=True):
    """The table signed for a cage issue: its transfer (and so its numbered slip)."""

    __tablename__ = "cage_receipt"
    __table_args__ = (UniqueConstraint("issue_id"), UniqueConstraint("transfer_id"))

    id: int | None = Field(default=None, primary_key=True)
    issue_id: int = Field(foreign_key="cage_issue.id", nullable=False)
    transfer_id: int = Field(foreign_key="chip_transfer.id", nullable=False)


class DropCount(SQLModel, table=True):
    """The soft count: the cash of one table's drop box for one gaming date, counted by two."""

    __tablename__ = "drop_count"
    __table_args__ = (
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("counter_a <> counter_b", name="two_counters"),
        UniqueConstraint("table_id", "gaming_date"),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    gaming_date: date = Field(nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    #: the cash by denomination, canonical JSON ``{"5000": 3, ...}``
    cash: str = Field(sa_type=Text, nullable=False)
    #: the buy-ins recorded at the table for that day, as they stood when counted
    recorded: int = Field(sa_type=BigInteger, nullable=False)
    counted_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    counter_a: int = Field(foreign_key="user_account.id", nullable=False)
    counter_b: int = Field(foreign_key="user_account.id", nullable=False)
    recorded_by: int = Field(foreign_key="user_account.id", nullable=False)
    note: str = Field(default="", sa_type=String(NOTE_MAX), nullable=False)


class HoldNote(SQLModel, table=True):
    """A shift manager's investigation note on a table's hold for a day or a month."""

    __tablename__ = "hold_note"
    __table_args__ = (CheckConstraint(check_in("period", HoldPeriod), name="period"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    period: str = Field(sa_type=String(6), nullable=False)
    #: the gaming date (a day) or the first day of the month
    starts: date = Field(nullable=False)
    note: str = Field(sa_type=String(NOTE_MAX), nullable=False)
    written_by: int = Field(foreign_key="user_account.id", nullable=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


#: tables whose rows are never updated or deleted (triggers in revision 0015)
CAGE_APPEND_ONLY = ("buy_in", "slip", "slip_void", "drop_count", "hold_note", "cage_issue",
                    "cage_receipt")

__all__ = ["BuyIn", "CAGE_APPEND_ONLY", "CageIssue", "CageReceipt", "DropCount", "HoldNote",
           "HoldPeriod", "NOTE_MAX", "Slip", "SlipCounter", "SlipKind", "SlipVoid"]
