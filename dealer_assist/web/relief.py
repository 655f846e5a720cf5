"""Relief in a few taps, table devices, and one's own PIN (issue 28).

* ``/tables/<id>/relief`` -- "Relieve dealer" on the table's tablet: tap your name (or scan your
  badge: a keyboard wedge types the number and Enter into the name field), then your PIN. While a
  round is open a pit boss's PIN is asked too. The screen is then the new dealer's.
* ``/device`` -- a table device's home: the table's screen when someone deals, else the relief.
  ``/tables/<id>/device`` binds the tablet in front of a pit boss to the table (his login on it
  ends); ``/devices/<id>/revoke`` ends a device (from the pit pages).
* ``/pin`` -- set or change one's PIN (a full sign-in, with the password).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from sqlmodel import col, select

from .. import db
from ..audit import Actor, acting_as
from ..models import POKER_GAMES, Role, Round, RoundStatus, User, utcnow
from ..services.errors import ServiceError
from ..services.people import pins, stints
from ..services.shifts import shifts
from ..services.tables import devices, tables
from . import device
from .errors import end_refused, form_error
from .security import ALL_ROLES, end_login, role_required

bp = Blueprint("relief", __name__)
devices_bp = Blueprint("devices", __name__)
DEALERS = tuple(sorted(stints.DEALERS))
PARLOUR_HOSTS = tuple(sorted(stints.HOSTS))
BINDERS = tuple(sorted(devices.BINDERS))
PIN_ROLES = tuple(sorted(ALL_ROLES - {Role.AUDITOR.value}))


def pin_policy() -> pins.PinPolicy:
    from flask import current_app

    cfg = current_app.config
    return pins.PinPolicy(int(cfg["PIN_MAX_FAILURES"]), int(cfg["PIN_MAX_FAILURES_PER_ACCOUNT"]),
                          int(cfg["PIN_MAX_FAILURES_PER_DEVICE"]),
                          int(cfg["LOGIN_LOCK_BASE_SECONDS"]), int(cfg["LOGIN_LOCK_MAX_SECONDS"]))


def screen_url(table: tables.TableView) -> str:
    """The table's own screen: the poker dealer's for a poker table, else the live round."""
    if table.game in POKER_GAMES:
        return url_for("poker.screen", table_id=table.id)
    return url_for("live.screen", table_id=table.id)


def _open_round(shift_id: int | None) -> Round | None:
    if shift_id is None:
        return None
    from sqlmodel import select

    return db.get_session().exec(select(Round).where(
        Round.shift_id == shift_id, Round.status == RoundStatus.OPEN.value)).first()


def _context(table_id: int, **extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    shift = shifts.open_shift_of(dbs, table_id)
    current = stints.current(dbs, shift.id) if shift else None
    people = [p for p in stints.candidates(dbs) if not current or p[0] != current.dealer_id]
    who = extra.pop("who", None)
    if who is None and request.args.get("who"):
        try:
            who = pins.find_person(dbs, request.args["who"])
        except ServiceError as err:
            flash(str(err.message), "error")
    supervisors = [p for p in people if p[2] in stints.SUPERVISORS]
    return {"table": table, "shift": shift, "current": current, "people": people,
            "who": who, "open_round": _open_round(shift.id if shift else None),
            "supervisors": supervisors, "screen": screen_url(table), **extra}


@bp.get("/tables/<int:table_id>/relief")
@role_required(*DEALERS)
def page(table_id: int) -> Any:
    """Tap your name (or scan your badge), then your PIN."""
    return render_template("relief/page.html", **_context(table_id))


@bp.post("/tables/<int:table_id>/relief")
@role_required(*DEALERS)
def take(table_id: int) -> Any:
    dbs = db.get_session()
    who = None
    try:
        who = pins.find_person(dbs, request.form.get("dealer", ""))
        boss = request.form.get("pit_boss", "").strip()
        boss_id = pins.find_person(dbs, boss, field="pit_boss").id if boss else None
        relief = stints.Relief(who.id or 0, device.credential("pin"), boss_id,
                               device.credential("pit_pin") if boss_id else None)
        with acting_as(Actor(who.id, who.username, who.role)):
            stint = stints.relieve(dbs, table_id=table_id, relief=relief, policy=pin_policy())
            dbs.commit()
    except ServiceError as err:
        return form_error(err, "relief/page.html", **_context(table_id, who=who,
                                                              form=request.form))
    flash(gettext("%(name)s deals at this table now.", name=stint.dealer), "success")
    return redirect(screen_url(tables.get_table(dbs, table_id)), 303)


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
    from ..services.rounds import parlour

    dbs = db.get_session()
    game = parlour.load(dbs, game_id)
    hosts = stints.of_game(dbs, game_id)
    current = hosts[-1] if hosts else None
    people = [(u.id or 0, u.display_name, u.role) for u in dbs.exec(
        select(User).where(User.active == True,  # noqa: E712
                           col(User.role).in_(sorted(stints.HOSTS)))
        .order_by(col(User.display_name))).all()
        if not current or u.id != current.dealer_id]
    who = extra.pop("who", None)
    if who is None and request.args.get("who"):
        try:
            who = pins.find_person(dbs, request.args["who"])
        except ServiceError as err:
            flash(str(err.message), "error")
    return {"game": game, "current": current, "people": people, "who": who,
            "back": url_for("parlour.game", game_id=game_id), **extra}


@bp.get("/parlour/<int:game_id>/relief")
@role_required(*PARLOUR_HOSTS)
def host_page(game_id: int) -> Any:
    """The parlour page's relief: tap your name (or scan your badge), then your PIN."""
    return render_template("relief/host.html", **_host_context(game_id))


