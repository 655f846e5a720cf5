"""Table-device mode at the edge: the cookie, who the tablet records for, and the
fence around it.

A bound tablet carries its own cookie (:data:`COOKIE`: a random token, HttpOnly, SameSite=Lax;
``services.tables.devices`` keeps its SHA-256). When a request has no signed-in session but a
valid device cookie, ``g.device`` is the device and ``g.user`` the table's current dealer (the
newest stint of its open shift): the person who authenticated with his PIN at the last relief.
No login session is opened, nothing expires with idleness, and the tablet reaches only
:data:`ANY_TIME` (its home, the relief, the language switch) and, while someone deals,
:data:`WHILE_DEALING` (the table's own screen and steps) -- of its own table only. Everything
else is refused (403) or sent to the tablet's home (GET). A full sign-in on the tablet takes
precedence (a signed-in session is a person, not a device).
"""

from __future__ import annotations

from typing import Any

from flask import Response, abort, current_app, g, redirect, request, url_for
from sqlmodel import select

from .. import db
from ..i18n.wording import N_
from ..models import Round, User
from ..services.people import cosign, stints
from ..services.shifts import shifts
from ..services.tables import devices
from .sessions import CurrentUser

COOKIE = "da_table_device"
#: about 400 days, the longest a browser keeps a cookie; revoking ends it any time
MAX_AGE = 400 * 24 * 3600
ANY_TIME = frozenset({"devices.home", "relief.page", "relief.take", "static",
                      "auth.set_language", "auth.login", "auth.logout",
                      # the offline engine's runtime and the service worker
                      "tablet.pyodide", "tablet.engine_zip", "tablet.engine_meta",
                      "tablet.worker", "tablet.service_worker"})
#: ``live.ping``: the table screen says every 3 s that it is there and what waits in
#: its offline queue (any request of the tablet counts as heard from: ``offline.note_heard``)
#: the round pages are here for the table's own rounds (after Paid ✓ the
#: croupier opens the round just paid to file a dispute, or asks for a void from a misdeal)
WHILE_DEALING = frozenset({"live.screen", "live.start_round", "live.record", "live.suggest",
                           "live.refine", "live.ping",
                           "cage.buy_in", "table_players.sit_down", "table_players.leave",
                           "disputes.round_page", "disputes.file_dispute",
                           "disputes.request_change", "poker.screen",
                           "poker.act", "poker.deal", "poker.undo", "poker.seats"})


def set_cookie(response: Response, token: str) -> Response:
    response.set_cookie(COOKIE, token, max_age=MAX_AGE, httponly=True, samesite="Lax",
                        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")), path="/")
    return response


def load() -> devices.DeviceView | None:
    """The bound device of this browser, if its cookie names a live one."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    with db.session_scope(write=False) as dbs:
        return devices.resolve(dbs, token)


def dealer_of(device: devices.DeviceView) -> Any:
    """The table's current dealer as the request's user (``CurrentUser`` with ``device_id``),
    or None when nobody deals there now."""
    with db.session_scope(write=False) as dbs:
        shift = shifts.open_shift_of(dbs, device.table_id)
        stint = stints.current(dbs, shift.id) if shift else None
        user = dbs.get(User, stint.dealer_id) if stint else None
        if user is None or not user.active or user.id is None:
            return None
        return CurrentUser(user.id, user.username, user.display_name, user.role, 0, False,
                           user.language, device.id)


def _table_of(view_args: dict[str, Any]) -> int | None:
    if "table_id" in view_args:
        return int(view_args["table_id"])
    if "round_id" in view_args:
        with db.session_scope(write=False) as dbs:
            found = dbs.exec(select(Round.table_id)
                             .where(Round.id == int(view_args["round_id"]))).first()
        return found
    return None


def guard(device: devices.DeviceView, endpoint: str) -> Any:
    """None when the tablet may go there; else where it goes instead: its home for a page
    (the relief when nobody deals), 403 for anything else."""
    table = _table_of(request.view_args or {})
    own = table is None or table == device.table_id
    if own and endpoint in ANY_TIME:
        g.device_ok = True
        return None
    if own and endpoint in WHILE_DEALING and g.get("user") is not None:
        return None
    if request.method == "GET":
        return redirect(url_for("devices.home"))
    abort(403, description=N_("A table's tablet records its own table's steps and the relief, "
                              "nothing else: sign in for the rest."))


def may_reach(endpoint: str) -> bool:
    """For templates on a table device: only its own screens are links."""
    return endpoint in ANY_TIME | (WHILE_DEALING if g.get("user") is not None else frozenset())


def credential(pin_field: str) -> cosign.Credential:
    """The credential a form carries for one signer: the PIN typed in ``pin_field`` on this
    device, and (off a table device) the signed-in person, who signs by his own session."""
    device = g.get("device")
    user = g.get("user")
    signed_in = user.id if user is not None and device is None else None
    return cosign.Credential(pin=request.form.get(pin_field, "")[:16], signed_in=signed_in,
                             device_id=device.id if device is not None else None,
                             origin=(request.remote_addr or "unknown")[:40])
