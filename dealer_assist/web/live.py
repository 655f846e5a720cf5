"""The table screen: the live round on a tablet, one server round-trip per croupier step.

Every button comes from the engine's ``next_steps`` (via ``services.rounds.live``), so an illegal
step is never offered; one sent anyway is refused by the engine and the round is unchanged. Each
rendered form carries the CSRF token, a fresh idempotency key (a double tap records once) and the
last sequence number the croupier saw (a step based on a stale screen is refused and the fresh
screen is shown).

A POST never answers with a page: a refused step comes back to the table screen by a 303 with
the form open again, the typed values kept and the message beside the input it is about
(``live_refusal``). *Redeal* asks a pit boss to void the round: until one decides, the screen
shows the request and no step (it reloads itself now and then, to move on when the decision
comes). After "Paid" the bets screen links to the round just paid, where a box's result can
be disputed.
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from .. import db
from ..edge import PageBlueprint, role_required
from ..i18n import wording
from ..models import Round
from ..rules.cards import ALL_CARDS, SUITS, parse_cards
from ..rules.errors import CardCountError, RulesError
from ..rules.registry import get_game
from ..services.errors import ServiceError, ValidationError
from ..services.rounds import live
from ..services.rounds import store as rounds
from ..services.shifts import shifts
from ..services.tables import tables
from . import table_players
from .forms import whole_number
from .live_refusal import Refusal, box_of, input_for, insure_limit, keep, take
from .live_said import collected, payout_lines, say_collected, undo_label

bp = PageBlueprint("live", __name__)
RECORDERS = tuple(sorted(live.RECORDERS))
#: steps entered with the card grid, opened automatically in this order when offered (dealing
#: order: the dealer's face-up card, his hole cards at the reveal, then box by box at the
#: showdown; ``deal_box`` only for a round recorded all cards first)
CARD_STEPS = ("deal_box", "deal_dealer", "reveal", "dealer_draw", "dealer_small", "show")
#: steps that need a small form (the rest are one-tap buttons)
FORM_STEPS = frozenset({*CARD_STEPS, "exchange", "sixth_card", "replace", "extra", "split",
                        "insure", "redeal"})
#: card entries that record themselves when the last card is tapped (an exact count)
AUTO_STEPS = frozenset({"deal_dealer", "reveal", "dealer_small", "show", "dealer_draw"})
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


def _entry(rnd: live.LiveRound, typed: MultiDict[str, str] | None = None) -> Any:
    """The step whose form is open: the one asked for (``?do=&box=``, or the refused form being
    shown again), else the next card step (the deal, the reveal, the showdown)."""
    typed = typed or MultiDict()
    want = request.args.get("do") or typed.get("type")
    box = request.args.get("box") or typed.get("box") or None
    for step in rnd.steps:
        if want and step.type == want and step.box == box and step.type in FORM_STEPS:
            return step
    due = [s for s in rnd.steps if s.type in CARD_STEPS and (s.cards or s.small)]
    # in dealing order (the dealer's Small Hand before the boxes' hands): the one next step
    return min(due, key=lambda s: CARD_STEPS.index(s.type), default=None)


def _suggestion(rnd: live.LiveRound, entry: Any) -> Any:
    if entry is None or entry.type != "split":
        return None
    from ..rules.games.stud import suggest

    try:
        return suggest(rnd.state, entry.box)
    except RulesError:
        return None


def _start_defaults(table_id: int, boxes: int) -> dict[str, dict[str, Any]]:
    """Last round's bets, to repeat them with one tap (with their players: issue 23)."""
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


