"""The parlour board game's evening: the ``parlour_game`` row.

A ``parlour_game`` row names the evening (players in their first seating, the first dealer first;
the board it starts with). Its hands are events of the one event table, ``round_event`` rows
with its ``game_id`` (revision 0012 moved them from ``parlour_event``), only ever
inserted: each ``hand`` event holds the whole hand, so replaying the events through the engine
rebuilds every figure and the board. An ``end`` event closes the game. Both tables are covered
by the audit chain (``audit/capture`` records every flushed row of every mapped table).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, String, Text
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, utcnow

#: tables whose rows are never updated or deleted (triggers in migration 0007)
PARLOUR_APPEND_ONLY = ("parlour_game",)


class ParlourGame(SQLModel, table=True):
    """One evening at the parlour board; ``players`` and ``board`` are canonical JSON text."""

    __tablename__ = "parlour_game"
    #: a host's idempotency key creates one evening (revision 0021)
    __table_args__ = (
        Index("uq_parlour_game_created_by_start_key", "created_by", "start_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=String(64), nullable=False)
    profile: str = Field(sa_type=String(64), nullable=False)
    variant: str = Field(sa_type=String(20), nullable=False)
    players: str = Field(sa_type=Text, nullable=False)
    board: str = Field(sa_type=Text, nullable=False)
    created_by: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    #: the creating request's idempotency key (None: created before revision 0021)
    start_key: str | None = Field(default=None, sa_type=String(64))
