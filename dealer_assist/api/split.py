"""``POST /api/v1/split/suggest``: how to split a Big/Small box's seven cards (stateless).

The rules package has no hidden randomness: the request may give a ``seed`` (default 0), so the
same request always gets the same answer. ``samples`` is bounded (``SPLIT_MAX_SAMPLES``,
default :data:`MAX_SAMPLES`; above it a 422 names the field) to keep one anonymous call well
under a second of CPU. Public on purpose (``@public``): it stores nothing; ``edge.limits``
rate-limits it.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from ..edge import public
from ..rules.games.stud.split_suggest import suggest_split
from .operations import CALC_ERRORS, answer, parsed, route
from .shapes.house import MAX_SAMPLES, Suggestion, SuggestRequest

EXAMPLE = {"cards": ["As", "Ks", "Qd", "7c", "4h", "2s", "9d"], "dealer_up": "Jh", "seed": 1,
           "samples": 2000, "top": 3}


@route("post", "/split/suggest", "Rank the 21 ways to split a Big/Small box's seven cards",
       tag="calculators", body=SuggestRequest, answers={"200": Suggestion, **CALC_ERRORS},
       example=EXAMPLE)
@public
def split_suggest() -> Any:
    cap = int(current_app.config.get("SPLIT_MAX_SAMPLES", MAX_SAMPLES))
    asked = parsed(SuggestRequest, max_samples=cap).got
    result = suggest_split(asked.cards, asked.dealer_up, seed=asked.seed,
                           profile=asked.profile, known=asked.known, samples=asked.samples)
    return answer(Suggestion, result.to_dict(top=min(asked.top, 21)))
