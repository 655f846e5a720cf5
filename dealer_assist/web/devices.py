"""Table devices' pages: a tablet bound to one table.

``/device`` is a table device's home: its table's screen while someone deals there, else the
relief. ``/tables/<id>/device`` binds the tablet in front of a pit boss to the table (his own
login on it ends; the tablet keeps the device's cookie, ``edge.device``); ``/devices/<id>/revoke``
ends a device (from the floor page).
"""

from __future__ import annotations

from typing import Any

from flask import flash, g, make_response, redirect, request, url_for
from flask_babel import gettext

from .. import db
from ..edge import (
    ALL_ROLES,
    PageBlueprint,
    Refused,
    device,
    end_login,
    on_refusal,
    role_required,
    same_site,
)
from ..i18n.wording import say
from ..models import Role
from ..services.tables import devices, tables
from .relief import screen_url

bp = PageBlueprint("devices", __name__)
BINDERS = tuple(sorted(devices.BINDERS))


@bp.get("/device")
@role_required(*sorted(ALL_ROLES - {Role.AUDITOR.value}))
def home() -> Any:
    """A table device's home: its table's screen while someone deals there, else the relief."""
    bound = g.get("device")
    if bound is None:
        return redirect(url_for("web.home"))
    if g.get("user") is not None:
        return redirect(screen_url(tables.get_table(db.get_session(), bound.table_id)))
    return redirect(url_for("relief.page", table_id=bound.table_id))


def _bind_refused(err: Refused, table_id: int) -> Any:
    flash(say(err.message), "error")  # in the reader's language
    return redirect(url_for("tables.detail", table_id=table_id))


@bp.post("/tables/<int:table_id>/device")
@on_refusal(_bind_refused)
@role_required(*BINDERS)
def bind(table_id: int) -> Any:
    """Make the tablet in front of the pit boss the table's device; his own login on it ends."""
    dbs = db.get_session()
    bound, token = devices.bind(dbs, table_id=table_id, actor_id=g.user.id,
                                label=request.form.get("label", ""))
    end_login(dbs)
    flash(gettext("This tablet is now the device of %(table)s: it shows this table's screen and "
                  "the relief, nothing else.", table=bound.table), "success")
    resp = make_response(redirect(url_for("devices.home"), 303))
    return device.set_cookie(resp, token)


def _revoke_refused(err: Refused, **_: Any) -> Any:
    flash(say(err.message), "error")  # in the reader's language
    return redirect(same_site(request.referrer) or url_for("floor.page"))


@bp.post("/devices/<int:device_id>/revoke")
@on_refusal(_revoke_refused)
@role_required(*BINDERS)
def revoke(device_id: int) -> Any:
    ended = devices.revoke(db.get_session(), device_id=device_id, actor_id=g.user.id)
    flash(gettext("%(label)s no longer acts for %(table)s.", label=ended.label,
                  table=ended.table), "success")
    return redirect(same_site(request.form.get("next")) or url_for("floor.page"), 303)
