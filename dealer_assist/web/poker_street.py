"""The stud street on the poker screen: which seat a refused up card belongs to, and card codes
in a message said as the dealer reads them (``Kh`` -> ``K♥``).

The engine checks a street's up cards together and names the card; the screen keeps every pick
and marks the seat. The seat is found with the engine's own check, seat by
seat in the engine's order: the first seat whose card (parsed, in the deck, not yet on the
table nor picked for an earlier seat) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..rules.cards import Card, parse_card
from ..rules.errors import RulesError
from ..rules.games.poker import HandState
from ..rules.games.poker.stud import check_new_cards

_CODE = re.compile(r"\b(10|[2-9TJQKA])([shdc])\b")
_SUIT = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def refused_up_card(state: HandState, typed: Mapping[str, str]) -> str | None:
    """The seat of the first up card the engine refuses, or None (the refusal is not a card's)."""
    picked: list[tuple[str, Card]] = []
    for seat in state.live:
        try:
            picked.append((f"seat {seat}", parse_card(typed.get(f"up_{seat}", "").strip())))
            check_new_cards(state, picked)
        except RulesError:
            return seat
    return None


def as_code(typed: str) -> str:
    """A picked or typed up card as the event stores it (``10♥`` -> ``Th``); what is no card
    is passed on as typed, for the engine to refuse with its own words."""
    try:
        return parse_card(typed.strip()).code
    except RulesError:
        return typed


def cards_said(message: str) -> str:
    """``Kh is already on the table`` -> ``K♥ is already on the table``."""
    return _CODE.sub(lambda m: ("10" if m.group(1) in ("T", "10") else m.group(1))
                     + _SUIT[m.group(2)], message)
