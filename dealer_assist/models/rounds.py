"""Rounds as event streams: the round, its append-only events and its stored settlements.

``round_event`` rows are only ever inserted. Each event has a sequence number unique within its
round and an idempotency key unique within its round, so a tablet that retries a request after a
dropped connection cannot record the same action twice.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, Index, String, Text, UniqueConstraint, false
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow


class RoundStatus(StrEnum):
    OPEN = "open"
    SETTLED = "settled"
    VOIDED = "voided"


class Round(SQLModel, table=True):
    """One hand at a table, numbered within its shift. Its content is its events."""

    __tablename__ = "game_round"
    __table_args__ = (
        CheckConstraint(check_in("status", RoundStatus), name="status"),
        UniqueConstraint("shift_id", "number"),
        # one idempotency key starts at most one round per shift (a double-tapped "new round")
        Index("uq_game_round_shift_id_start_key", "shift_id", "start_key", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(foreign_key="game_table.id", index=True, nullable=False)
    shift_id: int = Field(foreign_key="shift.id", index=True, nullable=False)
    number: int = Field(nullable=False)
    status: str = Field(default=RoundStatus.OPEN.value, sa_type=String(10), nullable=False)
    opened_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    #: the round's own rules, written once at its start (JSON: game, the full house-rules
    #: profile as data with its hash, the table limits in force); replay reads only this
    rules: str | None = Field(default=None, sa_type=Text, nullable=True)
    #: the idempotency key of the request that started the round (NULL before revision 0006)
    start_key: str | None = Field(default=None, sa_type=String(64))
    #: the dealer of record, the one tapped in at the table when the round (or poker
    #: hand) started; rounds from before revision 0013: the shift's croupier
    dealer_id: int | None = Field(default=None, foreign_key="user_account.id", index=True)


class RoundEvent(SQLModel, table=True):
    """An append-only fact about a round (deal, fold, correction, void...) or a parlour evening
    (a whole hand, the end): the one event table of every game (revision 0012 moved
    the parlour events here). ``payload`` is JSON text, written once with sorted keys so its
    bytes are stable for hashing later. An event belongs to exactly one stream: a round
    (``round_id``, a house round or a poker hand) or a parlour evening (``game_id``); within
    it, its sequence number and its idempotency key are unique."""

    __tablename__ = "round_event"
    __table_args__ = (
        UniqueConstraint("round_id", "seq"),
        UniqueConstraint("round_id", "idempotency_key"),
        UniqueConstraint("game_id", "seq"),
        UniqueConstraint("game_id", "idempotency_key"),
        CheckConstraint("(round_id IS NULL) <> (game_id IS NULL)", name="one_stream"),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int | None = Field(default=None, foreign_key="game_round.id", nullable=True)
    game_id: int | None = Field(default=None, foreign_key="parlour_game.id", nullable=True)
    seq: int = Field(nullable=False)
    type: str = Field(sa_type=String(40), nullable=False)
    payload: str = Field(sa_type=Text, nullable=False)
    actor_id: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    idempotency_key: str = Field(sa_type=String(64), nullable=False)
    #: when the croupier tapped the step, by the tablet's clock (UTC; None: not
    #: said). ``created_at`` is when the server received it.
    tapped_at: datetime | None = Field(default=None, sa_type=UTCDateTime, nullable=True)
    #: the step waited in the tablet's offline queue before it was sent
    offline: bool = Field(default=False, sa_column_kwargs={"server_default": false()},
                          nullable=False)


class RoundSettlement(SQLModel, table=True):
    """The engine's settlement of a round's events up to ``through_seq`` (JSON), with the engine
    and profile versions that produced it. A correction adds a new row; none is ever updated."""

    __tablename__ = "round_settlement"
    __table_args__ = (UniqueConstraint("round_id", "through_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="game_round.id", index=True, nullable=False)
    through_seq: int = Field(nullable=False)
    settlement: str = Field(sa_type=Text, nullable=False)
    engine_version: str = Field(sa_type=String(40), nullable=False)
    profile: str = Field(sa_type=String(64), nullable=False)
    profile_version: str = Field(sa_type=String(40), nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
