"""Hand-built Parlour Americana deals whose outcomes are worked out by hand in the tests."""

from __future__ import annotations

from typing import Any

#: Ann deals to Bob and Cy; the extra hand is every spade.
#: Ann: 2c 4c ... Ac and 2d..7d; Bob: 3c 5c ... Kc and 8d..Ad; Cy: every heart.
SUITED = {
    "players": ["Ann", "Bob", "Cy"],
    "hands": {"Ann": "2c 4c 6c 8c Tc Qc Ac 2d 3d 4d 5d 6d 7d",
              "Bob": "3c 5c 7c 9c Jc Kc 8d 9d Td Jd Qd Kd Ad",
              "Cy": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"},
    "extra": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
}

#: four players; 5c sits in the dead (extra) hand and Ann holds nothing but clubs.
STOPS = {
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "hands": {"Ann": "2c 3c 4c 6c 7c 8c 9c Tc Jc Qc",
              "Bob": "9d Td Jd Qd Kd Ad 2h 3h 4h 5h 6h",
              "Cy": "7h 8h 9h Th Jh Qh Kh Ah 2s 3s 4s",
              "Dee": "5s 6s 7s 8s 9s Ts Js Qs Ks As"},
    "extra": "5c Kc Ac 2d 3d 4d 5d 6d 7d 8d",
}


def body(deal: dict[str, Any], *, betting: list[dict[str, Any]] | None = None,
         extra_hand: dict[str, Any] | None = None, variant: str = "basic",
         board: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ``POST /api/v1/parlour/hand`` request for ``deal``; by default everybody passes."""
    players = deal["players"]
    order = [*players[1:], players[0]]
    return {
        "profile": "parlour-americana", "variant": variant, "players": players,
        "board": board or {"pool": 0, "sections": {}},
        "hands": {p: cards.split() for p, cards in deal["hands"].items()},
        "extra": deal["extra"].split(),
        "extra_hand": extra_hand or {"action": "keep"},
        "betting": betting if betting is not None else [{"player": p, "type": "pass"}
                                                        for p in order],
    }
