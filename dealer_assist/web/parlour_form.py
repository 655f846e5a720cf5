"""Reading the parlour hand form into the engine's JSON shape.

Quick 52-card entry: a hand left empty gets every card not entered elsewhere ("the last hand is
the remaining cards"); more than one empty hand is refused naming them. Betting is one line,
``Bob bet 2, Cy raise 1, Ann call, Bob pass`` (the page's buttons write it), parsed by matching
the players' names so names with spaces work. The engine checks everything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import request

from ..rules.cards import ALL_CARDS, parse_cards
from ..rules.errors import RulesError
from ..services.errors import ValidationError
from .forms import whole_number

EXTRA = "extra"
ACTION_WORDS = ("bet", "call", "raise", "pass")


def hand_field(i: int) -> str:
    """The form field of the i-th player's hand (seat order of this hand, dealer = 0)."""
    return f"hand_{i}"


def _cards(field: str, label: str) -> list[str]:
    raw = request.form.get(field, "")
    try:
        return [c.code for c in parse_cards(raw, what=label)]
    except RulesError as err:
        raise err.at(field) from None


def read_hands(seating: Sequence[str]) -> tuple[dict[str, list[str]], list[str]]:
    """(each player's cards, the extra hand); the one empty hand takes the remaining cards."""
    fields = [(hand_field(i), p) for i, p in enumerate(seating)] + [(EXTRA, "extra hand")]
    cards = {f: _cards(f, label) for f, label in fields}
    empty = [f for f, _ in fields if not cards[f]]
    if len(empty) > 1:
        names = ", ".join(label for f, label in fields if f in empty)
        raise ValidationError("Enter the cards of every hand but one (empty: %(names)s).",
                              names=names,
                              field=empty[0])
    if empty:
        taken = {c for codes in cards.values() for c in codes}
        cards[empty[0]] = [c.code for c in ALL_CARDS if c.code not in taken]
    return {p: cards[hand_field(i)] for i, p in enumerate(seating)}, cards[EXTRA]


def read_extra_hand(seating: Sequence[str]) -> dict[str, Any]:
    action = request.form.get("extra_action", "keep")
    if action != "sell":
        return {"action": action}
    return {"action": "sell", "buyer": request.form.get("buyer", ""),
            "price": whole_number("price", "The price of the extra hand")}


def parse_betting(line: str, players: Sequence[str]) -> list[dict[str, Any]]:
    """``"Bob bet 2, Cy call"`` -> betting actions; an empty line means everybody passes."""
    order = [*players[1:], players[0]]
    items = [s.strip() for s in line.replace(";", ",").replace("\n", ",").split(",")]
    items = [s for s in items if s]
    if not items:
        return [{"player": p, "type": "pass"} for p in order]
    by_length = sorted(players, key=len, reverse=True)
    out = []
    for n, item in enumerate(items, start=1):
        player = next((p for p in by_length if item.lower().startswith(p.lower() + " ")), None)
        words = item[len(player):].split() if player else []
        if player is None or not words or words[0].lower() not in ACTION_WORDS:
            raise ValidationError("Betting step %(n_)s ('%(item)s') should read like '%(v)s "
                                  "bet 2' or '%(v)s pass'.",
                                  n_=n, item=item, v=order[0], field="betting")
        action: dict[str, Any] = {"player": player, "type": words[0].lower()}
        if len(words) > 1:
            if not words[1].isdigit():
                raise ValidationError("Betting step %(n_)s ('%(item)s'): the amount is a "
                                      "whole number of chips.",
                                      n_=n, item=item, field="betting")
            action["amount"] = int(words[1])
        out.append(action)
    return out


def read_end_hands(seating: Sequence[str]) -> dict[str, list[str]]:
    return {p: _cards(f"end_{i}", f"{p}'s five cards") for i, p in enumerate(seating)}
