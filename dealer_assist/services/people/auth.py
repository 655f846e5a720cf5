"""Login with throttling, and server-side login sessions.

Throttling is per (username, client address) and lives in the database, so a restart does not
reset it: after ``max_failures`` failures the pair is locked for ``base_seconds``, doubling with
each further failure up to ``max_seconds``. While locked, no password is even checked. A
successful login clears the record.

The browser's session cookie carries only a random token; the ``auth_session`` row (keyed by the
token's SHA-256) says whose it is, when it was last used and whether it was revoked. So logout,
disabling an account and the idle timeout all take effect on the server, whatever the cookie.

:func:`login` records a failed attempt before raising: the caller must commit even on
:class:`AuthenticationFailed` (the web view does), or the attempt would not count.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam
from sqlalchemy import select as core_select
from sqlmodel import Session, col, func, select, update

from ...models import AuthSession, LoginThrottle, User, utcnow
from ..errors import AuthenticationFailed, Throttled
from . import passwords

#: how often ``last_seen_at`` is written (a write per request would serialise every tablet)
TOUCH_EVERY = timedelta(seconds=60)
WRONG = "Wrong username or password."


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    """Per (username, address) as before, and (ASVS 2.2.1) per address across every username
    and per username across every address, counted over the last ``max_seconds``."""

    max_failures: int = 5
    base_seconds: int = 30
    max_seconds: int = 15 * 60
    max_per_ip: int = 20
    max_per_user: int = 10
    otp_lifetime: timedelta | None = None

    def lock_for(self, failures: int, limit: int | None = None) -> timedelta | None:
        limit = self.max_failures if limit is None else limit
        if failures < limit:
            return None
        doubling = min(failures - limit, 20)
        return timedelta(seconds=min(self.base_seconds * 2 ** doubling, self.max_seconds))


@dataclass(frozen=True, slots=True)
class Login:
    """A successful login: the cookie token (keep secret) and who it is."""

    token: str
    session_id: int
    user_id: int
    must_change_password: bool


@dataclass(frozen=True, slots=True)
class ActiveSession:
    session_id: int
    user_id: int
    username: str
    display_name: str
    role: str
    must_change_password: bool
    needs_touch: bool
    #: the profile's language (``i18n.LANGUAGES``), None when the browser decides
    language: str | None = None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _throttle(session: Session, username: str, ip: str) -> LoginThrottle | None:
    query = select(LoginThrottle).where(LoginThrottle.username == username,
                                        LoginThrottle.ip == ip)
    return session.exec(query).first()


def login(session: Session, *, username: str, password: str, ip: str,
          policy: ThrottlePolicy = ThrottlePolicy(), now: datetime | None = None) -> Login:
    """Check the password (unless throttled) and open a login session."""
    now = now or utcnow()
    username = username.strip().lower()[:64]
    ip = (ip or "unknown")[:64]
    record = check_throttle(session, username, ip, policy, now)
    user = session.exec(select(User).where(User.username == username)).first()
    if user is None:
        passwords.burn_time(password)
        ok = False
    else:
        ok = passwords.verify_password(user.password_hash, password)
    if not ok or user is None:
        _record_failure(session, record, username, ip, policy, now)
        raise AuthenticationFailed(WRONG)
    if not user.active:
        raise AuthenticationFailed("This account is disabled. Ask a shift manager.")
    if otp_expired(user, policy.otp_lifetime, now):
        raise AuthenticationFailed("This one-time password has expired. Ask an administrator "
                                   "for a new one.")
    if record is not None:
        session.delete(record)
    if passwords.needs_rehash(user.password_hash):
        user.password_hash = passwords.hash_password(password)
    assert user.id is not None
    return _open_session(session, user, ip, now)


def otp_expired(user: User, lifetime: timedelta | None, now: datetime) -> bool:
    """A one-time password (``must_change_password``) works for ``lifetime`` after it was set."""
    if lifetime is None or not user.must_change_password:
        return False
    return now - (user.password_changed_at or user.created_at) > lifetime


def check_throttle(session: Session, username: str, ip: str, policy: ThrottlePolicy,
                   now: datetime) -> LoginThrottle | None:
    """Raise :class:`Throttled` while the pair, the address or the username is locked; return
    the pair's record (None if it has no failures)."""
    record = _throttle(session, username, ip)
    until = record.locked_until if record is not None else None
    since = now - timedelta(seconds=policy.max_seconds)
    for column, value, limit in ((LoginThrottle.ip, ip, policy.max_per_ip),
                                 (LoginThrottle.username, username, policy.max_per_user)):
        total, newest = session.exec(
            select(func.coalesce(func.sum(LoginThrottle.failures), 0),
                   func.max(LoginThrottle.last_failure_at))
            .where(column == value, col(LoginThrottle.last_failure_at) > since)).one()
        lock = policy.lock_for(int(total), limit)
        if lock is not None and newest is not None:
            newest = newest if newest.tzinfo else newest.replace(tzinfo=UTC)
            until = max(until or newest + lock, newest + lock)
    if until is not None and until > now:
        wait = int((until - now).total_seconds()) + 1
        raise Throttled(f"Too many failed attempts. Try again in {wait} seconds.",
                        retry_after=wait)
    return record