def _screen(table_id: int) -> Any:
    dbs = db.get_session()
    typed, refusal = take(table_id)
    table = tables.get_table(dbs, table_id)
    shift = shifts.open_shift_of(dbs, table_id)
    round_id = live.open_round_id(dbs, table_id) if shift else None
    rnd = live.load(dbs, round_id) if round_id else None
    context: dict[str, Any] = {"table": table, "shift": shift, "rnd": rnd, "typed": typed,
                               "new_key": new_key, "suits": SUITS, "ranks": RANKS,
                               "grid": {c.code for c in ALL_CARDS}}
    context.update(table_players.bets_context(dbs, table))  # the bets form's players
    if rnd is None:
        context["defaults"] = _start_defaults(table_id, table.boxes)
        context["last_round"] = _last_round(shift.id, table_id) if shift else None
    else:
        summary = rnd.flow.summary(rnd.state)
        entry, context["typed"] = insure_limit(rnd, _entry(rnd, typed), typed, request.args)
        context.update(
            summary=summary, used=set(summary["used"]), entry=entry,
            box_steps={b["box"]: [s for s in rnd.steps if s.box == b["box"]]
                       for b in summary["boxes"]},
            table_steps=[s for s in rnd.steps if s.box is None],
            payouts=payout_lines(rnd.ready.to_dict())
            if rnd.ready and not rnd.void_pending else None,
            auto=AUTO_STEPS, undo_label=undo_label(rnd),
            suggestion=_suggestion(rnd, entry), draw_most=_draw_most(rnd, typed))
    beside = refusal is not None and _beside(refusal, context, typed)
    if refusal is not None and not beside:
        flash(refusal.message, "error" if refusal.kind == "error" else "success")
    context["error"] = refusal if beside else None
    return render_template("live/table.html", **context)


def _beside(refusal: Refusal, context: dict[str, Any], typed: MultiDict[str, str]) -> bool:
    """Whether the input the message is about is on the screen again (else it goes on top)."""
    if refusal.input is None:
        return False
    if refusal.input in ("card", "name"):  # a rated player sitting down (the bets screen)
        return "seated" in context
    if box_of(refusal.input):  # the bets form
        entry = context.get("entry")
        return context["rnd"] is None or (entry is not None and entry.type == "place")
    entry = context.get("entry")
    if entry is None or typed.get("type") != entry.type or (typed.get("box") or None) != entry.box:
        return False
    inputs = {"insure": "amount", "redeal": "cards_received"}
    return refusal.input in (inputs.get(entry.type), "cards")


def _draw_most(rnd: live.LiveRound, typed: MultiDict[str, str]) -> int:
    """The cards the dealer's draw asks for now: 1, and 2 once the engine says the first card
    (kept in ``typed``) brings the free second replacement."""
    if typed.get("type") != "dealer_draw" or not typed.get("cards", "").strip():
        return 1
    try:
        return min(2, _draw_need(rnd, typed.get("cards", "")))
    except RulesError:  # a refused card (not a card, already on the table): ask for one
        return 1


def _draw_need(rnd: live.LiveRound, cards: str) -> int:
    return live.draw_needed(rnd, parse_cards(cards, what="dealer's draw"))  # RulesError


@bp.get("/tables/<int:table_id>/live")
@role_required(*RECORDERS)
def screen(table_id: int) -> Any:
    if get_game(tables.get_table(db.get_session(), table_id).game).poker_room:
        return redirect(url_for("poker.screen", table_id=table_id))
    return _screen(table_id)


def _refused(table_id: int, err: RulesError | ServiceError, what: str = "") -> Any:
    """Roll back; keep the typed form and the message, naming the box and the field, for the
    screen's next GET; redirect to it (the refused form opens again, the error beside its
    input)."""
    db.get_session().rollback()
    field = getattr(err, "field", None)
    target = input_for(field, getattr(err, "value", None), request.form)
    box = box_of(target)
    what = what or (gettext("Box %(box)s", box=box)
                    if box and f"box {box}" not in err.message.lower() else "")
    said = wording.say(err.message)
    message = f"{wording.say(what)}: {said}" if what else said
    keep(table_id, request.form, Refusal(message, target))
    return _back(table_id)


def _back(table_id: int) -> Any:
    return redirect(url_for("live.screen", table_id=table_id), 303)


def _box_stakes(table: tables.TableView) -> list[live.BoxStake]:
    stakes = []
    for n in range(1, table.boxes + 1):
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


