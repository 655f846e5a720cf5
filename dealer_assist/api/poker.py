"""``POST /api/v1/poker/hand``: the state of a player-versus-player hand (issue 18).

A hand so far in (profile, stakes, button, seats clockwise, actions), its state out: whose turn,
what he may do and for how much, the pot, and once complete who wins which pot. Stateless and
public like the other calculators (``@public``): it stores nothing.
"""

from __future__ import annotations

from typing import Any

from ..rules.games.poker import hand_to_dict, parse_hand
from ..web.security import public
from . import bp
from .calculator import json_body


@bp.post("/poker/hand")
@public
def poker_hand() -> Any:
    data, error = json_body()
    if error is not None:
        return error
    return hand_to_dict(parse_hand(data))
