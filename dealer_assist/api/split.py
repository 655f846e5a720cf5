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

from ..edge import json_body, public
from ..rules.fields import RequestError, get_cards, get_int, get_str, need_mapping
from ..rules.games.stud import SplitProfile
from ..rules.games.stud.split_suggest import DEFAULT_SAMPLES, suggest_split
from ..rules.profiles import get_profile
from .operations import CALC_ERRORS, checked, route
from .shapes.house import MAX_SAMPLES, Suggestion, SuggestRequest

EXAMPLE = {"cards": ["As", "Ks", "Qd", "7c", "4h", "2s", "9d"], "dealer_up": "Jh", "seed": 1,
           "samples": 2000, "top": 3}


@route("post", "/split/suggest", "Rank the 21 ways to split a Big/Small box's seven cards",
       tag="calculators", body=SuggestRequest, answers={"200": Suggestion, **CALC_ERRORS},
       example=EXAMPLE)
@public
def split_suggest() -> Any:
    data, error = json_body()
    if error is not None:
        return error
    body = need_mapping(data, "")
    profile = get_profile(get_str(body, "profile", default="split-classic"), "split")
    assert isinstance(profile, SplitProfile)
    cards = get_cards(body, "cards", count=7)
    (up,) = get_cards(body, "dealer_up", count=1)
    known = get_cards(body, "known", default=[])
    seed = get_int(body, "seed", default=0)
    samples = get_int(body, "samples", default=DEFAULT_SAMPLES, minimum=100)
    cap = int(current_app.config.get("SPLIT_MAX_SAMPLES", MAX_SAMPLES))
    if samples > cap:
        raise RequestError(f"samples must be at most {cap:,}", field="samples", value=samples)
    top = get_int(body, "top", default=3, minimum=1)
    checked(data)
    result = suggest_split(cards, up, seed=seed, profile=profile, known=known, samples=samples)
    return result.to_dict(top=min(top, 21))
