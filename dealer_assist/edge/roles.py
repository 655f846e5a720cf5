"""Who may reach a view: every view declares it, and access is denied by default.

``@role_required("admin")`` (or several roles), ``@any_role`` for every signed-in account, or
``@public``. The decorator stores the set on the view as ``view.roles``; :func:`declared_roles`
reads it so a test can walk ``app.url_map`` and prove that no route was forgotten. An
undeclared route is refused (403). JSON API views declare theirs the same way, never by their
blueprint. The request hook of :mod:`.guard` checks the declaration before the view runs and
says so on ``g``; the decorator checks it only when the hook did not (a view called some other
way is still guarded), so a request's roles are checked once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, TypeVar

from flask import Flask, current_app, g, request

from ..models import Role
from . import device
from .refusals import forbidden, to_login
from .status import is_api

if TYPE_CHECKING:
    from .sessions import CurrentUser

F = TypeVar("F", bound=Callable[..., Any])

PUBLIC = "public"
PUBLIC_ROLES = frozenset({PUBLIC})
ALL_ROLES = frozenset(r.value for r in Role)
#: the pit: pit bosses and shift managers (who sign, note and decide on the floor)
PIT_ROLES = (Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value)
#: who reads the floor's pages, reports and the cage's figures: the pit, the admin, the auditor
FLOOR_READERS = (*PIT_ROLES, Role.ADMIN.value, Role.AUDITOR.value)


def public(view: F) -> F:
    """Mark a view as reachable without logging in."""
    view.roles = PUBLIC_ROLES  # type: ignore[attr-defined]
    return view


def role_required(*roles: str) -> Callable[[F], F]:
    """Allow only these roles (checked here and, before the view runs, by the request hook)."""
    unknown = set(roles) - ALL_ROLES
    if not roles or unknown:
        raise ValueError(f"role_required needs known roles, got {sorted(unknown) or 'none'}")
    allowed = frozenset(roles)

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if g.get("roles_checked") == request.endpoint:  # the request hook just did
                return view(*args, **kwargs)
            user: CurrentUser | None = g.get("user")
            if user is None and g.get("device_ok"):  # a table device's own page
                return view(*args, **kwargs)
            if user is None:
                return to_login()
            if user.role not in allowed or user.must_change_password and is_api():
                return forbidden()
            return view(*args, **kwargs)

        wrapper.roles = allowed  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def any_role(view: F) -> F:
    """Any signed-in account."""
    return role_required(*sorted(ALL_ROLES))(view)


def declared_roles(app: Flask, endpoint: str) -> frozenset[str] | None:
    """The roles an endpoint was declared for (``PUBLIC_ROLES`` if public), or None."""
    if endpoint == "static":
        return PUBLIC_ROLES
    roles: frozenset[str] | None = getattr(app.view_functions.get(endpoint), "roles", None)
    return roles


def undeclared_endpoints(app: Flask) -> list[str]:
    return sorted(r.endpoint for r in app.url_map.iter_rules()
                  if declared_roles(app, r.endpoint) is None)


def public_endpoints(app: Flask, prefix: str = "/") -> list[str]:
    """Endpoints declared public whose route starts with ``prefix``."""
    public = {e for e, view in app.view_functions.items()
              if getattr(view, "roles", None) == PUBLIC_ROLES}
    return sorted({rule.endpoint for rule in app.url_map.iter_rules()
                   if rule.endpoint in public and rule.rule.startswith(prefix)})


def may_reach(endpoint: str) -> bool:
    """For templates: show a link only to those who may follow it (on a table device: only
    its own screens, ``edge.device``)."""
    if g.get("device") is not None:
        return device.may_reach(endpoint)
    roles = declared_roles(current_app, endpoint)
    if roles is None:
        return False
    user: CurrentUser | None = g.get("user")
    return PUBLIC in roles or (user is not None and user.role in roles)
