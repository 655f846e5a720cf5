"""Live tables: the game, the house-rules profile and the limits (integers) of each table."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, String
from sqlmodel import Field, SQLModel

from ..rules.games.registry import POKER, games
from .base import UTCDateTime, utcnow

#: player-versus-player games a table may run (their tables are ``models.poker``), as the
#: registry (``rules.games.registry``) lists them
POKER_GAMES = tuple(spec.name for spec in games(POKER))
#: the shape of a game's name; which names a table may hold is the registry's (revision 0020)
GAME_NAME_CHECK = "length(game) > 0 AND game = lower(trim(game))"


def _money() -> Any:
    return Field(sa_type=BigInteger, nullable=False)


class GameTable(SQLModel, table=True):
    """A live table: which game, which house-rules profile, and its limits (integers)."""

    __tablename__ = "game_table"
    __table_args__ = (
        CheckConstraint(GAME_NAME_CHECK, name="game"),
        CheckConstraint("min_ante > 0 AND max_ante >= min_ante", name="ante_limits"),
        CheckConstraint("max_payout > 0", name="max_payout"),
        CheckConstraint("boxes >= 1", name="boxes"),
        CheckConstraint("rotation_minutes > 0", name="rotation_minutes"),
        CheckConstraint("strategy IN ('basic', 'best')", name="strategy"),
    )

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(sa_type=String(64), unique=True, nullable=False)
    game: str = Field(sa_type=String(20), nullable=False)
    profile: str = Field(sa_type=String(64), nullable=False)
    min_ante: int = _money()
    max_ante: int = _money()
    max_payout: int = _money()
    boxes: int = Field(nullable=False)
    active: bool = Field(default=True, nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    #: the chip set the table's float is counted in (``services.tables.chips.CHIP_SETS``)
    chip_set: str = Field(default="standard", sa_type=String(40), nullable=False,
                          sa_column_kwargs={"server_default": "standard"})
    #: ISO 4217 code of the table's currency unit; None: the configuration's DEFAULT_CURRENCY
    currency: str | None = Field(default=None, sa_type=String(3))
    #: the pit the table belongs to (the floor page shows a pit's tables); None: none
    pit: str | None = Field(default=None, sa_type=String(40))
    #: minutes a dealer deals here before the floor page flags him for a relief
    rotation_minutes: int = Field(default=40, nullable=False,
                                  sa_column_kwargs={"server_default": "40"})
    #: the players' strategy the table's theoretical hold assumes: ``basic`` or ``best``
    #: (the lab's figure of that strategy for the table's profile)
    strategy: str = Field(default="basic", sa_type=String(8), nullable=False,
                          sa_column_kwargs={"server_default": "basic"})
