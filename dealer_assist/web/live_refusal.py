"""A refusal on the table screen: which input it is about, and a refused form shown again.

A tap's refusal is a problem body (``live.record``): :func:`payload_input` (a tap's payload)
and :func:`input_for` (the bets form) turn the engine's field into the screen's input
(``boxes[1].bonus`` -> ``bonus_2``, ``insurance`` -> ``amount``, ``split.small`` -> ``small``),
so ``static/round.js`` puts the message beside it and marks it.

The pages around the round still post forms (a rated player's sitting down,
``table_players``): a refused one keeps what was typed, the message and its input in the
session and answers 303 to the table screen, whose next GET takes them back (:func:`take`,
once: a reload shows neither).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import session
from werkzeug.datastructures import MultiDict

from ..tablet import refusal as said
from ..tablet.refusal import box_of, payload_input

__all__ = ["KEY", "Refusal", "box_of", "input_for", "keep", "payload_input", "take"]

KEY = "live_refused"
#: form fields that are the request's own, never typed by the croupier
NOT_TYPED = frozenset({"csrf_token", "key", "seq"})


@dataclass(frozen=True, slots=True)
class Refusal:
    """What to show with the form again: the message, the input it is about (``None``: the
    message goes to the top of the screen) and whether it is an error or a note."""

    message: str
    input: str | None = None
    kind: str = "error"


def keep(table_id: int, form: MultiDict[str, str], refusal: Refusal) -> None:
    """Remember ``form`` and ``refusal`` for the table screen's next GET."""
    typed = [(k, v) for k, v in form.items(multi=True) if k not in NOT_TYPED]
    session[KEY] = {"table": table_id, "form": typed, "message": refusal.message,
                    "input": refusal.input, "kind": refusal.kind}


def take(table_id: int) -> tuple[MultiDict[str, str], Refusal | None]:
    """The typed form and the refusal kept for this table (once: a reload shows neither)."""
    data: Any = session.pop(KEY, None)
    if not isinstance(data, dict) or data.get("table") != table_id:
        return MultiDict(), None
    return (MultiDict([tuple(pair) for pair in data.get("form", [])]),
            Refusal(str(data.get("message", "")), data.get("input"), str(data.get("kind"))))


def input_for(field: str | None, value: Any, form: MultiDict[str, str]) -> str | None:
    """The screen's input an error's ``field`` is about (``tablet.refusal.input_for``,
    the same offline), on a posted form."""
    return said.input_for(field, value, list(form.items(multi=True)))
