"""The table screen's players: who plays each box, and rated players sitting down.

On the bets form each box names its player: a seat letter (an anonymous player) or the card of
a rated player seated at the table; one tap links a box to the player of the box beside it
(``static/live.js``). A rated player sits down in one step: his card number (found, or created
when new; only the pit and management may give a name) and the visit starts. His leave is one
tap. The croupier sees card numbers and seat letters, never names.
"""

from __future__ import annotations

from typing import Any

from flask import flash, g, redirect, request, url_for
from flask_babel import gettext
from sqlmodel import Session
from werkzeug.datastructures import MultiDict

from .. import db
from ..edge import PageBlueprint, Refused, on_refusal, role_required
from ..i18n import wording
from ..services.players import cards
from ..services.rounds import live
from ..services.tables import tables
from .live_refusal import Refusal, keep
from .tables import floor_zone

bp = PageBlueprint("table_players", __name__)
RECORDERS = tuple(sorted(live.RECORDERS))
#: the seat letters the bets form offers (a table has at most ``tables.MAX_BOXES`` boxes)
LETTERS = "ABCDEFGHI"


def bets_context(session: Session, table: tables.TableView) -> dict[str, Any]:
    """What the bets form needs to name each box's player."""
    return {"seated": cards.seated(session, table.id, g.user.role),
            "letters": LETTERS[:max(table.boxes, 1)],
            "can_name": cards.may_see_names(g.user.role), "floor_zone": floor_zone()}


def chosen(form: MultiDict[str, str], box: int) -> dict[str, str] | None:
    """Box ``box``'s player as the form chose him (``seat:A``, ``card:100234``); the engine
    checks the value."""
    raw = form.get(f"player_{box}", "").strip()
    kind, _sep, value = raw.partition(":")
    if kind in ("seat", "card") and value:
        return {kind: value}
    return None


def _back(table_id: int) -> Any:
    return redirect(url_for("live.screen", table_id=table_id), 303)


def _sit_down_refused(err: Refused, table_id: int) -> Any:
    keep(table_id, request.form, Refusal(wording.say(err.message),
                                         err.field if err.field in ("card", "name") else None))
    return _back(table_id)


def _leave_refused(err: Refused, table_id: int) -> Any:
    flash(wording.say(err.message), "error")
    return _back(table_id)


@bp.post("/tables/<int:table_id>/live/players")
@on_refusal(_sit_down_refused)
@role_required(*RECORDERS)
def sit_down(table_id: int) -> Any:
    found = cards.sit_down(db.get_session(), table_id=table_id,
                           card=request.form.get("card", ""),
                           name=request.form.get("name"), actor_id=g.user.id)
    flash(gettext("Card %(card)s is seated: choose it for his boxes.", card=found.card),
          "success")
    return _back(table_id)


@bp.post("/tables/<int:table_id>/live/players/leave")
@on_refusal(_leave_refused)
@role_required(*RECORDERS)
def leave(table_id: int) -> Any:
    card = request.form.get("card", "")
    cards.leave(db.get_session(), table_id=table_id, card=card, actor_id=g.user.id)
    flash(gettext("Card %(card)s has left the table.", card=card.strip().upper()), "success")
    return _back(table_id)
