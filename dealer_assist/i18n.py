"""The croupier's language: Flask-Babel, the locale chosen per user, and the ONE formatter for
money and dates.

Why here and not in the views: every page, flash message, problem ``detail``, PDF and CLI line
goes through the same locale decision and the same number format, so a Russian pit boss never
sees ``1,234`` on one page and ``1 234`` on the next.

Locale, first that answers: the signed-in user's profile (``user_account.language``), the
language picked with the header switch before signing in (the session), the browser's
``Accept-Language``, then ``BABEL_DEFAULT_LOCALE`` (English). The catalogs live in
``dealer_assist/translations`` (``.po`` sources and committed ``.mo`` files: a clean clone runs
``make run`` and ``make test`` with no build step; ``tests/web/test_catalogs.py`` fails when a
``.mo`` is stale or a message is untranslated).
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any

from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.numbers import format_decimal, get_currency_symbol
from flask import Flask, current_app, g, has_request_context, request, session
from flask_babel import Babel, force_locale, get_locale

#: the languages the floor speaks; the first is the default
LANGUAGES = ("en", "ru")
#: what the header switch shows for each language, in that language
LANGUAGE_NAMES = {"en": "English", "ru": "Русский"}
SESSION_KEY = "lang"
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
MINUS = "\u2212"

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "force_locale", "init_app", "locale_code", "money",
           "select_locale", "when"]


def select_locale() -> str:
    """The user's profile, the session's pick, the browser, then the default."""
    if has_request_context():
        user = g.get("user")
        chosen = getattr(user, "language", None) or session.get(SESSION_KEY)
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


def _locale() -> Locale:
    return get_locale() or Locale.parse(LANGUAGES[0])


def money(value: int | None, currency: str | None = None) -> str:
    """An integer amount by locale: ``1 234 ₽`` (ru) / ``1,234 RUB``, ``$1,234`` (en) with a
    currency, ``1 234`` / ``1,234`` without; a true minus sign; ``–`` for no value. Money is an
    integer in the table's currency unit, so no decimals are ever shown."""
    if value is None:
        return "–"
    loc = _locale()
    number = format_decimal(abs(value), format="#,##0", locale=loc)
    sign = MINUS if value < 0 else ""
    if not currency:
        return sign + number
    symbol = get_currency_symbol(currency, locale=loc)
    if loc.language == "ru" or symbol == currency:  # a bare code reads after the number
        return f"{sign}{number}\u00a0{symbol}"
    return f"{sign}{symbol}{number}"


def when(moment: datetime | str | None, part: str = "datetime",
         zone: tzinfo | None = None) -> str:
    """A moment for the floor: ``2026-03-14 14:05`` in English, ``14.03.2026 14:05`` in
    Russian (``part``: ``date``, ``time``, ``clock``, ``short``, ``seconds`` or ``datetime``);
    ISO strings (the report's data) are accepted; ``–`` for none."""
    if not moment:
        return "–"
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if zone is not None and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    loc = _locale()
    day = "dd.MM.yyyy" if loc.language == "ru" else "yyyy-MM-dd"
    if part == "date":
        return format_date(moment, day, locale=loc)
    if part == "time":
        return format_time(moment, "HH:mm", locale=loc)
    if part == "clock":
        return format_time(moment, "HH:mm:ss", locale=loc)
    if part == "short":  # day and month, then the time: "14.03 14:05" (the rounds list)
        return format_datetime(moment, "dd.MM HH:mm", locale=loc)
    clock = "HH:mm:ss" if part == "seconds" else "HH:mm"
    return format_datetime(moment, f"{day} {clock}", locale=loc)


def table_currency(table: Any) -> str:
    """A table's currency: its own field, else the configuration's ``DEFAULT_CURRENCY``."""
    own = getattr(table, "currency", None)
    return str(own or current_app.config.get("DEFAULT_CURRENCY", "RUB"))


def _template_globals() -> dict[str, Any]:
    return {"LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES, "locale_code": locale_code,
            "table_currency": table_currency}


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    from .wording import category_name, hand_name, reason, role_name, say, wager_name

    app.jinja_env.filters.update(money=money, when=when, say=say, hand_name=hand_name,
                                 wager_name=wager_name, role_name=role_name,
                                 category_name=category_name, reason=reason)
    app.context_processor(_template_globals)