@bp.post("/tables/<int:table_id>/live/rounds")
@role_required(*RECORDERS)
def start_round(table_id: int) -> Any:
    dbs = db.get_session()
    try:
        table = tables.get_table(dbs, table_id)
        key = request.form.get("key", "")
        rnd = live.start_round(dbs, table_id=table_id, actor_id=g.user.id,
                               boxes=_box_stakes(table), idempotency_key=key)
        _deal_nothing_to_enter(dbs, rnd, key)
        dbs.commit()
    except (RulesError, ServiceError) as err:
        return _refused(table_id, err)
    return _back(table_id)


def _deal_nothing_to_enter(dbs: Any, rnd: live.LiveRound, key: str) -> None:
    """Where the dealer deals no card face up (Russian poker by default) the deal has nothing
    to enter: "Start round" records it too, one tap for the croupier instead of two."""
    deal = next((s for s in rnd.steps if s.type == "deal_dealer"), None)
    if deal is not None and not deal.cards and len(rnd.events) == 1:
        live.record_step(dbs, round_id=rnd.round.id, actor_id=g.user.id, type="deal_dealer",
                         payload={"up": []}, idempotency_key=f"{key[:58]}-deal")


def _payload(rnd: live.LiveRound, type: str) -> dict[str, Any]:
    """A step's payload from the posted form (the engine checks everything else)."""
    form = request.form
    box = form.get("box", "")
    cards = form.get("cards", "")
    if type in ("dealer_draw", "dealer_small"):
        return {"cards": cards}
    if type == "deal_dealer":  # dealing order: the face-up card(s); a shoe: all five
        return {"cards": cards} if _count(cards) == 5 else {"up": cards}
    if type == "place":
        return {"boxes": [b.payload() for b in _box_stakes(rnd.table)]}
    if type in ("deal_box", "show"):
        return _seven({"box": box}, cards) if type == "show" else {"box": box, "cards": cards}
    if type in ("exchange", "replace"):
        if form.getlist("discard"):  # the box's cards are known (recorded all cards first)
            return {"box": box, "discard": form.getlist("discard"), "draw": cards}
        return {"box": box, "count": whole_number("count", "The number of cards")}
    if type == "sixth_card":
        return {"box": box, "card": cards} if cards.strip() else {"box": box}
    if type == "insure":
        out: dict[str, Any] = {"box": box, "amount": whole_number("amount", "The insurance")}
        return {**out, "cards": cards} if cards.strip() else out
    if type == "redeal":
        return {"box": box, "cards_received": whole_number("cards_received",
                                                           "The number of cards received")}
    if type == "extra":
        return {"box": box, "mode": form.get("mode", ""), "cards": cards}
    if type == "split":
        small = form.getlist("small")
        seven = next((s.discard for s in rnd.steps if s.type == "split" and s.box == box), ())
        if not seven:  # dealing order: the seven cards as the player sets them, Big first
            return _seven({"box": box}, cards, big="big")
        return {"box": box, "small": small, "big": [c for c in seven if c not in small]}
    if type == "reveal":
        return {"cards": cards} if cards.strip() else {}
    if type in ("undo", "paid"):
        return {}
    return {"box": box}


def _count(cards: str) -> int:
    return len([t for t in cards.replace(",", " ").replace(";", " ").split() if t])


def _seven(out: dict[str, Any], cards: str, big: str = "cards") -> dict[str, Any]:
    """A hand typed as one list: the five of the (Big) hand, then the Small Hand's two."""
    tokens = [t for t in cards.replace(",", " ").replace(";", " ").split() if t]
    if len(tokens) == 7:
        return {**out, big: tokens[:5], "small": tokens[5:]}
    return {**out, big: cards}


def _what(rnd: live.LiveRound, type: str) -> str:
    """Which step was refused, in the croupier's words ("Box 2 · Enter cards")."""
    box = request.form.get("box") or None
    label = next((s.label for s in rnd.steps if s.type == type and s.box == box),
                 type.replace("_", " ").capitalize())
    said = wording.say(label)
    return gettext("Box %(box)s · %(step)s", box=box, step=said) if box else said


