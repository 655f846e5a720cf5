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
from collections.abc import Mapping
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from .. import db
from ..edge import PageBlueprint, json_body, on_refusal, role_required
from ..edge.offline import kept, tap_of, tap_said
from ..edge.problems import busy_problem, problem, rules_problem
from ..edge.status import status_for
from ..i18n import wording
from ..models import Round, utcnow
from ..rules.cards import SUITS
from ..rules.errors import RulesError
from ..rules.fields import RequestError, get_int, get_str, need_mapping
from ..rules.games.registry import get_game
from ..services.errors import ServiceError, ValidationError
from ..services.rounds import live, offline, steps, store
from ..services.rounds.txn import Busy
from ..services.shifts import shifts
from ..services.tables import heard, tables
from ..tablet import bets, refusal
from . import table_players
from .live_refusal import box_of, input_for, take
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
    last_id = live.last_round_id(dbs, table_id) if shift and rnd is None else None
    context: dict[str, Any] = {
        "table": table, "shift": shift, "rnd": rnd, "typed": typed, "new_key": new_key,
        "suits": SUITS, "ranks": RANKS, "error": refusal,
        "defaults": _start_defaults(table_id) if shift else {},
        "last_round": _last_round(shift.id, last_id) if shift else None,
        "data": _data(screen_of(rnd) if rnd is not None else None),
        "engine": _data(_engine(table, rnd, last_id) if shift else None),
        "words": _words(),
        # the bets form asks for a bonus bet where the game's bets carry one (its engine says)
        "takes_bonus": bool(getattr(spec.engine, "bonus_field", False))}
    context.update(table_players.bets_context(dbs, table))  # the bets form's players
    return render_template("live/table.html", **context)


def _data(value: Any) -> str:
    """JSON for a ``data-`` attribute (the page escapes it; the CSP allows no inline script,
    not even a JSON one)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _engine(table: Any, rnd: live.LiveRound | None, last_id: int | None) -> dict[str, Any]:
    """What the tablet's own engine needs to go on offline (``dealer_assist.tablet.offline``):
    the open round's rules and events, the rules a new round would start with, the language;
    with no round open, ``last_round_id``: the table's rounds up to it are over on the server
    (paid, or voided by a pit boss meanwhile), so the tablet's copy of one is not shown again."""
    out: dict[str, Any] = {"rules": store.table_rules(table), "lang": wording.words().language}
    if rnd is None:
        out["last_round_id"] = last_id
    else:
        out["round"] = {"id": rnd.round.id, "number": rnd.round.number,
                        "status": rnd.round.status, "rules": rnd.rules,
                        "events": _events(rnd.events, 0)}
    return out


def _events(events: list[store.EventView], since: int) -> list[dict[str, Any]]:
    """The round's events after ``since``, as the tablet's mirror keeps them."""
    return [{"seq": e.seq, "type": e.type, "payload": e.payload, "key": e.idempotency_key}
            for e in events if e.seq > since]


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
        # offline at the table (static/offline.js)
        "OFFLINE": gettext("OFFLINE"), "provisional": gettext("provisional"),
        "steps waiting": gettext("steps waiting to be sent: %(n)s"),
        "needs the server": gettext("This needs the server: it is done once the table is "
                                    "online again."),
        "engine refused": gettext("this tablet's engine is not the server's: nothing can be "
                                  "recorded until the server answers"),
        "refused step": gettext("Round %(number)s: the server refused a step recorded "
                                "offline: %(why)s"),
        "later steps kept": gettext("Not sent after it: %(n)s."),
        "I have read it": gettext("I have read it"),
    })


def _start_defaults(table_id: int) -> dict[str, dict[str, Any]]:
    """Last round's bets, to repeat them with one tap (with their players)."""
    dbs = db.get_session()
    last = live.last_round_id(dbs, table_id)
    if last is None:
        return {}
    events = store.events(dbs, last)
    first = events[0].payload if events and events[0].type == "place" else {}
    return {str(b["box"]): b for b in first.get("boxes", [])}


def _last_round(shift_id: int, last: int | None) -> Round | None:
    """The table's latest round if it belongs to the open shift (paid or voided)."""
    row = db.get_session().get(Round, last) if last is not None else None
    return row if row is not None and row.shift_id == shift_id else None


# --- a tap ------------------------------------------------------------------------------------

def _start_refused(err: RulesError | ServiceError, **_: Any) -> Any:
    """A refused start named with the box and the bets form's input; one from the tablet's
    offline queue is kept for the pit (``edge.offline.kept``)."""
    form = _form()
    field = getattr(err, "field", None)
    target = input_for(field, getattr(err, "value", None), form) or field
    box = box_of(target)
    what = gettext("Box %(box)s", box=box) if box else ""
    return kept(_refused(err, what, target, box), tap_said(form), type=steps.PLACE,
                key=str(form.get("key", "")),
                payload={k: v for k, v in form.items() if k != "csrf_token"},
                table_id=(request.view_args or {}).get("table_id"),
                reason=getattr(err, "message", None))


@bp.post("/tables/<int:table_id>/live/rounds")
@on_refusal(_start_refused)
@role_required(*RECORDERS)
def start_round(table_id: int) -> Any:
    """"Start round": the bets form's boxes (``ante_N``, ``bonus_N``, ``player_N``) and the
    form's key, as a form or the same fields as a JSON object (the tablet's offline queue sends
    it so), with ``tapped_at`` and ``offline``; answered with the round as the screen draws it
    (201, or 200 for a resend)."""
    form = _form()
    tap = tap_of(form)
    done = steps.begin(db.get_session(), table_id=table_id, actor_id=g.user.id,
                       boxes=_box_stakes(form), idempotency_key=str(form.get("key", "")),
                       follow=True, tapped_at=tap.tapped_at, offline=tap.offline)
    return _answer(done)


