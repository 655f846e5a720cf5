"""The croupier's language: locale, money and dates, and the engine's codes in the reader's words.

``locale`` chooses the language (profile, session, browser, default); ``formats`` is the ONE
formatter for money and dates; ``wording`` names hands, reasons and errors in English or Russian;
``app`` wires Flask-Babel, the filters and the template globals. Dependencies point one way:
``app -> wording -> formats -> locale``.
"""

from __future__ import annotations

from flask_babel import force_locale

from .app import init_app
from .formats import amount, cards, duration, money, table_currency, when
from .locale import LANGUAGE_NAMES, LANGUAGES, SESSION_KEY, TRANSLATIONS, locale_code, select_locale

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "SESSION_KEY", "TRANSLATIONS", "amount", "cards",
           "duration", "force_locale", "init_app", "locale_code", "money", "select_locale",
           "table_currency", "when"]
