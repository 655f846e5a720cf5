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

import re
from dataclasses import dataclass
from typing import Any

from flask import session
from werkzeug.datastructures import MultiDict

KEY = "live_refused"
#: form fields that are the request's own, never typed by the croupier
NOT_TYPED = frozenset({"csrf_token", "key", "seq"})
#: inputs of the table screen an engine field may be about
CARD_FIELDS = frozenset({"cards", "card", "draw", "up", "small", "big", "discard"})


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
    """The screen's input an error's ``field`` is about: ``boxes[1].bonus`` -> ``bonus_2`` (the
    second box with an ANTE typed), ``ante`` -> ``ante_2`` (the first box whose typed ANTE is
    the refused value), ``insurance`` -> ``amount``, card fields ->
    ``cards``; form fields (``amount``, ``ante_2``) are themselves."""
    if not field:
        return None
    if field in form:
        return field
    if ".player" in field:  # boxes[i].player(.card) -> the i-th placed box's choice
        return _player_input(field, form)
    last = re.sub(r"\[\d+\]", "", field.rsplit(".", 1)[-1])
    if last in ("ante", "bonus"):
        placed = re.match(r"boxes\[(\d+)\]\.", field)
        if placed:  # the i-th box of the bets form that has an ANTE (as the route lists them)
            boxes = sorted(int(box) for name, typed in form.items(multi=True)
                           if (box := box_of(name)) and name.startswith("ante_") and typed.strip())
            i = int(placed.group(1))
            return f"{last}_{boxes[i]}" if i < len(boxes) else None
        return next((name for name, typed in form.items(multi=True)
                     if name.startswith(f"{last}_") and _number(typed) == value), None)
    if last in ("insurance", "amount"):
        return "amount" if "amount" in form else None
    if last in CARD_FIELDS and "cards" in form:
        return "cards"
    return None


def _player_input(field: str, form: MultiDict[str, str]) -> str | None:
    """``boxes[1].player`` -> ``player_3`` when box 3 is the second box with an ANTE typed (the
    bets form places the boxes with an ANTE, in order)."""
    found = re.match(r"boxes\[(\d+)\]", field)
    placed = [name.removeprefix("ante_") for name, typed in form.items(multi=True)
              if name.startswith("ante_") and typed.strip()]
    if found is None or int(found.group(1)) >= len(placed):
        return None
    return f"player_{placed[int(found.group(1))]}"


def payload_input(field: str | None, value: Any, payload: Any) -> str | None:
    """The step's input a refusal's engine ``field`` is about, among the fields of the payload
    the screen sent (its inputs' names): the field or its last part (``split.small`` ->
    ``small``), else as :func:`input_for` maps a form (``insurance`` -> ``amount``, a card
    field -> ``cards``); ``None``: the message goes to the end of the entry."""
    if not field or not isinstance(payload, dict):
        return None
    last = re.sub(r"\[\d+\]", "", field.rsplit(".", 1)[-1])
    if field in payload or last in payload:
        return field if field in payload else last
    form = MultiDict([(str(k), " ".join(map(str, v)) if isinstance(v, list) else str(v))
                      for k, v in payload.items()])
    return input_for(field, value, form)


def box_of(input: str | None) -> str | None:
    """``ante_2`` -> ``2``: the box a bets-form input belongs to."""
    found = re.fullmatch(r"(?:ante|bonus|player)_(\d+)", input or "")
    return found.group(1) if found else None


def _number(typed: str) -> int | None:
    raw = typed.replace(" ", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None
