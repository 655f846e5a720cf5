"""The poker dealer's screen: seats, stacks, bets, the pot, whose turn, and only the
buttons the engine allows, with its exact amounts.

The screen is the hand replayed from its events (``services.rounds.poker_hands``); every button is
one form with the CSRF token, a fresh idempotency key and the last sequence number seen, so a double
tap records once and a stale screen is a 409. A refused action (an amount out of range, a card
already used) is flashed with the seat and the field and the screen comes back with 422 and the hand
unchanged. Between hands the dealer seats players, records rebuys, sitting out and leaving.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import db
from ..edge import PageBlueprint, Refused, as_id, on_refusal, role_required, status_of
from ..i18n.wording import N_, hand_name, say
from ..rules.games.poker import (
    Action,
    HandState,
    can_act,
    get_poker_profile,
    hand_to_dict,
    poker_profiles,
)
from ..services.errors import Conflict, ValidationError
from ..services.rounds import poker_hands
from ..services.shifts import shifts
from ..services.tables import poker as poker_tables
from ..services.tables import tables
from .forms import whole_number
from .live import card_html, new_key
from .poker_street import as_code, cards_said, refused_up_card

F = TypeVar("F", bound=Callable[..., Any])
bp = PageBlueprint("poker", __name__)
RECORDERS = tuple(sorted(shifts.OPENERS))
#: a poker action in the dealer's words (the Undo button says what it takes back)
ACTION_WORDS = {"street": N_("the up cards"), "bring_in": N_("Bring-in"), "check": N_("Check"),
                "call": N_("Call"), "bet": N_("Bet"), "raise": N_("Raise"), "fold": N_("Fold"),
                "draw": N_("Draw"), "parole": N_("Parole"), "show": N_("Show"),
                "muck": N_("Muck")}
PHASES = {"betting": N_("Betting"), "street": N_("Deal the up cards"), "draw": N_("The draw"),
          "parole": N_("Parole?"), "showdown": N_("Showdown"), "complete": N_("Push the pots")}


def _labels(state: HandState) -> dict[str, str]:
    """The name of each shown hand (stud: the hole card with the four up cards)."""
    return {seat: hand_name(shown["value"])
            for seat, shown in poker_hands.shown_hands(state).items()}


def _dues(rules: dict[str, Any], state: HandState) -> dict[str, str]:
    """Draw: what a returning (or new) player posts for the blinds he missed, in words."""
    back = {e["seat"] for e in rules["seats"] if e.get("missed")}
    out: dict[str, str] = {}
    for seat in sorted(back):
        parts = [gettext("%(amount)s dead", amount=p.amount) if p.dead
                 else gettext("%(amount)s live", amount=p.amount)
                 for p in state.posted if p.seat == seat]
        if parts:
            out[seat] = " + ".join(parts)
    return out


def _why_first(state: HandState) -> str | None:
    """Stud: who acts first and why (the highest up card showing), said to the opener only:
    once anyone has acted in the round, the next player simply acts."""
    if not state.profile.is_stud or state.status != "betting" or not state.up:
        return None
    seat = state.to_act
    if seat is None or state.acted:
        return None
    shown = state.up.get(seat, ())
    if state.round == 1:
        card = card_html(shown[-1].code) if shown else "?"
        return str(gettext("Seat %(seat)s brings in: %(card)s is the highest card", seat=seat,
                           card=card))
    return str(gettext("Seat %(seat)s acts first: the best hand showing", seat=seat))


def _may_muck(state: HandState) -> bool:
    """Muck is offered only where the engine allows it (never to the first to show)."""
    seat = state.to_act
    return state.status == "showdown" and seat is not None and can_act(
        state, Action("muck", seat))


def _screen(table_id: int, status: int = 200, **extra: Any) -> Any:
    dbs = db.get_session()
    table = poker_tables.get(dbs, table_id)
    shift = shifts.open_shift_of(dbs, table_id)
    hid = poker_hands.last_hand_id(dbs, table_id, shift.id) if shift else None
    hand = poker_hands.load(dbs, hid) if hid is not None else None
    ctx: dict[str, Any] = {"table": table, "shift": shift, "hand": hand, "new_key": new_key,
                           "action_words": ACTION_WORDS,
                           "names": {s.seat: s.player for s in table.seats},
                           "typed": None, "street_error": None, **extra}
    if hand is not None:
        state = hand.state
        used = {c.code for cards in state.up.values() for c in cards}
        used |= {c.code for cards in state.shown.values() for c in cards}
        ctx.update(state=state, view=hand_to_dict(state), phase=PHASES[state.status],
                   deck=[c.code for c in state.profile.ranking.deck.cards], used=used,
                   why=_why_first(state), labels=_labels(state), may_muck=_may_muck(state),
                   frozen=poker_hands.void_pending(dbs, hand.round.id),
                   dues=_dues(hand.rules, state))
    return render_template("poker/table.html", **ctx), status


@bp.get("/poker/<int:table_id>")
@role_required(*RECORDERS)
def screen(table_id: int) -> Any:
    return _screen(table_id)


def _refused(table_id: int, err: Refused, what: str) -> Any:
    flash(gettext("%(what)s: %(message)s", what=say(what), message=say(err.message)), "error")
    return _screen(table_id, status_of(err))


def refused_as(what: str) -> Callable[[F], F]:
    """A screen view's refusal answer: the screen again, the message flashed after ``what``."""
    return on_refusal(lambda err, table_id: _refused(table_id, err, what))


