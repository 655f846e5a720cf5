"""Individual accounts: create, list, disable/enable, reset and change passwords.

An administrator never chooses someone else's password: creating an account or resetting a
password returns a one-time password, shown once, which must be changed at first login.
Disabling an account or resetting its password revokes its login sessions at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, func, select

from ...models import Role, User, utcnow
from ...rules.phrase import Phrase
from ..errors import AuthenticationFailed, Conflict, NotFound, ValidationError
from . import auth, passwords

USERNAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{1,31}$")
#: message ids (the users page said "Croupier" on the Russian screen)
ROLE_TITLES = {
    Role.CROUPIER: Phrase("Croupier"),
    Role.PIT_BOSS: Phrase("Pit boss"),
    Role.SHIFT_MANAGER: Phrase("Shift manager"),
    Role.ADMIN: Phrase("Administrator"),
    Role.AUDITOR: Phrase("Auditor (read-only)"),
    Role.COUNT_TEAM: Phrase("Count team (soft count)"),
    Role.CAGE_CASHIER: Phrase("Cage cashier"),
}


@dataclass(frozen=True, slots=True)
class UserView:
    id: int
    username: str
    display_name: str
    role: str
    active: bool
    must_change_password: bool
    created_at: datetime
    #: the badge number, and whether a PIN is set (never the PIN)
    badge: str | None = None
    has_pin: bool = False

    @property
    def role_title(self) -> str:
        return ROLE_TITLES.get(Role(self.role), self.role)


@dataclass(frozen=True, slots=True)
class NewPassword:
    """A user and the one-time password to hand over (shown once, never stored in clear)."""

    user: UserView
    one_time_password: str


def view(user: User) -> UserView:
    assert user.id is not None
    return UserView(user.id, user.username, user.display_name, user.role, user.active,
                    user.must_change_password, user.created_at, user.badge,
                    user.pin_hash is not None)


#: the roles that take tables and co-sign counts: they need a PIN
PIN_ROLES = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})


def needs_pin(session: Session, user_id: int) -> bool:
    """A person who deals or co-signs and has no PIN yet."""
    user = session.get(User, user_id)
    return user is not None and user.role in PIN_ROLES and user.pin_hash is None


def normalize_username(username: str) -> str:
    return username.strip().lower()


def create_user(session: Session, *, username: str, display_name: str, role: str) -> NewPassword:
    """Create an account with a one-time password; the user must change it at first login."""
    username = normalize_username(username)
    if not USERNAME_RE.match(username):
        raise ValidationError("A username is 2 to 32 characters: letters, digits, '.', '_' or '-',"
                              " starting with a letter or digit.", field="username")
    display_name = " ".join(display_name.split()) or username
    if len(display_name) > 100:
        raise ValidationError("The display name is too long (100 characters at most).",
                              field="display_name")
    if role not in set(Role):
        raise ValidationError("Unknown role '%(role)s'.", role=role, field="role")
    if session.exec(select(User).where(User.username == username)).first() is not None:
        raise Conflict("The username '%(username)s' is already taken.", username=username,
                       field="username")
    otp = passwords.one_time_password()
    user = User(username=username, display_name=display_name, role=role,
                password_hash=passwords.hash_password(otp), must_change_password=True)
    session.add(user)
    session.flush()
    return NewPassword(view(user), otp)


def _load(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("No user with id %(user_id)s.", user_id=user_id)
    return user


def get_user(session: Session, user_id: int) -> UserView:
    return view(_load(session, user_id))


def list_users(session: Session) -> list[UserView]:
    users = session.exec(select(User).order_by(User.active.desc(), User.username)).all()  # type: ignore[attr-defined]
    return [view(u) for u in users]


def admin_exists(session: Session) -> bool:
    query = select(func.count()).select_from(User).where(
        User.role == Role.ADMIN.value, User.active == True)  # noqa: E712
    return session.exec(query).one() > 0


def _other_active_admins(session: Session, user_id: int) -> int:
    query = select(func.count()).select_from(User).where(
        User.role == Role.ADMIN.value, User.active == True, User.id != user_id)  # noqa: E712
    return session.exec(query).one()


def set_active(session: Session, user_id: int, active: bool, *, actor_id: int) -> UserView:
    """Disable (revoking every session at once) or re-enable an account. Nobody can disable
    themselves, and the last active administrator cannot be disabled."""
    user = _load(session, user_id)
    if not active:
        if user_id == actor_id:
            raise Conflict("You cannot disable your own account.")
        last_admin = user.role == Role.ADMIN.value and _other_active_admins(session, user_id) == 0
        if user.active and last_admin:
            raise Conflict("This is the last active administrator; it cannot be disabled.")
        auth.revoke_user_sessions(session, user_id)
    user.active = active
    session.flush()
    return view(user)


def reset_password(session: Session, user_id: int) -> NewPassword:
    """A new one-time password; the old one stops working and the user's sessions end."""
    user = _load(session, user_id)
    otp = passwords.one_time_password()
    user.password_hash = passwords.hash_password(otp)
    user.must_change_password = True
    user.password_changed_at = utcnow()
    auth.revoke_user_sessions(session, user_id)
    session.flush()
    return NewPassword(view(user), otp)


def change_password(session: Session, user_id: int, *, current: str, new: str, min_length: int,
                    keep_session_id: int | None = None) -> UserView:
    """The user's own change: the current password is checked again, other sessions end."""
    user = _load(session, user_id)
    if not passwords.verify_password(user.password_hash, current):
        raise AuthenticationFailed("The current password is wrong.", field="current_password")
    passwords.check_policy(new, username=user.username, min_length=min_length,
                           context=tuple(user.display_name.split()))
    if passwords.verify_password(user.password_hash, new):
        raise ValidationError("The new password must differ from the current one.",
                              field="new_password")
    user.password_hash = passwords.hash_password(new)
    user.must_change_password = False
    user.password_changed_at = utcnow()
    auth.revoke_user_sessions(session, user_id, except_id=keep_session_id)
    session.flush()
    return view(user)


def set_language(session: Session, user_id: int, language: str | None, *,
                 only_if_unset: bool = False) -> bool:
    """The profile's language (the header switch); None hands the choice back to the browser.
    ``only_if_unset`` keeps a language the profile already has; True when it changed."""
    user = _load(session, user_id)
    if only_if_unset and user.language:
        return False
    user.language = language
    session.flush()
    return True
