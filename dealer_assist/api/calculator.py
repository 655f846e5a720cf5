"""Stateless calculators: ``POST /api/v1/<game>/settle`` settles one complete round.

They store nothing and need no login (declared ``@public``); the engine does all the checking.
"""

from __future__ import annotations

from typing import Any

from ..edge import problem, public
from ..rules.games.registry import GameSpec, games
from .operations import CALC_ERRORS, answer, parsed, path_param, route
from .shapes.house import Settlement, SettleRequest


def calculators() -> list[GameSpec]:
    """The house games with a calculator, as the registry lists them (``rules/registry.py``)."""
    return [s for s in games() if s.banked and s.settle_request is not None]


#: the games with a calculator, as the path names them (the OpenAPI document lists them anew
#: each time it is drawn: ``openapi._parameter``)
GAME = path_param("game", "the house game", type="string",
                  enum=lambda: [s.name for s in calculators()])
EXAMPLE = {"profile": "caribbean-classic", "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
           "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "4c", "4h", "Js"],
                      "decision": "bet"}]}


@route("post", "/<game>/settle", "Settle one complete round", tag="calculators",
       body=SettleRequest, answers={"200": Settlement, **CALC_ERRORS, "404": "NotFound"},
       parameters=(GAME,), example=EXAMPLE,
       description="Stateless: stores nothing, needs no login. See docs/api.md.")
@public
def settle(game: str) -> Any:
    spec = next((s for s in calculators() if s.name == game), None)
    if spec is None or spec.settle_request is None:
        known = ", ".join(sorted(s.name for s in calculators())) or "none yet"
        return problem(404, "Unknown game", f"no calculator for '{game}' (known: {known})")
    settlement = parsed(SettleRequest, settle=spec.settle_request).got
    return answer(Settlement, settlement.to_dict())
