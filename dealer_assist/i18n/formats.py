"""How the floor reads numbers and moments: the ONE formatter for money and dates.

Every page, the table screen and the PDFs format money with :func:`money` (the Jinja filters
``money`` and ``amount``), so it follows the reader's locale (``1,600`` / ``1 600``); moments
with :func:`when`; card counts are said with Russian plurals too.
"""

from __future__ import annotations

from datetime import date, datetime, tzinfo
from decimal import Decimal
from typing import Any

from babel.dates import format_date, format_datetime, format_time
from babel.numbers import format_decimal, get_currency_symbol
from flask import current_app
from flask_babel import gettext, ngettext

from .locale import babel_locale

MINUS = "\u2212"


def money(value: int | None, currency: str | None = None) -> str:
    """An integer amount by locale: ``1 234 ₽`` (ru) / ``1,234 RUB``, ``$1,234`` (en) with a
    currency, ``1 234`` / ``1,234`` without; a true minus sign; ``–`` for no value. Money is an
    integer in the table's currency unit, so no decimals are ever shown."""
    if value is None:
        return "–"
    loc = babel_locale()
    number = format_decimal(abs(value), format="#,##0", locale=loc)
    sign = MINUS if value < 0 else ""
    if not currency:
        return sign + number
    symbol = get_currency_symbol(currency, locale=loc)
    if loc.language == "ru" or symbol == currency:  # a bare code reads after the number
        return f"{sign}{number}\u00a0{symbol}"
    return f"{sign}{symbol}{number}"


def when(moment: datetime | date | str | None, part: str = "datetime",
         zone: tzinfo | None = None) -> str:
    """A moment for the floor: ``2026-03-14 14:05`` in English, ``14.03.2026 14:05`` in
    Russian (``part``: ``date``, ``time``, ``clock``, ``short``, ``seconds`` or ``datetime``);
    ISO strings (the report's data) and plain dates (a gaming date) are accepted; ``–`` for
    none."""
    if not moment:
        return "–"
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if zone is not None and isinstance(moment, datetime) and moment.tzinfo is not None:
        moment = moment.astimezone(zone)
    loc = babel_locale()
    day = "dd.MM.yyyy" if loc.language == "ru" else "yyyy-MM-dd"
    if part == "date" or not isinstance(moment, datetime):  # a plain date has no time
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


def amount(value: int | None) -> str:
    """``1600`` -> ``1,600`` (``1 600`` in Russian); a true minus sign; ``–`` for no value."""
    return money(value)


def pct(value: str | None) -> str:
    """A percentage the reports carry as a decimal string (``"25.00"``), written by locale
    (``25,00`` in Russian) with the digits it has; ``–`` for none."""
    if value is None or value == "":
        return "–"
    digits = len(value.split(".", 1)[1]) if "." in value else 0
    pattern = "#,##0." + "0" * digits if digits else "#,##0"
    return format_decimal(Decimal(value), format=pattern, locale=babel_locale())


def decimal(value: float | None, digits: int) -> str:
    """A figure that is not money (a house edge in per cent, a z-score) with ``digits``
    decimals, written by locale like :func:`pct` (``0,753`` in Russian;
    the pages once showed ``0.753 %`` beside ``25,00 %``); ``–`` for none."""
    if value is None:
        return "–"
    return pct(f"{value:.{digits}f}")


def cards(count: int) -> str:
    """``1 card``, ``5 cards`` (``1 карта``, ``3 карты``, ``5 карт``)."""
    return str(ngettext("%(num)d card", "%(num)d cards", count))


def duration(seconds: int | None) -> str:
    """Time played: ``2 h 05 min`` (``2 ч 05 мин``), whole minutes rounded down; ``–`` for
    none."""
    if seconds is None:
        return "–"
    minutes = max(int(seconds), 0) // 60
    return str(gettext("%(hours)d h %(minutes)02d min", hours=minutes // 60,
                       minutes=minutes % 60))


def clock_time(seconds: int | None) -> str:
    """Time played in a narrow column: ``2:05`` (hours and minutes, minutes rounded down)."""
    if seconds is None:
        return "–"
    minutes = max(int(seconds), 0) // 60
    return f"{minutes // 60}:{minutes % 60:02d}"
