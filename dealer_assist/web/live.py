"""The table screen: the live round on a tablet, one request per croupier tap.

The page is drawn once (``GET``): the header, the bets form and the round as data
(:mod:`.live_screen`), which ``static/live.js`` draws from the engine's own description of each
step (``Step.inputs``): no template branch per step type, no payload built per step type here.
Every tap is one ``POST`` whose JSON answer is the round as the screen draws it next: no
redirect, no second request, the page never reloads during a round.

A tap goes through the one record path the JSON API uses (``services.rounds.steps``): the round
is read once, outside the write lock, verified by the engine and written by compare-and-append;
what the engine records by itself after it (``Step.auto``: a deal with nothing face up, a forced
BET) is recorded in the same write. The body carries a fresh idempotency key (a double tap
records once) and the last sequence number the screen showed (a step based on a stale screen is
a 409, and the screen shows the round as it is). A refusal is a problem body naming the box and
the field; the round is left exactly as it was.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import db
from ..edge import PageBlueprint, json_body, role_required
from ..edge.problems import busy_problem, problem, rules_problem
from ..edge.status import status_for
from ..i18n import wording
from ..models import Round
from ..rules.cards import SUITS
from ..rules.errors import RulesError
from ..rules.fields import RequestError, get_int, get_str, need_mapping
from ..rules.games.registry import get_game
from ..services.errors import ServiceError, ValidationError
from ..services.rounds import live, steps
from ..services.rounds import store as rounds
from ..services.rounds.txn import Busy
from ..services.shifts import shifts
from ..services.tables import tables
from . import table_players
from .forms import whole_number
from .live_refusal import box_of, input_for, payload_input, take
from .live_screen import screen as screen_of
from .live_screen import step_view

bp = PageBlueprint("live", __name__)
RECORDERS = tuple(sorted(live.RECORDERS))
RANKS = "AKQJT98765432"


def new_key() -> str:
    """A fresh idempotency key for one rendered form."""
    return uuid.uuid4().hex


@bp.app_template_filter("card")
def card_html(code: str) -> str:
    """``Ah`` -> ``A♥`` (10 for T), the way a croupier reads a card."""
    rank, suit = code[:-1], code[-1]
    symbol = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]
    return ("10" if rank == "T" else rank) + symbol


# --- the page ---------------------------------------------------------------------------------

@bp.get("/tables/<int:table_id>/live")
@role_required(*RECORDERS)
def screen(table_id: int) -> Any:
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    spec = get_game(table.game)
    if spec.poker_room:
        return redirect(url_for("poker.screen", table_id=table_id))
    typed, refusal = take(table_id)  # a rated player's sitting down refused (table_players)
    if refusal is not None and refusal.input not in ("card", "name"):
        flash(refusal.message, "error")  # not about an input on this page: on top
        refusal = None
    shift = shifts.open_shift_of(dbs, table_id)
    round_id = live.open_round_id(dbs, table_id) if shift else None
    rnd = live.load(dbs, round_id) if round_id else None
    context: dict[str, Any] = {
        "table": table, "shift": shift, "rnd": rnd, "typed": typed, "new_key": new_key,
        "suits": SUITS, "ranks": RANKS, "error": refusal,
        "defaults": _start_defaults(table_id) if shift else {},
        "last_round": _last_round(shift.id, table_id) if shift and rnd is None else None,
        "data": _data(screen_of(rnd) if rnd is not None else None),
        "words": _words(),
        # the bets form asks for a bonus bet where the game's bets carry one (its engine says)
        "takes_bonus": bool(getattr(spec.flow, "bonus_field", False))}
    context.update(table_players.bets_context(dbs, table))  # the bets form's players
    return render_template("live/table.html", **context)


def _data(value: Any) -> str:
    """JSON for a ``data-`` attribute (the page escapes it; the CSP allows no inline script,
    not even a JSON one)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _words() -> str:
    """The renderer's own words (its buttons and hints), in the page's language."""
    return _data({
        "Box": gettext("Box"), "Dealer": gettext("Dealer"), "Record": gettext("Record"),
        "Cancel": gettext("Cancel"), "Paid": gettext("Paid") + " ✓",
        "no cards yet": gettext("no cards yet"), "face up": gettext("face up"),
        "drew": gettext("drew"), "small": gettext("small"),
        "Bought game:": gettext("Bought game:"), "Small:": gettext("Small:"),
        "Cards": gettext("Cards"), "tap below or type": gettext("tap below or type: as kd 10h"),
        "Suggest": gettext("Suggest"), "Accept": gettext("Accept"),
        "Settlement": gettext("Settlement"), "Boxes": gettext("Boxes"),
        "Amount": gettext("Amount"), "Round": gettext("Round"),
        "offline": gettext("The server did not answer; nothing was recorded. Tap again."),
        "paid": gettext("Round %(number)s paid. Next round."),
        "Dispute": gettext("Dispute"), "Last round": gettext("Last round"),
        "up to the presumptive payout": gettext("up to the presumptive payout"),
    })