@bp.post("/parlour/<int:game_id>/relief")
@role_required(*PARLOUR_HOSTS)
def take_game(game_id: int) -> Any:
    dbs = db.get_session()
    who = None
    try:
        who = pins.find_person(dbs, request.form.get("dealer", ""))
        relief = stints.Relief(who.id or 0, device.credential("pin"))
        with acting_as(Actor(who.id, who.username, who.role)):
            stint = stints.relieve_host(dbs, game_id=game_id, relief=relief,
                                        policy=pin_policy())
            dbs.commit()
    except ServiceError as err:
        return form_error(err, "relief/host.html", **_host_context(game_id, who=who))
    flash(gettext("%(name)s hosts this game now.", name=stint.dealer), "success")
    return redirect(url_for("parlour.game", game_id=game_id), 303)


@bp.app_context_processor
def _table_dealer_globals() -> dict[str, Any]:
    """For the table screens' dealer bar (``_dealer_bar.html``) and the relief page."""
    return {"table_dealer": table_dealer, "utc_now": utcnow}


# --- table devices ---------------------------------------------------------------------------

@devices_bp.get("/device")
@role_required(*sorted(ALL_ROLES))
def home() -> Any:
    """A table device's home: its table's screen while someone deals there, else the relief."""
    bound = g.get("device")
    if bound is None:
        return redirect(url_for("web.home"))
    if g.get("user") is not None:
        return redirect(screen_url(tables.get_table(db.get_session(), bound.table_id)))
    return redirect(url_for("relief.page", table_id=bound.table_id))


@devices_bp.post("/tables/<int:table_id>/device")
@role_required(*BINDERS)
def bind(table_id: int) -> Any:
    """Make the tablet in front of the pit boss the table's device; his own login on it ends."""
    dbs = db.get_session()
    try:
        bound, token = devices.bind(dbs, table_id=table_id, actor_id=g.user.id,
                                    label=request.form.get("label", ""))
        dbs.commit()
    except ServiceError as err:
        end_refused(err)
        flash(str(err.message), "error")
        return redirect(url_for("tables.detail", table_id=table_id))
    end_login()
    flash(gettext("This tablet is now the device of %(table)s: it shows this table's screen and "
                  "the relief, nothing else.", table=bound.table), "success")
    resp = make_response(redirect(url_for("devices.home"), 303))
    return device.set_cookie(resp, token)


@devices_bp.post("/devices/<int:device_id>/revoke")
@role_required(*BINDERS)
def revoke(device_id: int) -> Any:
    dbs = db.get_session()
    try:
        ended = devices.revoke(dbs, device_id=device_id, actor_id=g.user.id)
        dbs.commit()
    except ServiceError as err:
        end_refused(err)
        flash(str(err.message), "error")
        return redirect(request.referrer or url_for("floor.page"))
    flash(gettext("%(label)s no longer acts for %(table)s.", label=ended.label,
                  table=ended.table), "success")
    target = request.form.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//")
                    else url_for("floor.page"), 303)


# --- one's own PIN --------------------------------------------------------------------------

@bp.route("/pin", methods=["GET", "POST"])
@role_required(*PIN_ROLES)
def set_pin() -> Any:
    """Set or change your PIN (4-8 digits) with your password: what a relief and a
    co-signature ask of you."""
    if request.method == "GET":
        return render_template("relief/pin.html")
    dbs = db.get_session()
    try:
        pins.set_pin(dbs, g.user.id, password=request.form.get("password", ""),
                     pin=request.form.get("pin", ""), confirm=request.form.get("confirm_pin", ""))
        dbs.commit()
    except ServiceError as err:
        return form_error(err, "relief/pin.html")
    flash(gettext("Your PIN is set. It signs a relief or a count; it opens nothing else."),
          "success")
    return redirect(url_for("web.home"))

