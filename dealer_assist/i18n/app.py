"""The croupier's language wired into Flask: Flask-Babel with the catalogs, the locale selector,
and the Jinja filters and globals every page formats and translates with."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_babel import Babel

from .decisions import method_name, option_label, stage_name, strategy_name
from .formats import clock_time, decimal, duration, money, pct, table_currency, when
from .locale import LANGUAGE_NAMES, LANGUAGES, TRANSLATIONS, locale_code, select_locale
from .wording import category_name, hand_name, reason, role_name, say, wager_name


def _template_globals() -> dict[str, Any]:
    return {"LANGUAGES": LANGUAGES, "LANGUAGE_NAMES": LANGUAGE_NAMES, "locale_code": locale_code,
            "table_currency": table_currency}


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", LANGUAGES[0])
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.jinja_env.filters.update(money=money, when=when, duration=duration,
                                 clock_time=clock_time, say=say,
                                 hand_name=hand_name,
                                 wager_name=wager_name, role_name=role_name,
                                 category_name=category_name, reason=reason, pct=pct,
                                 decimal=decimal,
                                 strategy_name=strategy_name, method_name=method_name,
                                 stage_name=stage_name)
    app.jinja_env.globals.update(option_label=option_label)
    app.context_processor(_template_globals)
