"""``POST /api/v1/parlour/hand`` and ``/parlour/end``: the parlour board game's banker (issue 16).

Stateless calculators like ``/<game>/settle``: they store nothing and need no login
(``@public``). The engine checks everything; a ``RulesError`` becomes a 422 problem naming the
card, the player or the bet.
"""

from __future__ import annotations

from typing import Any

from ..rules.fields import need_mapping
from ..rules.games.parlour.calculator import end_of_game_request, settle_hand_request
from ..web.security import public
from . import bp
from .calculator import json_body


@bp.post("/parlour/hand")
@public
def parlour_hand() -> Any:
    data, error = json_body()
    if error is not None:
        return error
    return settle_hand_request(need_mapping(data, "")).to_dict()


@bp.post("/parlour/end")
@public
def parlour_end() -> Any:
    data, error = json_body()
    if error is not None:
        return error
    return end_of_game_request(need_mapping(data, "")).to_dict()
