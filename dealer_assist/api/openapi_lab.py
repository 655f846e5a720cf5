"""The OpenAPI entries of the game-math lab's advisor (issue 24, :mod:`.lab`).

Kept beside :mod:`.openapi`, which adds :data:`SCHEMAS` to its components and the endpoint row.
"""

from __future__ import annotations

from typing import Any

from .openapi_schemas import CARD, CARDS, INT, STR

OPTION = {
    "type": "object", "required": ["action", "cards", "label", "ev", "ev_chips", "se", "method"],
    "properties": {
        "action": {"enum": ["fold", "bet", "raise", "exchange", "sixth_card", "replace",
                            "free_extra", "bought_extra", "split", "take_ante", "buy_game"]},
        "cards": {"type": "array", "items": CARD,
                  "description": "the cards the option names: discarded or replaced cards, "
                                 "a split's Small Hand"},
        "label": STR, "ev": {"type": "number", "description": "expected result per ANTE"},
        "ev_chips": {"type": "number", "description": "the same for the box's ANTE"},
        "se": {"type": "number", "description": "standard error of ev (0: exact or model)"},
        "method": {"enum": ["exact", "model", "model+monte-carlo", "monte-carlo"]}}}

SCHEMAS: dict[str, Any] = {
    "AdviseRequest": {
        "type": "object", "required": ["profile", "cards"],
        "properties": {
            "profile": STR, "stage": {"enum": ["deal", "split", "no_game"], "default": "deal"},
            "cards": CARDS, "up": CARDS, "dealer": CARDS, "small": CARDS, "seen": CARDS,
            "ante": {"type": "integer", "minimum": 1}, "bonus": {"type": "integer",
                                                                 "minimum": 0},
            "precise": {"type": "integer", "minimum": 0, "maximum": 2000,
                        "description": "sampled draws per modelled option to correct and state "
                                       "the model's error; above LAB_MAX_PRECISE a 422"}}},
    "Advice": {
        "type": "object",
        "required": ["profile", "game", "stage", "ante", "unit", "best", "options", "notes"],
        "properties": {"profile": STR, "game": STR, "stage": STR, "ante": INT, "unit": STR,
                       "seconds": {"type": "number"}, "notes": {"type": "array", "items": STR},
                       "best": OPTION, "options": {"type": "array", "items": OPTION}}},
}

EXAMPLE = {"profile": "russian-classic", "stage": "deal",
           "cards": ["As", "Kd", "7h", "4c", "2s"], "ante": 100}
