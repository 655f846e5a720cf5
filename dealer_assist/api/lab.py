"""``POST /api/v1/lab/advise``: every option of a box's cards, ranked by expected result.

Staff only (any signed-in role: the advisor shows no recorded data, but it is a lab tool, not a
public calculator). The body names the profile, the stage and the cards; the answer lists every
option the rules allow, best first, each with its expected result per ANTE and in chips for the
box's ANTE, the standard error and how it was found (``lab.advice``). ``precise`` (sampled
draws to measure and correct the model) is bounded by ``LAB_MAX_PRECISE`` (default 2,000) to
keep one call's CPU bounded. A game the lab does not cover is a 422 naming the profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app

from ..i18n.decisions import option_label
from ..models.people import Role
from ..rules.cards import ALL_CARDS
from ..rules.errors import IllegalActionError
from ..rules.profiles import get_profile
from ..rules.request import RequestError, get_cards, get_int, get_str, need_mapping
from ..web.security import role_required
from . import bp
from .calculator import json_body

MAX_PRECISE = 2000
_CODE = {c.index: c.code for c in ALL_CARDS}


def _optional_cards(body: Mapping[str, Any], name: str) -> list[Any] | None:
    return list(get_cards(body, name)) if body.get(name) is not None else None


@bp.post("/lab/advise")
@role_required(*sorted(r.value for r in Role))
def lab_advise() -> Any:
    from ..lab.advice import STAGES, advise
    data, error = json_body()
    if error is not None:
        return error
    body = need_mapping(data, "")
    profile = get_profile(get_str(body, "profile"))
    stage = get_str(body, "stage", default="deal", choices=STAGES)
    cards = get_cards(body, "cards")
    up = _optional_cards(body, "up")
    ante = get_int(body, "ante", default=profile.min_ante, minimum=1)
    bonus = get_int(body, "bonus", default=0, minimum=0)
    precise = get_int(body, "precise", default=0, minimum=0)
    limit = int(current_app.config.get("LAB_MAX_PRECISE", MAX_PRECISE))
    if precise > limit:
        raise RequestError(f"precise must be at most {limit:,}", field="precise", value=precise)
    try:
        advice = advise(profile, stage, cards, up=up[0] if up else None,
                        dealer=_optional_cards(body, "dealer"),
                        seen=_optional_cards(body, "seen") or (), ante=ante, bonus=bonus,
                        small=_optional_cards(body, "small"), precise=precise)
    except NotImplementedError as err:
        raise IllegalActionError("the lab has no advisor for profile %(name)s: %(why)s",
                                 name=profile.name, why=str(err), field="profile",
                                 value=profile.name) from None
    return {"profile": advice.profile, "game": advice.game, "stage": advice.stage,
            "ante": ante, "unit": "ANTE", "seconds": round(advice.seconds, 3),
            "notes": advice.notes, "best": _option(advice.best, ante),
            "options": [_option(o, ante) for o in advice.options]}


def _option(o: Any, ante: int) -> dict[str, Any]:
    return {"action": o.action, "cards": [_CODE[c] for c in o.cards],
            "label": option_label(o.action, o.cards), "ev": round(o.ev, 5),
            "ev_chips": round(o.ev * ante, 2), "se": round(o.se, 5), "method": o.method}
