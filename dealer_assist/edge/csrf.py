"""The one CSRF check, for pages and the JSON API alike.

Every non-GET request must carry the session's token, as a hidden ``csrf_token`` form field or
an ``X-CSRF-Token`` header (the JSON API sends the header; a cross-site page can read neither).
The check itself runs in the request hook of :mod:`.guard`.
"""

from __future__ import annotations

import secrets

from flask import request, session
from markupsafe import Markup

from .headers import FORM_TYPES

CSRF_KEY = "csrf_token"


def csrf_token() -> str:
    token = session.get(CSRF_KEY)
    if not token:
        token = session[CSRF_KEY] = secrets.token_urlsafe(32)
    return str(token)


def csrf_field() -> Markup:
    return Markup('<input type="hidden" name="csrf_token" value="%s">') % csrf_token()


def csrf_ok() -> bool:
    """The session's token, sent as a form field or an ``X-CSRF-Token`` header."""
    expected = session.get(CSRF_KEY)
    sent = request.headers.get("X-CSRF-Token")
    if not sent and request.mimetype in FORM_TYPES:
        sent = request.form.get(CSRF_KEY)
    return bool(expected and sent and secrets.compare_digest(str(expected), str(sent)))
