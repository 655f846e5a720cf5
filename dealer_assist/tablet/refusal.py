"""A refused tap as the table screen shows it, the same online and offline: which input of the
step it is about, and the problem body that names the box, the step and the input.

The engine's ``field`` is turned into the screen's input (``boxes[1].bonus`` -> ``bonus_2``,
``insurance`` -> ``amount``, ``split.small`` -> ``small``), so ``static/round.js`` puts the
message beside it and marks it. A form is a sequence of (name, value) pairs, as typed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.errors import RulesError
from .words import N_, Words

Pairs = Sequence[tuple[str, str]]
#: inputs of the table screen an engine field may be about
CARD_FIELDS = frozenset({"cards", "card", "draw", "up", "small", "big", "discard"})
#: a house round's refusals of a step at the wrong moment (the record path's, offline too)
CLOSED = N_("Round %(number)s is %(status)s; it takes no more steps.")
STALE = N_("Round %(number)s changed on another device (now at step %(last_seq)s, you saw "
           "%(expected_seq)s); the screen shows it now.")
FROZEN = N_("Round %(number)s waits for a pit boss to decide on its void; nothing is recorded "
            "until then.")
REUSED = N_("This idempotency key was already used for a different step.")
NOTHING = N_("Round %(number)s has no step to undo.")
RULE_TITLE = "The request breaks a rule"


def _get(form: Pairs, name: str) -> str | None:
    return next((v for k, v in form if k == name), None)


def input_for(field: str | None, value: Any, form: Pairs) -> str | None:
    """The screen's input an error's ``field`` is about: ``boxes[1].bonus`` -> ``bonus_2`` (the
    second box with an ANTE typed), ``ante`` -> ``ante_2`` (the first box whose typed ANTE is
    the refused value), ``insurance`` -> ``amount``, card fields -> ``cards``; form fields
    (``amount``, ``ante_2``) are themselves."""
    if not field:
        return None
    names = {k for k, _ in form}
    if field in names:
        return field
    placed = [name.removeprefix("ante_") for name, typed in form
              if name.startswith("ante_") and typed.strip()]
    if ".player" in field:  # boxes[i].player(.card) -> the i-th placed box's choice
        found = re.match(r"boxes\[(\d+)\]", field)
        if found is None or int(found.group(1)) >= len(placed):
            return None
        return f"player_{placed[int(found.group(1))]}"
    last = re.sub(r"\[\d+\]", "", field.rsplit(".", 1)[-1])
    if last in ("ante", "bonus"):
        at = re.match(r"boxes\[(\d+)\]\.", field)
        if at:  # the i-th box of the bets form that has an ANTE (as the route lists them)
            boxes = sorted(int(box) for box in placed if box.isdigit())
            i = int(at.group(1))
            return f"{last}_{boxes[i]}" if i < len(boxes) else None
        return next((name for name, typed in form
                     if name.startswith(f"{last}_") and number(typed) == value), None)
    if last in ("insurance", "amount"):
        return "amount" if "amount" in names else None
    if last in CARD_FIELDS and "cards" in names:
        return "cards"
    return None


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
    form = [(str(k), " ".join(map(str, v)) if isinstance(v, list) else str(v))
            for k, v in payload.items()]
    return input_for(field, value, form)


def box_of(input: str | None) -> str | None:
    """``ante_2`` -> ``2``: the box a bets-form input belongs to."""
    found = re.fullmatch(r"(?:ante|bonus|player)_(\d+)", input or "")
    return found.group(1) if found else None


def number(typed: str) -> int | None:
    raw = typed.replace(" ", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


def step_what(payload: Mapping[str, Any], label: str, words: Words) -> tuple[str, str | None]:
    """What a refused tap was: ``Box 2 · Exchange`` (the box and the step's label), and the box."""
    box = payload.get("box")
    box = str(box) if isinstance(box, (str, int)) else None
    if box and label:
        return words.gettext("Box %(box)s · %(step)s", box=box, step=label), box
    return (words.gettext("Box %(box)s", box=box) if box else label), box


def detail(what: str, message: Any, words: Words) -> str:
    """The refusal said, after what it was about unless the message names it already."""
    said = words.say(message)
    return f"{words.say(what)}: {said}" if what and what.lower() not in said.lower() else said


def rule_problem(err: RulesError, payload: Mapping[str, Any], label: str,
                 words: Words) -> dict[str, Any]:
    """A tap the engine refused, as the problem body the screen shows (HTTP 422)."""
    what, box = step_what(payload, label, words)
    field = err.field
    if err.code != "card_count":  # the free second card: the screen asks one more card
        field = payload_input(field, err.value, payload) or field
    info = err.problem()
    info.pop("detail", None)
    info["field"] = field or info.get("field")
    body = {"type": "about:blank", "title": RULE_TITLE, "status": 422,
            "detail": detail(what, err.message, words), "box": box}
    body.update(info)
    return {k: v for k, v in body.items() if v is not None}
