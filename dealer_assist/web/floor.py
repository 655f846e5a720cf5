"""The pit's live floor: ``/floor``, one page a pit boss keeps open.

The page shows the tables of one pit (``?pit=``, remembered in the session) as cards
(``services.reports.floor``) and the dealers on break. It updates itself by **polling**
``/floor/cards`` every ``FLOOR_POLL_SECONDS`` (2 s) and swapping the fragment in (``floor.js``;
no reload): the answer carries an ETag made of the audit chain's head (every state change moves
it), the pit, the minute and the language (their digest: a pit may be named in any
script), so while nothing happened the server answers 304
after one cheap query. Why not server-sent events: waitress serves the app with a fixed pool of
threads (8) and an event stream holds one thread per open page for as long as it is open; four
pit bosses with two tabs each would leave no thread for the tablets' steps (docs/operations.md).

``/floor/data`` is the same content as JSON; ``/dealers/<id>`` a dealer's figures; the pit sets a
table's rotation interval here, and marks a refused offline step seen.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import (
    Response,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext

from .. import db
from ..edge import FLOOR_READERS, PIT_ROLES, PageBlueprint, Refused, on_refusal, role_required
from ..edge.header_values import etag
from ..i18n.locale import locale_code
from ..i18n.steps import said, step_name
from ..i18n.wording import say
from ..models import utcnow
from ..services.reports import dealers, floor, floor_tablets
from ..services.rounds import offline
from ..services.tables import devices, tables
from .forms import whole_number
from .tables import floor_zone

bp = PageBlueprint("floor", __name__)
READERS = FLOOR_READERS
PIT = PIT_ROLES
PIT_KEY = "floor_pit"
ALL = "*"


def _settings() -> floor.FloorSettings:
    cfg = current_app.config
    return floor.FloorSettings(
        payout_alert=int(cfg["FLOOR_PAYOUT_ALERT"]),
        alert_window=timedelta(minutes=float(cfg["FLOOR_ALERT_WINDOW_MINUTES"])),
        idle=timedelta(minutes=float(cfg["FLOOR_IDLE_MINUTES"])),
        break_window=timedelta(minutes=float(cfg["FLOOR_BREAK_WINDOW_MINUTES"])))


def _pit() -> str | None:
    """The pit asked for (``?pit=``; ``*`` every table), else the one last shown."""
    chosen = request.args.get("pit")
    if chosen is not None:
        session[PIT_KEY] = chosen[:40]
    chosen = session.get(PIT_KEY, ALL)
    return None if chosen in (ALL, "") else str(chosen)


def _data() -> dict[str, Any]:
    return floor.floor(db.get_session(), pit=_pit(), now=utcnow(), settings=_settings())


def _context() -> dict[str, Any]:
    data = _data()
    ids = [t["id"] for t in data["tables"]]
    return {"floor": data, "poll": float(current_app.config["FLOOR_POLL_SECONDS"]),
            "devices": devices.active_devices(db.get_session(), ids), "zone": floor_zone()}


def _etag() -> str:
    now = utcnow()
    minute = int(now.timestamp() // 60)
    head = floor.version(db.get_session())
    # a tablet falling silent writes nothing; its state is in the tag
    tablets = floor_tablets.fingerprint(db.get_session(), now)
    return etag("floor", head, session.get(PIT_KEY, ALL), minute, locale_code(), tablets)


@bp.get("/floor")
@role_required(*READERS)
def page() -> str:
    _pit()
    return render_template("floor/page.html", **_context())


@bp.get("/floor/cards")
@role_required(*READERS)
def cards() -> Any:
    """The page's live part; 304 while nothing changed (see the module docstring)."""
    _pit()
    tag = _etag()
    if request.headers.get("If-None-Match") == tag:
        resp = Response(status=304)
    else:
        resp = Response(render_template("floor/_cards.html", **_context()))
    resp.headers["ETag"] = tag
    return resp


@bp.get("/floor/data")
@role_required(*READERS)
def data() -> Any:
    return jsonify(_data())


def _rotation_refused(err: Refused, **_: Any) -> Any:
    flash(say(err.message), "error")  # in the reader's language
    return redirect(url_for("floor.page"), 303)


@bp.post("/floor/tables/<int:table_id>/rotation")
@on_refusal(_rotation_refused)
@role_required(*PIT)
def rotation(table_id: int) -> Any:
    """The pit sets how long a dealer deals at this table before he is flagged."""
    table = tables.set_rotation(db.get_session(), table_id,
                                whole_number("rotation_minutes", "The rotation interval"))
    flash(gettext("%(table)s: a relief every %(minutes)s minutes.", table=table.name,
                  minutes=table.rotation_minutes), "success")
    return redirect(url_for("floor.page"), 303)


@bp.app_template_filter("step_name")
def step_name_filter(type: str) -> str:
    """A recorded step's name in the reader's language (``i18n.steps``)."""
    return step_name(type)


@bp.app_template_filter("refusal_why")
def refusal_why(refusal: dict[str, Any]) -> str:
    """Why a queued step was refused, in the reader's language (as the tablet was answered
    when the sentence is not known)."""
    return said(refusal.get("reason"), str(refusal.get("why") or ""))


@bp.post("/floor/refusals/<int:refusal_id>/seen")
@on_refusal(_rotation_refused)
@role_required(*PIT)
def refusal_seen(refusal_id: int) -> Any:
    """A pit boss has seen a refused offline step; the floor stops showing it (the shift
    report keeps listing it). The edge commits."""
    offline.mark_seen(db.get_session(), refusal_id=refusal_id, actor_id=g.user.id)
    return redirect(url_for("floor.page"), 303)


@bp.get("/dealers/<int:user_id>")
@role_required(*READERS)
def dealer(user_id: int) -> str:
    """A dealer's stints, rounds, rounds per hour, voids, corrections and disputes upheld."""
    data = dealers.dealer_page(db.get_session(), user_id, zone=floor_zone(), now=utcnow(),
                               days=int(request.args.get("days", "31")[:3] or 31)
                               if request.args.get("days", "31").isdigit() else 31)
    return render_template("floor/dealer.html", page=data)
