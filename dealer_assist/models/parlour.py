"""Tables of the parlour board game (issue 16): an evening's game and its hands as events.

A ``parlour_game`` row names the evening (players in their first seating, the first dealer first;
the board it starts with). Its hands are ``parlour_event`` rows, only ever inserted (database
triggers refuse UPDATE and DELETE, like ``round_event``): each ``hand`` event holds the whole hand
as entered, so replaying the events through the engine rebuilds every figure and the board. An
``end`` event closes the game. Both tables are covered by the audit chain (``audit/capture`` records
every flushed row of every mapped table).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, utcnow

#: tables whose rows are never updated or deleted (triggers in migration 0007)
PARLOUR_APPEND_ONLY = ("parlour_game", "parlour_event")


class ParlourGame(SQLModel, table=True):
    """One evening at the parlour board; ``players`` and ``board`` are canonical JSON text."""

    __tablename__ = "parlour_game"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=String(64), nullable=False)
    profile: str = Field(sa_type=String(64), nullable=False)
    variant: str = Field(sa_type=String(20), nullable=False)
    players: str = Field(sa_type=Text, nullable=False)
    board: str = Field(sa_type=Text, nullable=False)
    created_by: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)


class ParlourEvent(SQLModel, table=True):
    """A hand (or the end of the game), numbered within its game, recorded once per key."""

    __tablename__ = "parlour_event"
    __table_args__ = (
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "idempotency_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="parlour_game.id", nullable=False)
    seq: int = Field(nullable=False)
    type: str = Field(sa_type=String(40), nullable=False)
    payload: str = Field(sa_type=Text, nullable=False)
    actor_id: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    idempotency_key: str = Field(sa_type=String(64), nullable=False)
