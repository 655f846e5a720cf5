"""``POST /api/v1/poker/hand``: the state of a player-versus-player hand.

A hand so far in (profile, stakes, button, seats clockwise, actions), its state out: whose turn,
what he may do and for how much, the pot, and once complete who wins which pot. Stateless and
public like the other calculators (``@public``): it stores nothing.
"""

from __future__ import annotations

from typing import Any

from ..edge import public
from ..rules.games.poker import hand_to_dict
from .operations import CALC_ERRORS, answer, parsed, route
from .shapes.poker import PokerHand, PokerHandRequest

EXAMPLE = {"profile": "draw32-pot-limit", "stakes": {"small_blind": 1, "big_blind": 2,
                                                     "over_blind": 4},
           "button": "1",
           "seats": [{"seat": "1", "stack": 500}, {"seat": "2", "stack": 120},
                     {"seat": "3", "stack": 200}, {"seat": "4", "stack": 300,
                                                   "missed": "small_big"}],
           "actions": [{"type": "raise", "seat": "1", "to": 15}]}


@route("post", "/poker/hand",
       "The state of a player-versus-player hand (Americana stud, 32-card draw)",
       tag="calculators", body=PokerHandRequest, answers={"200": PokerHand, **CALC_ERRORS},
       example=EXAMPLE,
       description="Stateless: whose turn, what he may do, the pot and, once complete, who wins "
                   "which pot. See docs/api.md, Poker room.")
@public
def poker_hand() -> Any:
    return answer(PokerHand, hand_to_dict(parsed(PokerHandRequest).got))
