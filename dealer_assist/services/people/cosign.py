"""Two people means two authentications: one reusable way to sign an act.

RULES.md, "People at the table": "Two-person acts (opening and closing counts, fills, credits, a
poker float) are signed by two people, each authenticated; a name picked from a list is not a
signature". Every such act calls :func:`authenticate` once per signer, *before* it writes
anything, and :func:`record` once per signer after its own row exists:

* **who** -- the signer's account id (picked from a list or found by badge: that only names him);
* **which act** -- a short name (``opening_count``, ``fill``, ``relief``...), stored with the
  signature, so a PIN typed for one act is never taken for another;
* **how** -- a :class:`Credential`: the PIN he typed on this device, or his own signed-in
  session (the request is his: ``signed_in`` is his id).

A missing PIN is a :class:`ValidationError` naming the field; a wrong one an
:class:`AuthenticationFailed` after the failure is recorded (throttled per account and device,
:mod:`.pins`): the caller commits the failure and stores nothing else. The drop box's soft count
 signs its two counters with the same two calls.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session

from ...models import ActSignature, SignMethod, User, utcnow
from ..errors import ValidationError
from . import pins

ACT_MAX = 20


@dataclass(frozen=True, slots=True)
class Credential:
    """What the request carries for one signer: a typed PIN, and who is signed in on it.

    ``device_id`` is the table device the request came from (None: a signed-in browser);
    ``origin`` the client's address, the throttle's key off a table device."""

    pin: str | None = None
    signed_in: int | None = None
    device_id: int | None = None
    origin: str = "unknown"

    @property
    def device_key(self) -> str:
        """The throttle's per-device key."""
        return f"device:{self.device_id}" if self.device_id is not None else f"ip:{self.origin}"


#: a credential with nothing in it (a call that forgot to ask): refused for every signer
NONE = Credential()


@dataclass(frozen=True, slots=True)
class Signature:
    """One person authenticated for one act."""

    user_id: int
    name: str
    role: str
    act: str
    method: str
    device_id: int | None = None


def authenticate(session: Session, *, user_id: int, act: str, credential: Credential | None,
                 field: str, roles: Collection[str] | None = None,
                 policy: pins.PinPolicy = pins.DEFAULT_POLICY,
                 now: datetime | None = None) -> Signature:
    """Prove that ``user_id`` signs ``act``: his own session, or his PIN (checked, throttled).

    ``roles``: the roles that may sign this part of the act (else the field is refused)."""
    if not act or len(act) > ACT_MAX:
        raise ValueError(f"an act is 1 to {ACT_MAX} characters: {act!r}")
    credential = credential or NONE
    user = session.get(User, user_id)
    if user is None or not user.active or (roles is not None and user.role not in roles):
        raise ValidationError("Choose an active person who may sign this.", field=field)
    assert user.id is not None
    if credential.signed_in == user.id:
        return Signature(user.id, user.display_name, user.role, act, SignMethod.SESSION.value,
                         credential.device_id)
    pins.verify_pin(session, user=user, pin=credential.pin, device=credential.device_key,
                    field=field, policy=policy, now=now)
    return Signature(user.id, user.display_name, user.role, act, SignMethod.PIN.value,
                     credential.device_id)


def record(session: Session, signature: Signature, *, entity: str, entity_id: int | str,
           now: datetime | None = None) -> None:
    """Store the signature beside the act's row (``entity``/``entity_id``): append-only,
    audited."""
    session.add(ActSignature(act=signature.act, user_id=signature.user_id,
                             method=signature.method, entity=entity[:40],
                             entity_id=str(entity_id)[:40], device_id=signature.device_id,
                             at=now or utcnow()))
    session.flush()

