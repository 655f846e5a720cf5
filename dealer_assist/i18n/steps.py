"""A recorded step's name in the reader's language (the floor's refused offline steps
and the shift report's list of steps recorded offline)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from ..rules.phrase import Phrase
from .wording import N_, say

#: a house round's step types, as the pit reads them
STEP_NAMES = {
    "place": N_("Bets placed"), "deal_box": N_("Box dealt"), "deal_dealer": N_("Dealer dealt"),
    "reveal": N_("Dealer reveals"), "dealer_draw": N_("Dealer's new card"),
    "dealer_small": N_("Dealer's Small Hand"), "show": N_("Hand shown"),
    "exchange": N_("Exchange"), "sixth_card": N_("Sixth card"), "replace": N_("Replacement"),
    "extra": N_("Extra cards"), "split": N_("Split"), "bet": N_("Bet"), "fold": N_("Fold"),
    "insure": N_("Insurance"), "take_ante": N_("Take ANTE"), "buy_game": N_("Bought game"),
    "paid": N_("Paid"), "undo": N_("Undo"), "redeal": N_("Redeal"),
}


def phrase_data(text: str) -> dict[str, Any]:
    """A sentence as data to store (a :class:`Phrase`'s message id and values, nested ones
    too), so that it is said later in each reader's language (:func:`said`)."""
    if not isinstance(text, Phrase):
        return {"text": str(text)}
    params = {k: phrase_data(v) if isinstance(v, Phrase) else
              v if isinstance(v, (int, str)) and not isinstance(v, bool) else str(v)
              for k, v in text.params.items()}
    return {"msgid": text.msgid, "plural": text.plural, "n": text.n, "params": params,
            "text": str(text)}


def _phrase(data: dict[str, Any]) -> str:
    if "msgid" not in data:
        return str(data.get("text", ""))
    # a stored word (a status: ``voided``) is said too, as the catalog has it
    params = {k: _phrase(v) if isinstance(v, dict) else Phrase(v) if isinstance(v, str) else v
              for k, v in (data.get("params") or {}).items()}
    if data.get("plural") is not None and data.get("n") is not None:
        params.pop("num", None)
        return Phrase.counted(data["msgid"], data["plural"], int(data["n"]), **params)
    return Phrase(data["msgid"], **params)


def said(data: dict[str, Any] | None, fallback: str = "") -> str:
    """A stored sentence (:func:`phrase_data`) in the reader's language; ``fallback`` (the
    text as first said) when there is none or it no longer reads."""
    if not data:
        return fallback
    try:
        return say(_phrase(data))
    except (KeyError, TypeError, ValueError):
        return fallback


def step_name(type: str) -> str:
    """``sixth_card`` -> ``Sixth card`` / ``Шестая карта``; an unknown type as it is."""
    found = STEP_NAMES.get(type)
    return str(gettext(found)) if found else type
