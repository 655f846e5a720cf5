"""Stateless calculators: ``POST /api/v1/<game>/settle`` settles one complete round.

They store nothing and need no login (declared ``@public``); the engine does all the checking.
"""

from __future__ import annotations

from typing import Any

from ..edge import json_body, problem, public
from ..rules.games import GAMES
from ..rules.request import need_mapping
from . import bp


@bp.post("/<game>/settle")
@public
def settle(game: str) -> Any:
    spec = GAMES.get(game)
    if spec is None:
        known = ", ".join(sorted(GAMES)) or "none yet"
        return problem(404, "Unknown game", f"no calculator for '{game}' (known: {known})")
    data, error = json_body()
    if error is not None:
        return error
    return spec.settle_request(need_mapping(data, "")).to_dict()
