"""Relief in a few taps, and one's own PIN.

* ``/tables/<id>/relief`` -- "Relieve dealer" on the table's tablet: tap your name (or scan your
  badge: a keyboard wedge types the number and Enter into the name field), then your PIN. While a
  round is open a pit boss's PIN is asked too. The screen is then the new dealer's.
* ``/parlour/<id>/relief`` -- the same for the parlour board game's host.
* ``/pin`` -- set or change one's PIN (a full sign-in, with the password).
* the table screens' dealer bar (``_dealer_bar.html``): who deals and whether a relief is due.

Table devices' own pages are ``web.devices``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import db
from ..audit import Actor, acting_as
from ..edge import ALL_ROLES, PageBlueprint, device, form_error, on_refusal, role_required
from ..i18n.wording import N_, say
from ..models import Role, utcnow
from ..rules.games.registry import get_game
from ..services.errors import ServiceError
from ..services.people import pins, reliefs, stints
from ..services.rounds import parlour
from ..services.shifts import shifts
from ..services.tables import tables
from .auth import password_guarded

bp = PageBlueprint("relief", __name__)
DEALERS = tuple(sorted(stints.DEALERS))
PARLOUR_HOSTS = tuple(sorted(stints.HOSTS))
PIN_ROLES = tuple(sorted(ALL_ROLES - {Role.AUDITOR.value}))


def pin_policy() -> pins.PinPolicy:
    cfg = current_app.config
    return pins.PinPolicy(int(cfg["PIN_MAX_FAILURES"]), int(cfg["PIN_MAX_FAILURES_PER_ACCOUNT"]),
                          int(cfg["PIN_MAX_FAILURES_PER_DEVICE"]),
                          int(cfg["LOGIN_LOCK_BASE_SECONDS"]), int(cfg["LOGIN_LOCK_MAX_SECONDS"]))


def screen_url(table: tables.TableView) -> str:
    """The table's own screen: the poker dealer's for a poker table, else the live round."""
    if get_game(table.game).poker_room:
        return url_for("poker.screen", table_id=table.id)
    return url_for("live.screen", table_id=table.id)


def _asked_for(dbs: Any) -> Any:
    """The person named by ``?who=`` (a tap on a name, or a badge number and Enter)."""
    if not request.args.get("who"):
        return None
    try:
        return pins.find_person(dbs, request.args["who"])
    except ServiceError as err:
        flash(say(err.message), "error")  # in the reader's language
        return None


def _context(table_id: int, **extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    shift = shifts.open_shift_of(dbs, table_id)
    current = stints.current(dbs, shift.id) if shift else None
    people = [p for p in stints.candidates(dbs) if not current or p[0] != current.dealer_id]
    who = extra.pop("who", None) or _asked_for(dbs)
    supervisors = [p for p in people if p[2] in stints.SUPERVISORS]
    return {"table": table, "shift": shift, "current": current, "people": people,
            "who": who, "open_round": stints.round_in_progress(dbs, shift.id if shift else None),
            "supervisors": supervisors, "screen": screen_url(table), **extra}


def _take(relieve: Callable[[Any, Any], stints.StintView], done: str, target: str) -> Any:
    """The relief's POST, for a table and for the parlour game: find the incoming person,
    relieve (his PIN checked first, the failure kept by the edge), say so and go back. What
    the relief writes is his (flushed while he acts); the edge commits it."""
    dbs = db.get_session()
    who = g.relief_who = pins.find_person(dbs, request.form.get("dealer", ""))
    with acting_as(Actor(who.id, who.username, who.role)):
        stint = relieve(dbs, who)
        dbs.flush()
    flash(gettext(done, name=stint.dealer), "success")
    return redirect(target, 303)


@bp.get("/tables/<int:table_id>/relief")
@role_required(*DEALERS)
def page(table_id: int) -> Any:
    """Tap your name (or scan your badge), then your PIN."""
    return render_template("relief/page.html", **_context(table_id))


@bp.post("/tables/<int:table_id>/relief")
@on_refusal(lambda err, table_id: form_error(err, "relief/page.html", **_context(
    table_id, who=g.get("relief_who"), form=request.form)))
@role_required(*DEALERS)
def take(table_id: int) -> Any:
    def relieve(dbs: Any, who: Any) -> stints.StintView:
        boss = request.form.get("pit_boss", "").strip()
        boss_id = pins.find_person(dbs, boss, field="pit_boss").id if boss else None
        relief = reliefs.Relief(who.id or 0, device.credential("pin"), boss_id,
                                device.credential("pit_pin") if boss_id else None)
        return reliefs.relieve(dbs, table_id=table_id, relief=relief, policy=pin_policy())

    table = tables.get_table(db.get_session(), table_id)
    return _take(relieve, N_("%(name)s deals at this table now."), screen_url(table))


@dataclass(frozen=True, slots=True)
class Dealing:
    """Who deals at a table now, for how long, and whether his relief is due."""

    stint: stints.StintView
    minutes: int
    due: bool


def table_dealer(table_id: int) -> Dealing | None:
    dbs = db.get_session()
    shift = shifts.open_shift_of(dbs, table_id)
    stint = stints.current(dbs, shift.id) if shift else None
    if stint is None:
        return None
    minutes = stint.minutes(utcnow())
    return Dealing(stint, minutes, minutes >= tables.get_table(dbs, table_id).rotation_minutes)


# --- the parlour board game's host ------------------------------------------------------------

def _host_context(game_id: int, **extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    hosts = stints.of_game(dbs, game_id)
    current = hosts[-1] if hosts else None
    people = [p for p in stints.candidates(dbs, stints.HOSTS)
              if not current or p[0] != current.dealer_id]
    return {"game": parlour.load(dbs, game_id), "current": current, "people": people,
            "who": extra.pop("who", None) or _asked_for(dbs),
            "back": url_for("parlour.game", game_id=game_id), **extra}


@bp.get("/parlour/<int:game_id>/relief")
@role_required(*PARLOUR_HOSTS)
def host_page(game_id: int) -> Any:
    """The parlour page's relief: tap your name (or scan your badge), then your PIN."""
    return render_template("relief/host.html", **_host_context(game_id))


