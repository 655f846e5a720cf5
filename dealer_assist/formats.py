"""How the floor reads numbers: the one place amounts are formatted for people.

Every page, the table screen and the PDFs format money with :func:`amount` (the Jinja filter
``amount``), so that making it follow a locale later is a change in this one function.
"""

from __future__ import annotations


def amount(value: int | None) -> str:
    """``1600`` -> ``1,600``; a true minus sign for negatives; ``–`` for no value."""
    if value is None:
        return "–"
    return f"{value:,}".replace("-", "\u2212")


def cards(count: int) -> str:
    """``1 card``, ``5 cards``: a number of cards in words."""
    return f"{count} card" if count == 1 else f"{count} cards"
