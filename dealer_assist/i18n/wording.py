"""The engine's codes and values in the reader's words, in the language of this request (or CLI
command): the one place where hand names, reason lines, error messages and the table's action
words are turned into English or Russian.

The words themselves are pure and live in :mod:`dealer_assist.tablet.words` (the table's tablet
says them offline too, from the same catalogs); here they are wired to Flask-Babel's catalogs
and the request's locale. Money is formatted by :func:`.formats.money` (Babel, with currencies).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, ngettext

from ..rules.evaluator import HandValue, SmallHandValue
from ..rules.ranking import Category
from ..tablet.words import (
    N_,
    SHOWN_CODES,
    SHOWN_DECISIONS,
    SHOWN_INPUTS,
    SHOWN_KINDS,
    STORED_PHRASES,
    Words,
)
from .locale import locale_code

__all__ = ["N_", "SHOWN_CODES", "SHOWN_DECISIONS", "SHOWN_INPUTS", "SHOWN_KINDS",
           "STORED_PHRASES", "action", "category_name", "hand_name", "reason", "role_name",
           "say", "wager_name", "words"]


def words() -> Words:
    """The reader's words in this request's language (Flask-Babel's catalogs)."""
    return Words(gettext, ngettext, locale_code())


def category_name(category: Category | str) -> str:
    """``two_pairs`` -> ``Two pairs`` / ``Две пары``."""
    return words().category_name(category)


def hand_name(hand: HandValue | SmallHandValue | Mapping[str, Any] | None) -> str:
    """A hand value (or its API dict) named in the reader's language."""
    return words().hand_name(hand)


def say(text: str | None) -> str:
    """A :class:`~dealer_assist.rules.phrase.Phrase` (or a plain message id, or a stored
    sentence) in the reader's language; any other plain string comes back unchanged."""
    return words().say(text)


def reason(wager: Mapping[str, Any] | None) -> str:
    """A wager's reason said in the reader's language."""
    return words().reason(wager)


def wager_name(name: str) -> str:
    """The table's word for a wager: ANTE, BET, ... / АНТЕ, БЕТ, ..."""
    return words().wager_name(name)


def action(net: int) -> str:
    """PAY, TAKE or RETURN: what the croupier does with a wager or a box."""
    return words().action(net)


def role_name(role: str) -> str:
    """``pit_boss`` -> ``pit boss`` / ``пит-босс``."""
    names = {"croupier": gettext("croupier"), "pit_boss": gettext("pit boss"),
             "shift_manager": gettext("shift manager"), "admin": gettext("admin"),
             "auditor": gettext("auditor"), "count_team": gettext("count team"),
             "cage_cashier": gettext("cage cashier")}
    return str(names.get(role, role.replace("_", " ")))
