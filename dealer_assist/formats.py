"""How the floor reads numbers: the one place amounts are formatted for people.

Every page, the table screen and the PDFs format money with :func:`amount` (the Jinja filter
``amount``): it is :func:`dealer_assist.i18n.money`, so it follows the reader's locale
(``1,600`` / ``1 600``); card counts are said with Russian plurals too.
"""

from __future__ import annotations

from flask_babel import ngettext

from .i18n import money


def amount(value: int | None) -> str:
    """``1600`` -> ``1,600`` (``1 600`` in Russian); a true minus sign; ``–`` for no value."""
    return money(value)


def cards(count: int) -> str:
    """``1 card``, ``5 cards`` (``1 карта``, ``3 карты``, ``5 карт``)."""
    return str(ngettext("%(num)d card", "%(num)d cards", count))