def _start_defaults(table_id: int) -> dict[str, dict[str, Any]]:
    """Last round's bets, to repeat them with one tap (with their players)."""
    dbs = db.get_session()
    last = live.last_round_id(dbs, table_id)
    if last is None:
        return {}
    events = rounds.events(dbs, last)
    first = events[0].payload if events and events[0].type == "place" else {}
    return {str(b["box"]): b for b in first.get("boxes", [])}


def _last_round(shift_id: int, table_id: int) -> Round | None:
    """The table's latest round if it belongs to the open shift (paid or voided)."""
    last = live.last_round_id(db.get_session(), table_id)
    row = db.get_session().get(Round, last) if last is not None else None
    return row if row is not None and row.shift_id == shift_id else None


# --- a tap ------------------------------------------------------------------------------------

@bp.post("/tables/<int:table_id>/live/rounds")
@role_required(*RECORDERS)
def start_round(table_id: int) -> Any:
    """"Start round": the bets form's boxes (``ante_N``, ``bonus_N``, ``player_N``) and the
    form's key; answered with the round as the screen draws it (201, or 200 for a resend)."""
    try:
        done = steps.begin(db.get_session(), table_id=table_id, actor_id=g.user.id,
                           boxes=_box_stakes(), idempotency_key=request.form.get("key", ""),
                           follow=True)
    except (RulesError, ServiceError, Busy) as err:
        field = getattr(err, "field", None)
        target = input_for(field, getattr(err, "value", None), request.form) or field
        box = box_of(target)
        what = gettext("Box %(box)s", box=box) if box else ""
        return _refused(err, what, target, box)
    return _answer(done)


def _box_stakes() -> list[live.BoxStake]:
    """The boxes with an ANTE typed (the engine checks them against the table's boxes)."""
    stakes = []
    for n in range(1, tables.MAX_BOXES + 1):
        if not request.form.get(f"ante_{n}", "").strip():
            continue
        ante = whole_number(f"ante_{n}", gettext("ANTE of box %(box)s", box=n))
        bonus = 0
        if request.form.get(f"bonus_{n}", "").strip():
            bonus = whole_number(f"bonus_{n}", gettext("Bonus of box %(box)s", box=n))
        stakes.append(live.BoxStake(str(n), ante, bonus,
                                    player=table_players.chosen(request.form, n)))
    if not stakes:
        raise ValidationError("Enter the ANTE of at least one box.", field="ante_1")
    return stakes