def record_failure(session: Session, username: str, ip: str, policy: ThrottlePolicy,
                   now: datetime | None = None) -> None:
    """Count a failed password check (a login, or the current password on ``/password``)."""
    now = now or utcnow()
    username, ip = username.strip().lower()[:64], (ip or "unknown")[:64]
    _record_failure(session, _throttle(session, username, ip), username, ip, policy, now)


def _record_failure(session: Session, record: LoginThrottle | None, username: str, ip: str,
                    policy: ThrottlePolicy, now: datetime) -> None:
    if record is None:
        record = LoginThrottle(username=username, ip=ip, failures=0)
        session.add(record)
    record.failures += 1
    record.last_failure_at = now
    lock = policy.lock_for(record.failures)
    record.locked_until = now + lock if lock else None
    session.flush()


def _open_session(session: Session, user: User, ip: str, now: datetime) -> Login:
    assert user.id is not None
    token = secrets.token_urlsafe(32)
    row = AuthSession(token_hash=_hash(token), user_id=user.id, created_at=now, last_seen_at=now,
                      ip=ip)
    session.add(row)
    session.flush()
    assert row.id is not None
    return Login(token, row.id, user.id, user.must_change_password)


def _expired(row: Any, now: datetime, idle_timeout: timedelta,
             lifetime: timedelta | None) -> bool:
    """Idle too long, or (ASVS 3.3.4) older than the absolute lifetime however busy."""
    return now - row.last_seen_at > idle_timeout or (
        lifetime is not None and now - row.created_at > lifetime)


#: the login session and its account in one statement, built once (a request reads
#: who is asking in one round trip; ``TOUCH_EVERY`` keeps it a read)
_SESSIONS = AuthSession.__table__  # type: ignore[attr-defined]
_USERS = User.__table__  # type: ignore[attr-defined]
_RESOLVE = (core_select(_SESSIONS.c.id, _SESSIONS.c.user_id, _SESSIONS.c.created_at,
                        _SESSIONS.c.last_seen_at, _SESSIONS.c.revoked_at, _USERS.c.username,
                        _USERS.c.display_name, _USERS.c.role, _USERS.c.active,
                        _USERS.c.must_change_password, _USERS.c.language)
            .select_from(_SESSIONS.join(_USERS, _USERS.c.id == _SESSIONS.c.user_id))
            .where(_SESSIONS.c.token_hash == bindparam("token_hash")))


def resolve(session: Session | Connection, token: str, *, idle_timeout: timedelta,
            lifetime: timedelta | None = None,
            now: datetime | None = None) -> ActiveSession | None:
    """Who holds this token, or None if it is unknown, revoked, idle too long, older than the
    absolute ``lifetime`` or the account is disabled. Read-only: the caller calls
    :func:`touch` when ``needs_touch`` and :func:`revoke` for an expired session. ``session``
    may be a Core connection (every request asks, and a Session costs more than the
    read itself)."""
    conn = session if isinstance(session, Connection) else session.connection()
    now = now or utcnow()
    row = conn.execute(_RESOLVE, {"token_hash": _hash(token)}).first()
    if row is None or row.revoked_at is not None or not row.active \
            or _expired(row, now, idle_timeout, lifetime):
        return None
    return ActiveSession(row.id, row.user_id, row.username, row.display_name, row.role,
                         row.must_change_password, now - row.last_seen_at >= TOUCH_EVERY,
                         row.language)


def is_idle(session: Session, token: str, *, idle_timeout: timedelta,
            lifetime: timedelta | None = None, now: datetime | None = None) -> bool:
    """True when the token names a live session that has expired (idle too long or past its
    absolute lifetime), to say why the user has to log in again."""
    now = now or utcnow()
    row = session.exec(select(AuthSession).where(AuthSession.token_hash == _hash(token))).first()
    return row is not None and row.revoked_at is None and _expired(row, now, idle_timeout,
                                                                   lifetime)


def touch(session: Session, session_id: int, now: datetime | None = None) -> None:
    session.exec(update(AuthSession).where(col(AuthSession.id) == session_id)
                 .values(last_seen_at=now or utcnow()))


def revoke(session: Session, token: str, now: datetime | None = None) -> None:
    session.exec(update(AuthSession)
                 .where(col(AuthSession.token_hash) == _hash(token),
                        col(AuthSession.revoked_at).is_(None))
                 .values(revoked_at=now or utcnow()))


def revoke_user_sessions(session: Session, user_id: int, *, except_id: int | None = None,
                         now: datetime | None = None) -> None:
    query = update(AuthSession).where(col(AuthSession.user_id) == user_id,
                                      col(AuthSession.revoked_at).is_(None))
    if except_id is not None:
        query = query.where(col(AuthSession.id) != except_id)
    session.exec(query.values(revoked_at=now or utcnow()))
