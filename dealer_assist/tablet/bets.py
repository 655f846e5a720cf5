"""The bets form read into the ``place`` step's boxes: the same on the server and offline.

The form is a sequence of (name, value) pairs as typed: ``ante_N``, ``bonus_N`` and
``player_N`` (``seat:A`` or ``card:100234``) for each box N with an ANTE typed. Amounts are
whole numbers (spaces and thin separators allowed, never decimals: money is an integer); the
engine checks the rest (the table's boxes, its limits, a player's seat).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..rules.phrase import Phrase
from .words import N_, Words

#: the most boxes a table has (``services.tables.MAX_BOXES``)
MAX_BOXES = 9
_INT_RE = re.compile(r"^[0-9]+$")


class BetsError(ValueError):
    """A bets form that cannot be read: the message id, its values and the input it is about."""

    def __init__(self, message: str, field: str, **params: Any) -> None:
        super().__init__(message)
        self.message = Phrase(message, **params)
        self.field = field

    def problem(self, words: Words) -> dict[str, Any]:
        box = re.sub(r"\D", "", self.field) or None
        return {"type": "about:blank", "title": "ValidationError", "status": 422,
                "detail": words.say(self.message), "field": self.field, "box": box}


def whole_number(typed: str, name: str, label: Phrase) -> int:
    """A non-negative whole number typed in ``name``."""
    raw = typed.strip().replace(" ", "").replace("\u00a0", "").replace("_", "").replace("'", "")
    if not _INT_RE.match(raw):
        raise BetsError(N_("%(label)s must be a whole number, e.g. 100."), name, label=label)
    if len(raw) > 18:  # beyond any table's bank, and beyond a 64-bit column
        raise BetsError(N_("%(label)s is too large."), name, label=label)
    return int(raw)


def player(typed: str) -> dict[str, str] | None:
    """A box's player as the form chose him (``seat:A``, ``card:100234``); the engine checks
    the value."""
    kind, _sep, value = typed.strip().partition(":")
    return {kind: value} if kind in ("seat", "card") and value else None


def boxes(form: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    """The boxes with an ANTE typed, as the ``place`` step's payload lists them."""
    typed = {str(k): str(v) for k, v in form}
    out: list[dict[str, Any]] = []
    for n in range(1, MAX_BOXES + 1):
        if not typed.get(f"ante_{n}", "").strip():
            continue
        box: dict[str, Any] = {"box": str(n), "seat": str(n), "ante": whole_number(
            typed[f"ante_{n}"], f"ante_{n}", Phrase(N_("ANTE of box %(box)s"), box=n))}
        if typed.get(f"bonus_{n}", "").strip():
            bonus = whole_number(typed[f"bonus_{n}"], f"bonus_{n}",
                                 Phrase(N_("Bonus of box %(box)s"), box=n))
            if bonus:
                box["bonus"] = bonus
        chosen = player(typed.get(f"player_{n}", ""))
        if chosen is not None:
            box["player"] = chosen
        out.append(box)
    if not out:
        raise BetsError(N_("Enter the ANTE of at least one box."), "ante_1")
    return out
