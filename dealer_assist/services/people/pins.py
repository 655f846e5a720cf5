"""PINs and badges: how one person proves who he is for one act.

A PIN is 4 to 8 digits, set by its owner at a full sign-in (with his password), stored hashed
like a password (Argon2id, :mod:`.passwords`). It authenticates one person for one act -- a
relief at a table device, a co-signature -- and opens no session of its own.

Guessing is throttled like the login (:mod:`.auth`, the same ``login_throttle`` rows under the
key ``pin:<user id>``): per account on one device, per account across devices and per device
across accounts, counted over the lock window; while locked no PIN is even checked. A failed
check records its failure before raising, so the caller must commit even on
:class:`AuthenticationFailed` (the web views do), and check the PIN before writing anything
else. A correct PIN clears the account's record on that device.

A badge reader is a keyboard wedge: it types the badge number and Enter into whatever field has
the focus, so :func:`find_person` takes a badge number, a username or a display name in the same
field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, col, func, select

from ...models import User, utcnow
from ..errors import AuthenticationFailed, NotFound, Throttled, ValidationError
from . import auth, passwords

PIN_RE = re.compile(r"^[0-9]{4,8}$")
BADGE_RE = re.compile(r"^[0-9A-Za-z-]{3,40}$")
KEY_PREFIX = "pin:"


@dataclass(frozen=True, slots=True)
class PinPolicy:
    """Failures allowed per (account, device), per account and per device, and the lock."""

    max_failures: int = 5
    per_account: int = 10
    per_device: int = 20
    base_seconds: int = 30
    max_seconds: int = 15 * 60

    def throttle(self) -> auth.ThrottlePolicy:
        return auth.ThrottlePolicy(self.max_failures, self.base_seconds, self.max_seconds,
                                   max_per_ip=self.per_device, max_per_user=self.per_account)


DEFAULT_POLICY = PinPolicy()


def _weak(pin: str) -> bool:
    """One digit repeated, or a run up or down (1234, 9876): the first PINs anyone tries."""
    steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
    return len(set(pin)) == 1 or steps in ({1}, {-1})


def check_new_pin(pin: str, field: str = "pin") -> str:
    pin = (pin or "").strip()
    if not PIN_RE.match(pin):
        raise ValidationError("A PIN is 4 to 8 digits.", field=field)
    if _weak(pin):
        raise ValidationError("This PIN is too easy to guess (one digit repeated, or digits in a "
                              "row). Choose another.", field=field)
    return pin


def set_pin(session: Session, user_id: int, *, password: str, pin: str, confirm: str,
            now: datetime | None = None) -> None:
    """Set (or change) one's own PIN, proving it with one's password."""
    user = session.get(User, user_id)
    if user is None or not user.active:
        raise NotFound("No active account with id %(user_id)s.", user_id=user_id)
    pin = check_new_pin(pin)
    if pin != (confirm or "").strip():
        raise ValidationError("The two PINs differ.", field="confirm_pin")
    if not passwords.verify_password(user.password_hash, password or ""):
        raise AuthenticationFailed("Your password is not right.")
    user.pin_hash = passwords.hash_password(pin)
    user.pin_set_at = now or utcnow()
    session.add(user)
    session.flush()


def set_badge(session: Session, user_id: int, badge: str | None) -> None:
    """An administrator records (or clears) the number on a person's badge."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("No account with id %(user_id)s.", user_id=user_id)
    badge = (badge or "").strip() or None
    if badge is not None:
        if not BADGE_RE.match(badge):
            raise ValidationError("A badge number is 3 to 40 letters, digits or dashes.",
                                  field="badge")
        other = session.exec(select(User.id).where(User.badge == badge,
                                                   User.id != user_id)).first()
        if other is not None:
            raise ValidationError("Badge %(badge)s belongs to someone else.", badge=badge,
                                  field="badge")
    user.badge = badge
    session.add(user)
    session.flush()


def find_person(session: Session, who: str, *, field: str = "dealer") -> User:
    """The active account named by a badge number, a user id, a username or a display name
    (what a badge reader or a tap on a name puts in the field)."""
    who = (who or "").strip()
    if not who or len(who) > 100:
        raise ValidationError("Tap your name or scan your badge.", field=field)
    query = select(User).where(User.active == True)  # noqa: E712
    found = session.exec(query.where(User.badge == who)).first()
    if found is None and who.isdigit() and len(who) <= 9:
        found = session.exec(query.where(User.id == int(who))).first()
    if found is None:
        found = session.exec(query.where(func.lower(User.username) == who.lower())).first()
    if found is None:
        named = session.exec(query.where(func.lower(User.display_name) == who.lower())
                             .order_by(col(User.id))).all()
        found = named[0] if len(named) == 1 else None
    if found is None:
        raise ValidationError("Nobody on the floor has the name or badge %(who)s.", who=who,
                              field=field)
    return found


def _key(user: User) -> str:
    return f"{KEY_PREFIX}{user.id}"


def verify_pin(session: Session, *, user: User, pin: str | None, device: str,
               field: str = "pin", policy: PinPolicy = DEFAULT_POLICY,
               now: datetime | None = None) -> None:
    """Check ``user``'s PIN typed on ``device`` (a table device's key, else the client address);
    throttled. A wrong PIN records a failure, then raises: the caller commits."""
    now = now or utcnow()
    device = (device or "unknown")[:64]
    pin = (pin or "").strip()
    if not pin:
        raise ValidationError("%(name)s: enter your PIN.", name=user.display_name, field=field)
    if user.pin_hash is None:
        raise ValidationError("%(name)s has no PIN yet: set one after signing in "
                              "(the name menu, PIN).", name=user.display_name, field=field)
    throttle = policy.throttle()
    try:
        record = auth.check_throttle(session, _key(user), device, throttle, now)
    except Throttled as err:
        raise Throttled("Too many wrong PINs for %(name)s. Try again in %(wait)s seconds.",
                        name=user.display_name, wait=err.retry_after,
                        retry_after=err.retry_after, field=field) from None
    if not PIN_RE.match(pin) or not passwords.verify_password(user.pin_hash, pin):
        auth.record_failure(session, _key(user), device, throttle, now)
        raise AuthenticationFailed("Wrong PIN for %(name)s.", name=user.display_name,
                                   field=field)
    if record is not None:
        session.delete(record)
        session.flush()


def lock_remaining(session: Session, user: User, device: str,
                   policy: PinPolicy = DEFAULT_POLICY, now: datetime | None = None) -> int:
    """Seconds until ``user`` may try a PIN on ``device`` again (0: now)."""
    try:
        auth.check_throttle(session, _key(user), (device or "unknown")[:64], policy.throttle(),
                            now or utcnow())
    except Throttled as err:
        return err.retry_after
    return 0


__all__ = ["DEFAULT_POLICY", "PinPolicy", "check_new_pin", "find_person", "lock_remaining",
           "set_badge", "set_pin", "verify_pin"]
