"""Shifts: a table's working session for one gaming date."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, Index, String, text
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow


class ShiftStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class Shift(SQLModel, table=True):
    """A table's working session for one gaming date. At most one open shift per table, enforced
    by a partial unique index as well as by the service."""

    __tablename__ = "shift"
    __table_args__ = (
        CheckConstraint(check_in("status", ShiftStatus), name="status"),
        Index("uq_shift_one_open_per_table", "table_id", unique=True,
              sqlite_where=text("status = 'open'"), postgresql_where=text("status = 'open'")),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    gaming_date: date = Field(nullable=False)
    status: str = Field(default=ShiftStatus.OPEN.value, sa_type=String(10), nullable=False)
    opened_by: int = Field(foreign_key="user_account.id", nullable=False)
    opened_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    closed_by: int | None = Field(default=None, foreign_key="user_account.id")
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