def _form() -> MultiDict[str, str]:
    """The start's fields: the form, or a JSON object's (its values as the form's strings)."""
    if not request.is_json:
        return request.form
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return MultiDict()
    return MultiDict({str(k): v if isinstance(v, str) else json.dumps(v)
                      for k, v in data.items() if v is not None})


def _box_stakes(form: MultiDict[str, str]) -> list[live.BoxStake]:
    """The boxes with an ANTE typed (``tablet.bets``: read the same offline); the engine checks
    them against the table's boxes."""
    try:
        typed = bets.boxes(list(form.items(multi=True)))
    except bets.BetsError as err:
        raise ValidationError(err.message, field=err.field) from None
    return [live.BoxStake(b["box"], b["ante"], b.get("bonus", 0), player=b.get("player"))
            for b in typed]


def _step_refused(err: RulesError | ServiceError, **_: Any) -> Any:
    """The refused step's problem, said as the tablet says it offline (``tablet.refusal``:
    named with its box, the step's label and the input it is about); one from the tablet's
    offline queue is kept for the pit (``edge.offline.kept``)."""
    body = request.get_json(silent=True)
    body = body if isinstance(body, dict) else {}
    found = body.get("payload")
    payload: dict[str, Any] = found if isinstance(found, dict) else {}
    label = str(body.get("label") or "")
    if isinstance(err, RulesError):
        said = refusal.rule_problem(err, payload, label, wording.words())
        said.pop("type")
        answer = problem(said.pop("status"), said.pop("title"), said.pop("detail"), **said)
    else:
        what, box = refusal.step_what(payload, label, wording.words())
        answer = _refused(err, what, getattr(err, "field", None), box)
    return kept(answer, tap_said(body), type=str(body.get("type") or ""), payload=payload,
                key=str(body.get("idempotency_key") or ""),
                round_id=(request.view_args or {}).get("round_id"),
                reason=getattr(err, "message", None))


@bp.post("/live/rounds/<int:round_id>/steps")
@on_refusal(_step_refused)
@role_required(*RECORDERS)
def record(round_id: int) -> Any:
    """One tap: ``{"type", "payload", "idempotency_key", "expected_seq"}`` as the JSON API's
    step (with ``tapped_at``/``offline`` from the tablet's queue), answered with the round as
    the screen draws it next."""
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
    tap = tap_of(body)  # when it was tapped, and whether it waited offline
    done = steps.record(db.get_session(), round_id=round_id, actor_id=g.user.id, type=type,
                        payload=payload, idempotency_key=key, expected_seq=expected,
                        follow=True, tapped_at=tap.tapped_at, offline=tap.offline)
    status = 202 if type == live.REDEAL and done.created else None
    return _answer(done, status, since=expected or 0)


def _engine_refused(err: RulesError | ServiceError, **_: Any) -> Any:
    return _refused(err, "", getattr(err, "field", None), None)


@bp.post("/tables/<int:table_id>/live/ping")
@on_refusal(_engine_refused)
@role_required(*RECORDERS)
def ping(table_id: int) -> Any:
    """The table screen is there (every 3 s), with its offline queue's figures
    ``{queued_steps, queued_rounds, offline_since}``; answered ``{ok: true, now}``."""
    data, error = json_body()
    if error is not None:
        return error
    try:
        queue = _queue(need_mapping(data, ""))
    except RequestError as err:
        return problem(400, "Bad request", err.message, field=err.field)
    now = utcnow()
    device = g.get("device")
    if device is not None and device.table_id == table_id:
        heard.heard(db.get_session().connection(), device.id, now, queue)  # the edge commits
    return {"ok": True, "now": now.isoformat()}


def _queue(body: Mapping[str, Any]) -> heard.Queue:
    counts = [body.get(name, 0) for name in ("queued_steps", "queued_rounds")]
    for name, value in zip(("queued_steps", "queued_rounds"), counts, strict=True):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10**6:
            raise RequestError("%(name)s must be a whole number from 0", name=name, field=name)
    since = body.get("offline_since")
    return heard.Queue(counts[0], counts[1],
                       None if since is None else offline.instant(since, "offline_since"))


@bp.post("/live/rounds/<int:round_id>/suggest")
@on_refusal(_engine_refused)
@role_required(*RECORDERS)
def suggest(round_id: int) -> Any:
    """The engine's suggested entry for a step (a Big/Small split): nothing is recorded."""
    return _ask_engine(round_id, lambda found: {"payload": found[0],
                                                 "said": wording.say(found[1])},
                       "suggest_step")


@bp.post("/live/rounds/<int:round_id>/refine")
@on_refusal(_engine_refused)
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
    body = need_mapping(data, "")
    rnd = live.load(db.get_session(), round_id)
    found = getattr(rnd.engine, hook)(rnd.state, get_str(body, "type"),
                                    need_mapping(body.get("payload", {}), "payload"))
    if found is None:
        return problem(422, "No suggestion", gettext("The engine has no suggestion here."))
    return answer(found)


def _answer(done: steps.RoundRecorded, status: int | None = None, since: int = 0) -> Any:
    """The round as the screen draws it next, and the events after ``since`` (the tablet's
    mirror of the round, for its engine to go on offline)."""
    rnd = done.live_round
    body = {"round": screen_of(rnd, before=done.before), "created": done.created,
            "events": _events(rnd.events, since)}
    if not since:  # a start: the round's own rules, for the tablet's mirror
        body["rules"] = rnd.rules
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
