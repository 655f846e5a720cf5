"""The table screen's round on the server: :mod:`dealer_assist.tablet.screen` (the one builder,
which the tablet runs offline too) over the replayed round, in this request's language, plus
what only the server knows: a pit boss's void request.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext

from ..i18n import wording
from ..i18n.formats import when
from ..rules.engine import Step
from ..services.rounds import live
from ..tablet import screen as built
from .tables import floor_zone


def shown(rnd: live.LiveRound) -> built.Shown:
    """The replayed round as the screen builder reads it."""
    return built.Shown(
        id=rnd.round.id, number=rnd.round.number, status=rnd.round.status, open=rnd.is_open,
        last_seq=rnd.last_seq, frozen=rnd.void_pending, phase=rnd.phase, engine=rnd.engine,
        state=rnd.state, steps=rnd.steps, settlement=rnd.settlement, ready=rnd.ready,
        undo=built.last_effective(rnd.events, rnd.last_step) if rnd.can_undo else None)


def screen(rnd: live.LiveRound, *, before: Any = None) -> dict[str, Any]:
    """The round as the screen draws it (``before``: the engine's state this tap started
    from, to say the fee to collect or give back now)."""
    out = built.screen(shown(rnd), wording.words(), before=before)
    out["void"] = _void(rnd)
    return out


def step_view(step: Step) -> dict[str, Any]:
    """One step the engine offers, as described and said in this request's language."""
    return built.step_view(step, wording.words())


def _void(rnd: live.LiveRound) -> dict[str, Any] | None:
    request = rnd.void_request
    if rnd.void_pending and request is not None:
        return {"pending": True, "reason": wording.say(request.reason),
                "said": gettext("Asked by") + " " + (request.requested_by_name or "") + " "
                + gettext("at") + " " + when(request.requested_at, "time", zone=floor_zone()) + ". "
                + gettext("Nothing can be recorded until a pit boss decides: approved, the "
                          "next round's bets open here; refused, the round goes on where it "
                          "stopped.")}
    refused = rnd.void_refused
    if refused is not None:
        said = gettext("Void refused by") + " " + (refused.decided_by_name or "")
        if refused.note:
            said += ": “" + refused.note + "”"
        return {"pending": False, "said": said + ". " + gettext("The round goes on.")}
    return None
