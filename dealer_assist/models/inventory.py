"""Table inventory tables: chip counts at the opening and closing of a shift, fills and credits.

Same conventions as every table module (``models/base.py``): money is an integer (BigInteger),
times are aware UTC (:class:`UTCDateTime`), kinds are short strings guarded by CHECK constraints.

Every row names two signers, the croupier and a pit boss (never the same account), and who
recorded it. Rows are only inserted: a shift has at most one opening and one closing count
(unique), fills and credits are a list. The closing count is written in the same transaction
that closes the shift.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow

NOTE_MAX = 500


class CountKind(StrEnum):
    OPENING = "opening"
    CLOSING = "closing"


class TransferKind(StrEnum):
    FILL = "fill"  # chips brought to the table from the cage
    CREDIT = "credit"  # chips taken from the table to the cage


class InventoryCount(SQLModel, table=True):
    """The table's chip inventory counted at the opening or the closing of a shift."""

    __tablename__ = "inventory_count"
    __table_args__ = (
        CheckConstraint(check_in("kind", CountKind), name="kind"),
        CheckConstraint("amount >= 0", name="amount"),
        CheckConstraint("croupier_id <> pit_boss_id", name="two_signers"),
        UniqueConstraint("shift_id", "kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    kind: str = Field(sa_type=String(10), nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    counted_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    croupier_id: int = Field(foreign_key="user_account.id", nullable=False)
    pit_boss_id: int = Field(foreign_key="user_account.id", nullable=False)
    recorded_by: int = Field(foreign_key="user_account.id", nullable=False)
    note: str = Field(default="", sa_type=String(NOTE_MAX), nullable=False)
    #: the count chip by chip, ``{"25": 40, ...}`` (canonical JSON); null for a count entered
    #: as one amount (before chip sets): ``amount`` is always their exact sum
    chips: str | None = Field(default=None, sa_type=Text, nullable=True)


class ChipTransfer(SQLModel, table=True):
    """A fill (chips to the table) or a credit (chips from the table) during a shift."""

    __tablename__ = "chip_transfer"
    __table_args__ = (
        CheckConstraint(check_in("kind", TransferKind), name="kind"),
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint("croupier_id <> pit_boss_id", name="two_signers"),
    )

    id: int | None = Field(default=None, primary_key=True)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    kind: str = Field(sa_type=String(10), nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    croupier_id: int = Field(foreign_key="user_account.id", nullable=False)
    pit_boss_id: int = Field(foreign_key="user_account.id", nullable=False)
    recorded_by: int = Field(foreign_key="user_account.id", nullable=False)
    note: str = Field(default="", sa_type=String(NOTE_MAX), nullable=False)


__all__ = ["ChipTransfer", "CountKind", "InventoryCount", "NOTE_MAX", "TransferKind"]
