"""Stateless calculators: ``POST /api/v1/<game>/settle`` settles one complete round.

They store nothing and need no login (declared ``@public``); the engine does all the checking.
"""

from __future__ import annotations

from typing import Any

from flask import request

from ..rules.games import GAMES
from ..rules.request import need_mapping
from ..web.security import public
from . import bp
from .errors import problem


def json_body() -> tuple[Any, Any]:
    """``(data, None)`` for a JSON body, ``(None, problem response)`` for one that is not JSON."""
    data = request.get_json(silent=True, force=True)
    if data is None and request.get_data(cache=True).strip() != b"null":
        return None, problem(400, "Malformed JSON", "the request body is not valid JSON")
    return data, None


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
