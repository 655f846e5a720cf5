"""The croupier's language: the locale chosen per user (Flask-Babel's locale selector).

Why here and not in the views: every page, flash message, problem ``detail``, PDF and CLI line
goes through the same locale decision (and the same number format, ``formats``), so a Russian
pit boss never sees ``1,234`` on one page and ``1 234`` on the next.

Locale, first that answers: the signed-in user's profile (``user_account.language``; on a table
device the tablet's own pick comes before the dealer's profile), the
language picked with the header switch before signing in (the session), the browser's
``Accept-Language``, then ``BABEL_DEFAULT_LOCALE`` (English). The catalogs live in
``dealer_assist/translations`` (``.po`` sources and committed ``.mo`` files: a clean clone runs
``make run`` and ``make test`` with no build step; ``tests/web/test_catalogs.py`` fails when a
``.mo`` is stale or a message is untranslated).
"""

from __future__ import annotations

from pathlib import Path

from babel import Locale
from flask import current_app, g, has_request_context, request, session
from flask_babel import get_locale

#: the languages the floor speaks; the first is the default
LANGUAGES = ("en", "ru")
#: what the header switch shows for each language, in that language
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
SESSION_KEY = "lang"
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"


def select_locale() -> str:
    """The user's profile, the session's pick, the browser, then the default. On a table
    device the tablet's own pick comes first, then the dealer's profile."""
    if has_request_context():
        user = g.get("user")
        mine = getattr(user, "language", None)
        picked = session.get(SESSION_KEY)
        chosen = (picked or mine) if g.get("device") is not None else (mine or picked)
        if chosen in LANGUAGES:
            return str(chosen)
        best = request.accept_languages.best_match(LANGUAGES)
        if best:
            return best
    return str(current_app.config.get("BABEL_DEFAULT_LOCALE", LANGUAGES[0]))


def locale_code() -> str:
    """``en`` or ``ru``: the language this request (or CLI command) speaks."""
    loc = get_locale()
    return loc.language if loc is not None else LANGUAGES[0]


def babel_locale() -> Locale:
    """The Babel locale this request (or CLI command) formats in."""
    return get_locale() or Locale.parse(LANGUAGES[0])
