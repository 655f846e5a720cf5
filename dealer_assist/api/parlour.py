"""``POST /api/v1/parlour/hand`` and ``/parlour/end``: the parlour board game's banker.

Stateless calculators like ``/<game>/settle``: they store nothing and need no login
(``@public``). The engine checks everything; a ``RulesError`` becomes a 422 problem naming the
card, the player or the bet.
"""

from __future__ import annotations

from typing import Any

from ..edge import public
from .operations import CALC_ERRORS, answer, parsed, route
from .shapes.parlour import ParlourEnd, ParlourEndRequest, ParlourHand, ParlourHandRequest

HAND_EXAMPLE = {
    "players": ["Ann", "Bob", "Cy"], "board": {"pool": 3, "sections": {"ante": 5, "8-9-10": 1}},
    "hands": {"Ann": "2c 4c 6c 8c Tc Qc Ac 2d 3d 4d 5d 6d 7d",
              "Bob": "3c 5c 7c 9c Jc Kc 8d 9d Td Jd Qd Kd Ad",
              "Cy": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"},
    "extra": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", "extra_hand": {"action": "keep"},
    "betting": [{"player": "Bob", "type": "bet", "amount": 2},
                {"player": "Cy", "type": "raise", "amount": 3},
                {"player": "Ann", "type": "call"}, {"player": "Bob", "type": "call"}]}
END_EXAMPLE = {
    "players": ["Ann", "Bob", "Cy"], "board": {"pool": 4, "sections": {"ante": 20, "KQ-clubs": 4}},
    "hands": {"Ann": ["As", "Ad", "2c", "3c", "4c"], "Bob": ["Ks", "Kd", "Kc", "5h", "6h"],
              "Cy": ["7s", "8d", "9c", "Th", "2h"]}}


@route("post", "/parlour/hand", "Bank one whole hand of Parlour Americana", tag="calculators",
       body=ParlourHandRequest, answers={"200": ParlourHand, **CALC_ERRORS},
       example=HAND_EXAMPLE,
       description="Stateless: every chip movement of one hand and the board to carry on. See "
                   "docs/api.md, Parlour Americana.")
@public
def parlour_hand() -> Any:
    return answer(ParlourHand, parsed(ParlourHandRequest).got.to_dict())


@route("post", "/parlour/end", "The end-of-game deal of Parlour Americana", tag="calculators",
       body=ParlourEndRequest, answers={"200": ParlourEnd, **CALC_ERRORS}, example=END_EXAMPLE,
       description="Five cards face up each; the best hand wins every chip left on the board. "
                   "See docs/api.md, Parlour Americana.")
@public
def parlour_end() -> Any:
    return answer(ParlourEnd, parsed(ParlourEndRequest).got.to_dict())