def _back(table_id: int) -> Any:
    return redirect(url_for("poker.screen", table_id=table_id), 303)


def _action() -> dict[str, Any]:
    """The engine action from the tapped button (and the typed amount or chosen cards)."""
    form = request.form
    kind, seat = form.get("type", ""), form.get("seat") or None
    action: dict[str, Any] = {"type": kind, "seat": seat}
    if kind in ("bet", "raise"):
        action["to"] = whole_number("to", f"Seat {seat} · {kind} to")
    if kind == "draw":
        action["discard"] = whole_number("discard", f"Seat {seat} · cards discarded")
    if kind == "parole":
        action["agreed"] = form.get("agreed") == "yes"
    if kind == "show":
        action["cards"] = form.getlist("cards")
    if kind == "street":
        action["up"] = {k[3:]: as_code(v) for k, v in form.items() if k.startswith("up_") and v}
        missing = [k[3:] for k in form if k.startswith("up_") and not form.get(k)]
        if missing:
            raise ValidationError("Tap the up card of seat %(v)s.", v=missing[0],
                                  field=f"up_{missing[0]}")
    return action


def _act_refused(err: Refused, table_id: int) -> Any:
    if request.form.get("type") == "street":
        return _street_refused(table_id, err)
    seat = request.form.get("seat") or ""
    what = (gettext("Seat %(seat)s · %(action)s", seat=seat,
                    action=say(request.form.get("type", "")))
            if seat else N_("Hand"))
    return _refused(table_id, err, what)


@bp.post("/poker/<int:table_id>/act")
@on_refusal(_act_refused)
@role_required(*RECORDERS)
def act(table_id: int) -> Any:
    dbs = db.get_session()
    hid = poker_hands.current_hand_id(dbs, table_id)
    if hid is None:
        raise ValidationError("No hand is being dealt at this table.")
    seq = request.form.get("seq", "")
    poker_hands.record(dbs, round_id=hid, action=_action(), user_id=g.user.id,
                       idempotency_key=request.form.get("key", ""),
                       expected_seq=as_id(seq))
    return _back(table_id)


def _street_refused(table_id: int, err: Refused) -> Any:
    """A refused street keeps every pick and puts the message beside the seat it is about
   : the seat whose typed card the engine refuses, tried seat by seat."""
    dbs = db.get_session()
    hid = poker_hands.current_hand_id(dbs, table_id)
    field = getattr(err, "field", None) or ""
    seat = field[3:] if field.startswith("up_") else None
    if seat is None and hid is not None:
        seat = refused_up_card(poker_hands.load(dbs, hid).state, request.form)
    if seat is None:
        return _refused(table_id, err, N_("Hand"))
    said = cards_said(say(err.message))
    return _screen(table_id, status_of(err),
                   typed=request.form, street_error={"seat": seat, "message": said})


