"""Rated players: a player card and the taps of a rated player at a table.

A player card is a card number and, optionally, a name: no other personal data. Only pit and
management roles see names (``services.players.cards``); the croupier sees the card number. A
visit is a rated player's sit-down at a table and his leave when it is tapped: the rating's time
played runs from sit-down to leave when both are recorded (``services.players.ratings``).
What he played is in the rounds themselves: ``place`` names each box's player.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, String
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, utcnow

#: a card number: 1 to 20 upper-case letters, digits or dashes (``rules.games.stud.players``)
CARD_MAX = 20
NAME_MAX = 100


class PlayerCard(SQLModel, table=True):
    """A rated player: his card number and, optionally, his name."""

    __tablename__ = "player_card"

    id: int | None = Field(default=None, primary_key=True)
    card: str = Field(sa_type=String(CARD_MAX), unique=True, nullable=False)
    name: str | None = Field(default=None, sa_type=String(NAME_MAX), nullable=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    created_by: int = Field(foreign_key="user_account.id", nullable=False)


class PlayerVisit(SQLModel, table=True):
    """A rated player sat down at a table (and left, once tapped)."""

    __tablename__ = "player_visit"
    __table_args__ = (CheckConstraint("left_at IS NULL OR left_at >= sat_at", name="times"),)

    id: int | None = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="player_card.id", index=True, nullable=False)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    sat_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    sat_by: int = Field(foreign_key="user_account.id", nullable=False)
    left_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    left_by: int | None = Field(default=None, foreign_key="user_account.id", nullable=True)