@bp.post("/parlour/<int:game_id>/relief")
@on_refusal(lambda err, game_id: form_error(err, "relief/host.html", **_host_context(
    game_id, who=g.get("relief_who"), form=request.form)))
@role_required(*PARLOUR_HOSTS)
def take_game(game_id: int) -> Any:
    def relieve(dbs: Any, who: Any) -> stints.StintView:
        return reliefs.relieve_host(dbs, game_id=game_id, policy=pin_policy(),
                                    relief=reliefs.Relief(who.id or 0, device.credential("pin")))

    return _take(relieve, N_("%(name)s hosts this game now."),
                 url_for("parlour.game", game_id=game_id))


def dealing_elsewhere(table_id: int) -> str | None:
    """The other table the signed-in person deals at now, if any: a croupier who counted this
    table's float while dealing there is not tapped in here (``reliefs.open_table``), and the
    screen says so."""
    user = g.get("user")
    if user is None:
        return None
    dbs = db.get_session()
    stint = stints.dealing_now(dbs, user.id)
    if stint is None or stint.table_id in (None, table_id):
        return None
    return tables.get_table(dbs, stint.table_id).name


@bp.app_context_processor
def _table_dealer_globals() -> dict[str, Any]:
    """For the table screens' dealer bar (``_dealer_bar.html``) and the relief page."""
    return {"table_dealer": table_dealer, "dealing_elsewhere": dealing_elsewhere,
            "utc_now": utcnow}


# --- one's own PIN --------------------------------------------------------------------------

@bp.route("/pin", methods=["GET", "POST"])
@on_refusal(lambda err, **_: form_error(err, "relief/pin.html"))
@role_required(*PIN_ROLES)
def set_pin() -> Any:
    """Set or change your PIN (4-8 digits) with your password: what a relief and a
    co-signature ask of you."""
    if request.method == "GET":
        return render_template("relief/pin.html")
    password_guarded(lambda dbs: pins.set_pin(
        dbs, g.user.id, password=request.form.get("password", ""),
        pin=request.form.get("pin", ""), confirm=request.form.get("confirm_pin", "")))
    flash(gettext("Your PIN is set. It signs a relief or a count; it opens nothing else."),
          "success")
    return redirect(url_for("web.home"))

