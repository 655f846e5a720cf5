"""Rated players' ratings: ``GET /api/v1/players/<card>/ratings?day=YYYY-MM-DD``.

Pit and management roles only (they see the player's name; anyone else gets 403, no session
401). Without ``day``: every gaming day the player played, with each day's table sessions (the
rating slips) and his rating over all of them; with ``day``: that gaming day only. The figures
and their definitions: ``services.players.ratings`` and ``docs/api.md``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import g, request

from .. import db
from ..edge import role_required
from ..services.errors import ValidationError
from ..services.players import cards, rated
from ..services.players.played import EdgeBook
from .operations import answer, path_param, query, read_answers, route
from .shapes.players import PlayerRatings

#: pit and management: who sees ratings and names
READERS = tuple(sorted(cards.NAME_READERS))


def gaming_day(raw: str | None) -> date | None:
    """``?day=2026-03-14`` (None when absent); anything else is a 422 naming ``day``."""
    if not raw:
        return None
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ValidationError("day must be a date like 2026-03-14.", field="day") from None


@route("get", "/players/<string:card>/ratings",
       "A rated player's ratings: per gaming day, per table session, and over them",
       tag="players", answers={**read_answers(PlayerRatings), "422": "Unprocessable"},
       parameters=(path_param("card", "the player's card number", type="string"),
                   query("day", "one gaming day only", type="string", format="date")))
@role_required(*READERS)
def player_ratings(card: str) -> Any:
    day = gaming_day(request.args.get("day"))
    with db.session_scope(write=False) as dbs:
        found = rated.player_ratings(
            dbs, card, reader_role=g.user.role, day=day,
            edges=EdgeBook(dbs))
        return answer(PlayerRatings,
                      {"day": day.isoformat() if day else None, **found.to_dict()})
