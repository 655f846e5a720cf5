"""People: individual accounts, their server-side login sessions and the login throttle."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, Index, String, UniqueConstraint
from sqlmodel import Field, SQLModel

from .base import UTCDateTime, check_in, utcnow


class Role(StrEnum):
    CROUPIER = "croupier"
    PIT_BOSS = "pit_boss"
    SHIFT_MANAGER = "shift_manager"
    ADMIN = "admin"
    #: reads rounds, disputes, voids, corrections, the audit log and reports; writes nothing
    AUDITOR = "auditor"
    #: counts the drop boxes (the soft count), independent of the pit
    COUNT_TEAM = "count_team"
    #: the cage issues fill and credit slips
    CAGE_CASHIER = "cage_cashier"


class User(SQLModel, table=True):
    """An individual account; shared logins are not allowed on a casino floor."""

    __tablename__ = "user_account"
    __table_args__ = (CheckConstraint(check_in("role", Role), name="role"),
                      Index("uq_user_account_badge", "badge", unique=True))

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
    #: the PIN (4-8 digits) that authenticates this person for one act (a relief at a
    #: table device, a co-signature), hashed like the password; None: no PIN set yet
    pin_hash: str | None = Field(default=None, sa_type=String(255))
    pin_set_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    #: the number a badge reader types (a keyboard wedge), unique; None: no badge
    badge: str | None = Field(default=None, sa_type=String(40))


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