@bp.post("/live/rounds/<int:round_id>/steps")
@role_required(*RECORDERS)
def record(round_id: int) -> Any:
    """One tap: ``{"type", "payload", "idempotency_key", "expected_seq"}`` as the JSON API's
    step, answered with the round as the screen draws it next."""
    data, error = json_body()
    if error is not None:
        return error
    try:  # the request's own fields; the payload's are the step's (named with its box)
        body = need_mapping(data, "")
        type = get_str(body, "type")
        payload = need_mapping(body.get("payload", {}), "payload")
        key = get_str(body, "idempotency_key")
        expected = None if body.get("expected_seq") is None else get_int(body, "expected_seq")
    except RequestError as err:
        return rules_problem(err)
    try:
        done = steps.record(db.get_session(), round_id=round_id, actor_id=g.user.id, type=type,
                            payload=payload, idempotency_key=key, expected_seq=expected,
                            follow=True)
    except (RulesError, ServiceError, Busy) as err:
        box = payload.get("box")
        box = str(box) if isinstance(box, (str, int)) else None
        label = str(body.get("label") or "")
        what = gettext("Box %(box)s · %(step)s", box=box, step=label) if box and label \
            else gettext("Box %(box)s", box=box) if box else label
        # the step's input a wrong value is about (``insurance`` -> ``amount``, ``draw`` ->
        # ``cards``, ``split.small`` -> ``small``): the screen puts the message beside it and
        # marks it; a card count keeps the engine's field (the free second card: the screen
        # asks one more card)
        field = getattr(err, "field", None)
        if getattr(err, "code", None) != "card_count":
            field = payload_input(field, getattr(err, "value", None), payload) or field
        return _refused(err, what, field, box)
    status = 202 if type == live.REDEAL and done.created else None
    return _answer(done, status)


@bp.post("/live/rounds/<int:round_id>/suggest")
@role_required(*RECORDERS)
def suggest(round_id: int) -> Any:
    """The engine's suggested entry for a step (a Big/Small split): nothing is recorded."""
    return _ask_engine(round_id, lambda found: {"payload": found[0],
                                                 "said": wording.say(found[1])},
                       "suggest_step")


@bp.post("/live/rounds/<int:round_id>/refine")
@role_required(*RECORDERS)
def refine(round_id: int) -> Any:
    """A step as the engine offers it knowing what was entered so far (the insurance's limit
    once the hand is tapped): nothing is recorded."""
    return _ask_engine(round_id, lambda found: {"step": step_view(found)}, "refine_step")


def _ask_engine(round_id: int, answer: Any, hook: str) -> Any:
    """``{"type", "payload"}`` (what was entered so far) put to the engine's ``hook``
    (``Game.suggest_step``, ``Game.refine_step``), read only; its answer, or a 422 when the
    engine has nothing to say."""
    data, error = json_body()
    if error is not None:
        return error
    try:
        body = need_mapping(data, "")
        rnd = live.load(db.get_session(), round_id)
        found = getattr(rnd.flow, hook)(rnd.state, get_str(body, "type"),
                                        need_mapping(body.get("payload", {}), "payload"))
    except (RulesError, ServiceError) as err:
        return _refused(err, "", getattr(err, "field", None), None)
    if found is None:
        return problem(422, "No suggestion", gettext("The engine has no suggestion here."))
    return answer(found)


def _answer(done: steps.Recorded, status: int | None = None) -> Any:
    rnd = done.live_round
    body = {"round": screen_of(rnd, before=done.before), "created": done.created}
    if not rnd.is_open:
        body["paid"] = gettext("Round %(number)s paid. Next round.", number=rnd.round.number)
        body["round_page"] = url_for("disputes.round_page", round_id=rnd.round.id)
    return body, status or (201 if done.created else 200)


def _refused(err: RulesError | ServiceError | Busy, what: str, field: str | None,
             box: str | None) -> Any:
    """A problem body whose ``detail`` names the box and the step, ``field`` the input."""
    db.get_session().rollback()
    if isinstance(err, Busy):
        return busy_problem(err)
    said = wording.say(err.message)
    detail = f"{wording.say(what)}: {said}" if what and what.lower() not in said.lower() \
        else said
    if isinstance(err, RulesError):
        info = err.problem()
        info.pop("detail", None)
        info["field"] = field or info.get("field")
        return problem(422, "The request breaks a rule", detail, box=box, **info)
    return problem(status_for(err), type(err).__name__, detail, field=field, box=box)
