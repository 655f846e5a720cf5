"""The parlour board game's page: the board drawn with its chips, each hand entered
with the card grid, the play-out replayed card by card, the board carried to the next hand.

A host or club dealer (croupier) or an administrator runs it. Every hand goes through
``services.rounds.parlour`` (the engine verifies it, the hand is stored as an event, audited); a
refused hand is flashed naming the hand or the bet, the form keeps what was typed and nothing is
stored.
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from .. import db
from ..edge import PageBlueprint, Refused, on_refusal, role_required, status_of
from ..i18n.wording import N_, say
from ..models import utcnow
from ..rules.cards import SUITS
from ..rules.games.parlour.profile import DEFAULT_PROFILE
from ..services.people import stints
from ..services.rounds import parlour
from .forms import text
from .parlour_form import hand_field, parse_betting, read_end_hands, read_extra_hand, read_hands

bp = PageBlueprint("parlour", __name__, url_prefix="/parlour")
HOSTS = tuple(sorted(parlour.HOSTS))
RANKS = "AKQJT98765432"


def _index(status: int = 200, typed: MultiDict[str, str] | None = None) -> Any:
    games = parlour.list_games(db.get_session())
    return render_template("parlour/index.html", games=games, typed=typed or {},
                           variants=("basic", "clockwise"), key=uuid.uuid4().hex), status


@bp.get("")
@role_required(*HOSTS)
def index() -> Any:
    return _index()


def _create_refused(err: Refused) -> Any:
    flash(_message(err, N_("New game")), "error")
    return _index(status_of(err), typed=request.form)


@bp.post("")
@on_refusal(_create_refused)
@role_required(*HOSTS)
def create() -> Any:
    raw = request.form.get("players", "")
    players = [p.strip() for p in raw.replace(",", "\n").splitlines() if p.strip()]
    gid = parlour.create_game(db.get_session(), name=text("name", max_length=64),
                              players=players, variant=request.form.get("variant", "basic"),
                              actor_id=g.user.id,
                              idempotency_key=request.form.get("key") or None)
    return redirect(url_for("parlour.game", game_id=gid), 303)


def _message(err: Refused, what: str) -> str:
    """The engine's message, prefixed with the box it points at (``Cy's hand``, ``Betting``)."""
    where = err.field or ""
    if where.startswith("hands."):
        where = gettext("%(player)s's hand", player=where[6:].split(".")[0])
    elif where.startswith("betting"):
        where = gettext("Betting")
    elif where.startswith("extra_hand"):
        where = gettext("Extra hand")
    elif where.startswith("extra"):
        where = gettext("Extra hand cards")
    said = say(err.message)
    return f"{say(what)} · {where}: {said}" if where else f"{say(what)}: {said}"


def _screen(game_id: int, status: int = 200, typed: MultiDict[str, str] | None = None) -> Any:
    view = parlour.load(db.get_session(), game_id)
    last = view.hands[-1] if view.hands else None
    hosts = stints.of_game(db.get_session(), game_id)  # who hosts, who hosted
    return render_template(
        "parlour/game.html", game=view, last=last, typed=typed or {}, suits=SUITS, ranks=RANKS,
        host=hosts[-1] if hosts else None, hosts=hosts, host_at=stints.host_at, now=utcnow(),
        sections=DEFAULT_PROFILE.section_names, key=uuid.uuid4().hex, hand_field=hand_field,
        betting_order=[*view.seating[1:], view.seating[0]]), status


@bp.get("/<int:game_id>")
@role_required(*HOSTS)
def game(game_id: int) -> Any:
    return _screen(game_id)


def _refused(game_id: int, err: Refused, what: str) -> Any:
    flash(_message(err, what), "error")
    return _screen(game_id, status_of(err), typed=request.form)


def _hand_refused(err: Refused, game_id: int) -> Any:
    number = len(parlour.load(db.get_session(), game_id).hands) + 1
    return _refused(game_id, err, gettext("Hand %(number)s", number=number))


def _seq() -> int | None:
    raw = request.form.get("seq", "").strip()
    return int(raw) if raw.isdigit() else None


@bp.post("/<int:game_id>/hands")
@on_refusal(_hand_refused)
@role_required(*HOSTS)
def record_hand(game_id: int) -> Any:
    dbs = db.get_session()
    view = parlour.load(dbs, game_id)
    hands, extra = read_hands(view.seating)
    hand = {"hands": hands, "extra": extra, "extra_hand": read_extra_hand(view.seating),
            "betting": parse_betting(request.form.get("betting", ""), view.seating)}
    after = parlour.record_hand(dbs, game_id=game_id, actor_id=g.user.id, hand=hand,
                                idempotency_key=request.form.get("key", ""),
                                expected_seq=_seq())
    flash(gettext("Hand %(count)s recorded. %(dealer)s deals next.", count=len(after.hands),
                 dealer=after.dealer), "success")
    return redirect(url_for("parlour.game", game_id=game_id, _anchor="result"), 303)


@bp.post("/<int:game_id>/end")
@on_refusal(lambda err, game_id: _refused(game_id, err, N_("End of game")))
@role_required(*HOSTS)
def end(game_id: int) -> Any:
    dbs = db.get_session()
    view = parlour.load(dbs, game_id)
    parlour.end_game(dbs, game_id=game_id, actor_id=g.user.id,
                     hands=read_end_hands(view.seating),
                     idempotency_key=request.form.get("key", ""), expected_seq=_seq())
    flash(gettext("Game over: the board is shared out."), "success")
    return redirect(url_for("parlour.game", game_id=game_id), 303)
