"""One hierarchy of service errors, mapped once to HTTP at the edge (``edge/status.py``).

Each error carries a message fit for the croupier's screen and, where useful, the offending
``field`` so a form can point at it.
"""

from __future__ import annotations

from typing import Any

from ..rules.phrase import Phrase


def N_(message: str) -> str:
    """Mark a message id kept in data (``record.Wording``) for ``make translations``; the edge
    translates it when the error is raised with it."""
    return message


class ServiceError(Exception):
    """Something the user (not the code) got wrong; never a 500."""

    def __init__(self, message: str, *, field: str | None = None, **params: Any) -> None:
        """``message`` is a ``%(name)s`` template (a message id) with ``params`` as its values;
        the web edge translates it (``wording.say``)."""
        if not isinstance(message, Phrase):
            message = Phrase(message, **params)
        super().__init__(message)
        self.message: Phrase = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class ValidationError(ServiceError):
    """Input that can never be right: a negative ante, an unknown game, a short password."""


class NotFound(ServiceError):
    """The table, user or shift does not exist."""


class Conflict(ServiceError):
    """Right input, wrong moment: a name already taken, a shift already open."""


class PermissionDenied(ServiceError):
    """The actor's role does not allow this action."""


class AuthenticationFailed(ServiceError):
    """Wrong username or password, or a disabled account."""


class Throttled(ServiceError):
    """Too many failed logins; try again after ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: int, **params: Any) -> None:
        super().__init__(message, **params)
        self.retry_after = retry_after
