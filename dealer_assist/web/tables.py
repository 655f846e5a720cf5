"""A table's page and opening a shift on it (the live round screens will hang off this page)."""

from __future__ import annotations

from datetime import tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from flask import Blueprint, current_app, flash, g, redirect, render_template, url_for

from .. import db
from ..models import Role, utcnow
from ..services import shifts, tables
from ..services.errors import ServiceError
from .errors import form_error
from .forms import optional_date
from .security import any_role, may_reach, role_required

bp = Blueprint("tables", __name__, url_prefix="/tables")
SHIFT_OPENERS = (Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value)


def floor_zone() -> tzinfo | None:
    """The casino floor's time zone (``TIMEZONE``), or None for the server's local zone."""
    name = current_app.config.get("TIMEZONE") or ""
    return ZoneInfo(name) if name else None


def _today() -> Any:
    return shifts.gaming_date_at(utcnow(), floor_zone(),
                                 int(current_app.config["GAMING_DAY_START_HOUR"]))


def _page(table_id: int) -> dict[str, Any]:
    dbs = db.get_session()
    return {"table": tables.get_table(dbs, table_id),
            "shift": shifts.open_shift_of(dbs, table_id),
            "today": _today(), "openers": SHIFT_OPENERS}


@bp.get("/<int:table_id>")
@any_role
def detail(table_id: int) -> str:
    return render_template("tables/detail.html", **_page(table_id))


@bp.post("/<int:table_id>/shifts")
@role_required(*SHIFT_OPENERS)
def open_shift(table_id: int) -> Any:
    dbs = db.get_session()
    try:
        shift = shifts.open_shift(
            dbs, table_id=table_id, user_id=g.user.id,
            gaming_date=optional_date("gaming_date", "The gaming date"), zone=floor_zone(),
            start_hour=int(current_app.config["GAMING_DAY_START_HOUR"]))
        dbs.commit()
    except ServiceError as err:
        return form_error(err, "tables/detail.html", **_page(table_id))
    flash(f"Shift opened for gaming date {shift.gaming_date.isoformat()}.", "success")
    if may_reach("live.screen"):  # the croupier came to deal: go straight to the table screen
        return redirect(url_for("live.screen", table_id=table_id))
    return redirect(url_for("tables.detail", table_id=table_id))
