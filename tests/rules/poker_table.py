"""Shorthand for the poker rule tables: hands written the way a dealer would say them.

``act("4 raise 16", "1 call", "street 1:Kd 2:7s", "2 draw 3", "parole no", "3 show As Kd")``
becomes the API's action objects; :func:`hand` replays them through the calculator's own
request parser and returns its response body, :func:`refusal` the problem of a refused one.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.rules.errors import RulesError
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand

STUD_STAKES = {"ante": 1}
DRAW_STAKES = {"small_blind": 1}


def act(*lines: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in lines:
        words = line.split()
        if words[0] == "street":
            out.append({"type": "street", "up": dict(w.split(":") for w in words[1:])})
        elif words[0] == "parole":
            out.append({"type": "parole", "agreed": words[1] == "yes"})
        else:
            seat, kind, *rest = words
            action: dict[str, Any] = {"type": kind, "seat": seat}
            if kind in ("bet", "raise", "call") and rest:
                action["to"] = int(rest[0])
            elif kind == "draw":
                action["discard"] = int(rest[0])
            elif kind == "show":
                action["cards"] = rest
            out.append(action)
    return out


def body(profile: str, stacks: dict[str, int] | list[dict[str, Any]], *lines: str,
         button: str = "1", stakes: dict[str, int] | None = None) -> dict[str, Any]:
    seats = stacks if isinstance(stacks, list) else [
        {"seat": s, "stack": n} for s, n in stacks.items()]
    default = STUD_STAKES if profile.startswith("americana") else DRAW_STAKES
    return {"profile": profile, "stakes": stakes or default, "button": button, "seats": seats,
            "actions": act(*lines)}


def hand(profile: str, stacks: dict[str, int] | list[dict[str, Any]], *lines: str,
         button: str = "1", stakes: dict[str, int] | None = None) -> dict[str, Any]:
    return hand_to_dict(parse_hand(body(profile, stacks, *lines, button=button,
                                        stakes=stakes)))


def refusal(profile: str, stacks: dict[str, int] | list[dict[str, Any]], *lines: str,
            button: str = "1", stakes: dict[str, int] | None = None) -> tuple[str, str]:
    """``(field, detail)`` of the error the last action (or the request) raises."""
    try:
        hand(profile, stacks, *lines, button=button, stakes=stakes)
    except RulesError as err:
        return err.field or "", err.message
    raise AssertionError("the engine accepted it")


def even(n: int, stack: int = 100) -> dict[str, int]:
    return {str(i): stack for i in range(1, n + 1)}
