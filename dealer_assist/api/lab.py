"""``POST /api/v1/lab/advise``: every option of a box's cards, ranked by expected result.

Staff only (every role but the read-only auditor: the advisor shows no recorded data, but it
is a lab tool, not a public calculator). The body names the profile, the stage and the cards;
the answer lists every option the rules allow, best first, each with its expected result per
ANTE and in chips for the box's ANTE, the standard error and how it was found
(``lab.advice``). ``precise`` (sampled draws to measure and correct the model) is bounded by
``LAB_MAX_PRECISE`` (default :data:`~.shapes.lab.MAX_PRECISE`) to keep one call's CPU
bounded. A game the lab does not cover is a 422 naming the profile.
"""

from __future__ import annotations

from typing import Any

from flask import current_app

from ..edge import role_required
from ..i18n.decisions import option_label
from ..lab.advice import advise
from ..rules.cards import ALL_CARDS
from ..rules.errors import IllegalActionError
from .operations import READ_ERRORS, WRITE, answer, parsed, route
from .shapes.lab import MAX_PRECISE, Advice, AdviseRequest

#: staff who may ask the advisor: every role but the auditor, who reads and never posts
#: (the auditor is refused every write, and the advisor is a POST)
LAB_ROLES = ("admin", "croupier", "pit_boss", "shift_manager")
CODE = {c.index: c.code for c in ALL_CARDS}
EXAMPLE = {"profile": "russian-classic", "stage": "deal",
           "cards": ["As", "Kd", "7h", "4c", "2s"], "ante": 100}


@route("post", "/lab/advise",
       "Every option of a box's cards, ranked by expected result (the lab's advisor)",
       tag="lab", body=AdviseRequest, parameters=(WRITE[0],), example=EXAMPLE,
       answers={"200": Advice, **READ_ERRORS, "400": "BadRequest", "422": "Unprocessable"},
       description="Staff only. Stages: deal (five cards, and the dealer's up card where "
                   "shown), split (Big/Small: seven cards), no_game (the final hand against "
                   "the dealer's five cards). See docs/api.md, Game-math lab.")
@role_required(*LAB_ROLES)
def lab_advise() -> Any:
    limit = int(current_app.config.get("LAB_MAX_PRECISE", MAX_PRECISE))
    asked = parsed(AdviseRequest, max_precise=limit).got
    profile, ante = asked.profile, asked.ante
    try:
        advice = advise(profile, asked.stage, asked.cards, up=asked.up[0] if asked.up else None,
                        dealer=asked.dealer, seen=asked.seen or (), ante=ante,
                        bonus=asked.bonus, small=asked.small, precise=asked.precise)
    except NotImplementedError as err:
        raise IllegalActionError("the lab has no advisor for profile %(name)s: %(why)s",
                                 name=profile.name, why=str(err), field="profile",
                                 value=profile.name) from None
    return answer(Advice, {
        "profile": advice.profile, "game": advice.game, "stage": advice.stage, "ante": ante,
        "unit": "ANTE", "seconds": round(advice.seconds, 3), "notes": advice.notes,
        "best": _option(advice.best, ante), "options": [_option(o, ante) for o in advice.options]})


def _option(o: Any, ante: int) -> dict[str, Any]:
    return {"action": o.action, "cards": [CODE[c] for c in o.cards],
            "label": option_label(o.action, o.cards), "ev": round(o.ev, 5),
            "ev_chips": round(o.ev * ante, 2), "se": round(o.se, 5), "method": o.method}
