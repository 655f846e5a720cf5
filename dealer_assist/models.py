"""The database tables (SQLModel). Schema changes go through Alembic (``dealer_assist/migrations``).

Conventions: money columns are integers (BigInteger) in the table's currency unit; every time is
a timezone-aware UTC ``datetime`` (:class:`UTCDateTime`); enumerations are short strings guarded by
CHECK constraints; constraint names follow :data:`NAMING` so migrations can refer to them.

Rounds are event streams: ``round_event`` rows are only ever inserted. Each event has a sequence
number unique within its round and an idempotency key unique within its round, so a tablet that
retries a request after a dropped connection cannot record the same action twice.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    DateTime,
    Dialect,
    Index,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    text,
)
from sqlmodel import Field, SQLModel

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING


class Role(StrEnum):
    CROUPIER = "croupier"
    PIT_BOSS = "pit_boss"
    SHIFT_MANAGER = "shift_manager"
    ADMIN = "admin"
    #: reads rounds, disputes, voids, corrections, the audit log and reports; writes nothing
    AUDITOR = "auditor"


class Game(StrEnum):
    RUSSIAN = "russian"
    CARIBBEAN = "caribbean"
    OASIS = "oasis"
    SPLIT = "split"


#: player-versus-player games a table may run (issue 15; their tables are ``models_poker``)
POKER_GAMES = ("americana", "draw32")


class ShiftStatus(StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class RoundStatus(StrEnum):
    OPEN = "open"
    SETTLED = "settled"
    VOIDED = "voided"


def utcnow() -> datetime:
    return datetime.now(UTC)


def _in(column: str, values: type[StrEnum]) -> str:
    return f"{column} IN ({', '.join(repr(v.value) for v in values)})"


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in and out. PostgreSQL stores ``timestamptz``; SQLite has no zones, so
    the value is stored as naive UTC and given its zone back on the way out. A naive datetime is a
    bug (whose clock?) and is refused."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime for a UTC column; use dealer_assist.models.utcnow")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _money() -> Any:
    return Field(sa_type=BigInteger, nullable=False)


class User(SQLModel, table=True):
    """An individual account; shared logins are not allowed on a casino floor."""

    __tablename__ = "user_account"
    __table_args__ = (CheckConstraint(_in("role", Role), name="role"),)

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_type=String(64), unique=True, nullable=False)
    display_name: str = Field(sa_type=String(100), nullable=False)
    role: str = Field(sa_type=String(20), nullable=False)
    password_hash: str = Field(sa_type=String(255), nullable=False)
    active: bool = Field(default=True, nullable=False)
    must_change_password: bool = Field(default=True, nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    password_changed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    #: the language the pages speak to this person (``i18n.LANGUAGES``); None: the browser's
    language: str | None = Field(default=None, sa_type=String(8))


class AuthSession(SQLModel, table=True):
    """A server-side login session. The browser cookie holds a random token; only its SHA-256 is
    stored. Logout and disabling an account set ``revoked_at``; idle time is ``last_seen_at``."""

    __tablename__ = "auth_session"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_type=String(64), unique=True, nullable=False)
    user_id: int = Field(foreign_key="user_account.id", index=True, nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    revoked_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    ip: str | None = Field(default=None, sa_type=String(64))


class LoginThrottle(SQLModel, table=True):
    """Failed logins per username and client address, kept in the database so a restart does not
    reset the lock."""

    __tablename__ = "login_throttle"
    __table_args__ = (UniqueConstraint("username", "ip"),)

    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(sa_type=String(64), nullable=False)
    ip: str = Field(sa_type=String(64), nullable=False)
    failures: int = Field(default=0, nullable=False)
    locked_until: datetime | None = Field(default=None, sa_type=UTCDateTime)
    last_failure_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class GameTable(SQLModel, table=True):
    """A live table: which game, which house-rules profile, and its limits (integers)."""

    __tablename__ = "game_table"
    __table_args__ = (
        CheckConstraint(_in("game", Game)[:-1] + ", " + ", ".join(repr(g) for g in POKER_GAMES)
                        + ")", name="game"),
        CheckConstraint("min_ante > 0 AND max_ante >= min_ante", name="ante_limits"),
        CheckConstraint("max_payout > 0", name="max_payout"),
        CheckConstraint("boxes >= 1", name="boxes"),
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
    #: the chip set the table's float is counted in (``services.chips.CHIP_SETS``)
    chip_set: str = Field(default="standard", sa_type=String(40), nullable=False,
                          sa_column_kwargs={"server_default": "standard"})
    #: ISO 4217 code of the table's currency unit; None: the configuration's DEFAULT_CURRENCY
    currency: str | None = Field(default=None, sa_type=String(3))


class Shift(SQLModel, table=True):
    """A table's working session for one gaming date. At most one open shift per table, enforced
    by a partial unique index as well as by the service."""

    __tablename__ = "shift"
    __table_args__ = (
        CheckConstraint(_in("status", ShiftStatus), name="status"),
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


class Round(SQLModel, table=True):
    """One hand at a table, numbered within its shift. Its content is its events."""

    __tablename__ = "game_round"
    __table_args__ = (
        CheckConstraint(_in("status", RoundStatus), name="status"),
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


class RoundEvent(SQLModel, table=True):
    """An append-only fact about a round (deal, fold, correction, void...). ``payload`` is JSON
    text, written once with sorted keys so its bytes are stable for hashing later."""

    __tablename__ = "round_event"
    __table_args__ = (
        UniqueConstraint("round_id", "seq"),
        UniqueConstraint("round_id", "idempotency_key"),
    )

    id: int | None = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="game_round.id", nullable=False)
    seq: int = Field(nullable=False)
    type: str = Field(sa_type=String(40), nullable=False)
    payload: str = Field(sa_type=Text, nullable=False)
    actor_id: int = Field(foreign_key="user_account.id", nullable=False)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCDateTime, nullable=False)
    idempotency_key: str = Field(sa_type=String(64), nullable=False)


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


__all__ = [
    "AuthSession", "Game", "GameTable", "LoginThrottle", "Role", "Round", "RoundEvent",
    "RoundSettlement", "RoundStatus", "Shift", "ShiftStatus", "User", "UTCDateTime", "utcnow",
]

# the other table modules join the same metadata (inventory: issue 7; audit, disputes: issue 6)
from . import models_audit, models_inventory  # noqa: E402,F401

# isort: split
from . import models_parlour  # noqa: E402,F401  (the parlour board game: issue 16)

# isort: split
from . import models_poker  # noqa: E402,F401  (poker tables and seats: issue 15)