def _expected_seq() -> int | None:
    raw = request.form.get("seq", "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else None


@bp.post("/live/rounds/<int:round_id>/steps")
@role_required(*RECORDERS)
def record(round_id: int) -> Any:
    dbs = db.get_session()
    rnd = live.load(dbs, round_id)
    type = request.form.get("type", "")
    try:
        early = _not_yet(rnd, type)
        if early is not None:
            keep(rnd.table.id, early[1], early[0])
            return _back(rnd.table.id)
        after = live.record_step(dbs, round_id=round_id, actor_id=g.user.id, type=type,
                                 payload=_payload(rnd, type),
                                 idempotency_key=request.form.get("key", ""),
                                 expected_seq=_expected_seq())
        dbs.commit()
        after = _bet_when_forced(dbs, after, type)
    except (RulesError, ServiceError) as err:
        return _refused(rnd.table.id, err, _what(rnd, type))
    if after.last_seq != rnd.last_seq and after.is_open:  # a new step, not a resent one
        say_collected(collected(rnd), collected(after))
    if type == "paid" and after.stored_settlement is not None:
        flash(gettext("Round %(number)s paid. Next round.", number=after.round.number),
              "success")
    return _back(rnd.table.id)


def _bet_when_forced(dbs: Any, after: live.LiveRound, type: str) -> live.LiveRound:
    """Free extra cards (Big/Small) or all five replaced (Oasis) force the BET: when BET is the
    box's only step left, the same tap records it (one tap, one decision; issue 26 item 11)."""
    box = request.form.get("box") or None
    if type not in ("extra", "replace") or box is None:
        return after
    left = [s for s in after.steps if s.box == box]
    if [s.type for s in left] != ["bet"]:
        return after
    key = request.form.get("key", "")
    after = live.record_step(dbs, round_id=after.round.id, actor_id=g.user.id, type="bet",
                             payload={"box": box}, idempotency_key=f"{key[:58]}-bet")
    dbs.commit()
    return after


def _not_yet(rnd: live.LiveRound, type: str) -> tuple[Refusal, MultiDict[str, str]] | None:
    """A step the screen completes before recording it: the dealer's first card that brings
    the free second replacement (the second card is asked for), a split to suggest first."""
    cards = request.form.get("cards", "")
    if type == "dealer_draw" and 0 < _count(cards) < _draw_need(rnd, cards):
        try:  # a card already on the table is refused before the second card is asked for
            rnd.flow.step(rnd.state, type, {"cards": cards})
        except CardCountError:
            pass  # Russian poker's engine wants both cards in one step: the second comes next
        return Refusal(gettext("Same rank as the card it replaced and still no game: the "
                               "dealer gets a free second card. Tap it."), "cards",
                       "note"), request.form
    if type == "split" and request.form.get("suggest"):
        return _split_note(rnd, request.form.get("box", ""), cards)
    return None


def _split_note(rnd: live.LiveRound, box: str,
                cards: str) -> tuple[Refusal, MultiDict[str, str]]:
    """The engine's split of the seven cards the player shows (dealing order: they were never
    entered before): the cards are put in that order, Big Hand first, for one "Accept split"."""
    from ..rules.games.stud import suggest

    seven = parse_cards(cards, count=7, what=f"box {box} hand")  # RulesError: refused
    found = suggest(rnd.state, box, shown=seven)
    best = found.best
    form = MultiDict([(k, v) for k, v in request.form.items(multi=True) if k != "suggest"])
    form["cards"] = " ".join(c.code for c in (*best.big, *best.small))
    said = gettext("Suggested: Big %(big)s, Small %(small)s.",
                   big=wording.hand_name(best.big_hand), small=wording.hand_name(best.small_hand))
    if found.fold_is_better:
        said += " " + gettext("Folding is better.")
    said += " " + gettext("The cards are set that way: accept, or change them.")
    return Refusal(said, "cards", "suggestion"), form
