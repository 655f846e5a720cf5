"""Poker tables and their seats: the chips in front of each player between hands.

A poker table is a ``game_table`` row whose game is a player-versus-player game
(``models.POKER_GAMES``), so its shifts and hands are the same ``shift`` and ``game_round`` rows
as the house games; this module adds what a house-game table has not: the poker profile, the
stakes, the button and the seats with their stacks. A hand's own rules (profile, stakes, button,
seats dealt in with their stacks) are written into its round at its start, so the hand replays
from its events whatever happens to the table afterwards.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, CheckConstraint, String, Text
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, utcnow

SEAT_STATUSES = ("playing", "sitting_out", "left")
CHIP_MOVES = ("buy_in", "rebuy", "cash_out")


class PokerTable(SQLModel, table=True):
    """The poker part of a ``game_table``: profile, stakes (JSON), seat count, the button."""

    __tablename__ = "poker_table"
    __table_args__ = (CheckConstraint("seat_count >= 2 AND seat_count <= 6", name="seats"),)

    table_id: int = Field(foreign_key="game_table.id", primary_key=True)
    profile: str = Field(sa_type=String(64), nullable=False)
    stakes: str = Field(sa_type=Text, nullable=False)
    seat_count: int = Field(nullable=False)
    #: the seat label holding the dealer button for the next hand (None before anyone sits)
    button: str | None = Field(default=None, sa_type=String(16), nullable=True)
    #: hands completed at this table (a player seated after the first hand is "new")
    hands_dealt: int = Field(default=0, nullable=False)


class PokerSeat(SQLModel, table=True):
    """A player in a seat: his stack carried hand to hand, chips bought and cashed out."""

    __tablename__ = "poker_seat"
    __table_args__ = (
        CheckConstraint("stack >= 0 AND bought_in >= 0 AND cashed_out >= 0", name="chips"),
        CheckConstraint("status IN ('playing', 'sitting_out', 'left')", name="status"),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    seat: str = Field(sa_type=String(16), nullable=False)
    player: str = Field(sa_type=String(64), nullable=False)
    stack: int = Field(sa_type=BigInteger, nullable=False)
    bought_in: int = Field(sa_type=BigInteger, nullable=False)
    cashed_out: int = Field(default=0, sa_type=BigInteger, nullable=False)
    status: str = Field(default="playing", sa_type=String(12), nullable=False)
    #: draw: the blinds he missed while sitting out, comma-separated (small, big, over) or "new"
    missed: str = Field(default="", sa_type=String(32), nullable=False)
    seated_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    #: when his leave was tapped (None: still seated, or left before revision 0017)
    left_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)


class PokerChipMove(SQLModel, table=True):
    """Chips sold to a player at the table (buy-in, rebuy) or cashed out when he leaves, in the
    shift that was open: the shift report's buy-ins and cash-outs and the tray's reconciliation
    (the tray changes only by the rake and the chips sold at the table)."""

    __tablename__ = "poker_chip_move"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount"),
        CheckConstraint("kind IN ('buy_in', 'rebuy', 'cash_out')", name="kind"),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    seat: str = Field(sa_type=String(16), nullable=False)
    player: str = Field(sa_type=String(64), nullable=False)
    kind: str = Field(sa_type=String(12), nullable=False)
    amount: int = Field(sa_type=BigInteger, nullable=False)
    at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