@bp.post("/poker/<int:table_id>/deal")
@refused_as(N_("Deal"))
@role_required(*RECORDERS)
def deal(table_id: int) -> Any:
    dbs = db.get_session()
    if shifts.open_shift_of(dbs, table_id) is None:  # opened with its count
        raise Conflict("No shift is open at this table: open it on the table's page with "
                       "the opening count.", field="shift")
    if poker_hands.current_hand_id(dbs, table_id) is None:
        poker_hands.start_hand(dbs, table_id=table_id, user_id=g.user.id,
                               idempotency_key=request.form.get("key", ""))
    return _back(table_id)


@bp.post("/poker/<int:table_id>/seats")
@on_refusal(lambda err, table_id: _refused(table_id, err,
                                           f"Seat {request.form.get('seat', '')}"))
@role_required(*RECORDERS)
def seats(table_id: int) -> Any:
    """Seat a player, or change a seat: rebuy, sit out, come back, leave."""
    dbs = db.get_session()
    seat, change = request.form.get("seat", ""), request.form.get("change", "seat")
    if change == "seat":
        poker_tables.seat_player(dbs, table_id, seat=seat,
                                 player=request.form.get("player", ""),
                                 buy_in=whole_number("buy_in", f"Seat {seat} · buy-in"),
                                 actor_id=g.user.id)
    elif change == "rebuy":
        poker_tables.rebuy(dbs, table_id, seat,
                           whole_number("amount", f"Seat {seat} · rebuy"), g.user.id)
    else:
        poker_tables.set_status(dbs, table_id, seat, change, g.user.id)
    return _back(table_id)


#: who opens a poker table (as the house-game tables are set up by the floor, not the dealer)
OPENERS = ("admin", "pit_boss", "shift_manager")


@bp.get("/poker/new")
@role_required(*OPENERS)
def new_table() -> Any:
    return render_template("poker/new.html", profiles=poker_profiles(), typed=request.form)


def _new_table_refused(err: Refused) -> Any:
    flash(gettext("New poker table: %(message)s", message=say(err.message)), "error")
    return render_template("poker/new.html", profiles=poker_profiles(),
                           typed=request.form), 422


@bp.post("/poker/new")
@on_refusal(_new_table_refused)
@role_required(*OPENERS)
def create_table() -> Any:
    """A poker table: name, profile, stakes (stud: ante; draw: small blind; the rest default
    by RULES.md) and the number of seats."""
    dbs = db.get_session()
    profile = request.form.get("profile", "")
    stud = get_poker_profile(profile).is_stud
    name = "ante" if stud else "small_blind"
    stakes = {name: whole_number("stake", "Ante" if stud else "Small blind")}
    view = poker_tables.open_table(dbs, name=request.form.get("name", ""), profile=profile,
                                   stakes=stakes,
                                   seat_count=whole_number("seats", "Seats"))
    tables.set_pit(dbs, view.id, request.form.get("pit", "")[:40])  # the floor
    if g.user.role in RECORDERS:  # a pit boss or shift manager runs it from its screen
        return redirect(url_for("poker.screen", table_id=view.id), 303)
    flash(gettext("Poker table %(name)s opened: a croupier or pit boss opens its shift and "
                  "deals.", name=view.name), "success")  # an administrator sets up, never deals
    return redirect(url_for("web.home"), 303)


@bp.post("/poker/<int:table_id>/undo")
@refused_as(N_("Undo"))
@role_required(*RECORDERS)
def undo(table_id: int) -> Any:
    dbs = db.get_session()
    hid = poker_hands.current_hand_id(dbs, table_id)
    if hid is None:
        raise ValidationError("No hand is being dealt at this table.")
    seq = request.form.get("seq", "")
    poker_hands.undo(dbs, round_id=hid, user_id=g.user.id,
                     idempotency_key=request.form.get("key", ""), expected_seq=as_id(seq))
    return _back(table_id)
