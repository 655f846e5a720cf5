"""A table's page and opening a shift on it (the live round screens will hang off this page)."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import db
from ..config import floor_zone as floor_zone  # the pages import it from here
from ..edge import (
    PageBlueprint,
    any_role,
    as_id,
    device,
    form_error,
    may_reach,
    on_refusal,
    role_required,
)
from ..i18n.formats import when
from ..models import Role, utcnow
from ..rules.games.registry import get_game
from ..services.errors import ValidationError
from ..services.shifts import inventory, shifts
from ..services.tables import chips, tables
from .forms import optional_date, text

bp = PageBlueprint("tables", __name__, url_prefix="/tables")
SHIFT_OPENERS = (Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value)


def gaming_today() -> Any:
    """The gaming date on the floor now (``GAMING_DAY_START_HOUR`` in the floor's zone)."""
    return shifts.gaming_date_at(utcnow(), floor_zone(),
                                 int(current_app.config["GAMING_DAY_START_HOUR"]))


def _page(table_id: int) -> dict[str, Any]:
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    croupiers, bosses = inventory.candidates(dbs)
    return {"table": table, "shift": shifts.open_shift_of(dbs, table_id),
            "today": gaming_today(), "openers": SHIFT_OPENERS,
            "denominations": chips.denominations(table.chip_set), "croupiers": croupiers,
            "bosses": bosses, "form": request.form if request.method == "POST" else {}}


def chip_counts(denominations: tuple[int, ...]) -> dict[int, int]:
    """The ``chips.<denomination>`` fields of a count form (empty: none of that chip)."""
    out = {}
    for denom in denominations:
        raw = request.form.get(f"chips.{denom}", "").strip().replace(" ", "")
        if raw and not raw.isdigit():
            raise ValidationError("The number of %(denom)s chips must be a whole number.",
                                  denom=format(denom, ','),
                                  field=f"chips.{denom}")
        out[denom] = int(raw or 0)
    return out


def person(name: str, label: str) -> int:
    found = as_id(request.form.get(name, ""))
    if found is None:
        raise ValidationError("Choose the %(label)s.", label=label, field=name)
    return found


def _signers() -> tuple[int, int]:
    """(croupier, pit boss) of the opening count: the signed-in user is one of them."""
    if g.user.role == Role.CROUPIER.value:
        return g.user.id, person("pit_boss_id", "pit boss who counts with you")
    return person("croupier_id", "croupier who counts with you"), g.user.id


@bp.get("/<int:table_id>")
@any_role
def detail(table_id: int) -> str:
    return render_template("tables/detail.html", **_page(table_id))


@bp.post("/<int:table_id>/shifts")
@on_refusal(lambda err, table_id: form_error(err, "tables/detail.html", **_page(table_id)))
@role_required(*SHIFT_OPENERS)
def open_shift(table_id: int) -> Any:
    """Open the shift with its opening count, chip by chip, signed by the croupier and the pit
    boss (the signed-in user is one of the two; the other types his PIN)."""
    dbs = db.get_session()
    table = tables.get_table(dbs, table_id)
    croupier_id, pit_boss_id = _signers()
    other_pin = "pit_boss_pin" if g.user.id == croupier_id else "croupier_pin"
    shift, _count = inventory.open_shift_with_count(
        dbs, table_id=table_id, actor_id=g.user.id, croupier_id=croupier_id,
        pit_boss_id=pit_boss_id, chips=chip_counts(chips.denominations(table.chip_set)),
        credential=device.credential(other_pin),
        note=text("note", max_length=500),
        gaming_date=optional_date("gaming_date", "The gaming date"), zone=floor_zone(),
        start_hour=int(current_app.config["GAMING_DAY_START_HOUR"]))
    flash(gettext("Shift opened for gaming date %(v)s.", v=when(shift.gaming_date, "date")),
          "success")
    if get_game(table.game).poker_room and may_reach("poker.screen"):  # the poker screen
        return redirect(url_for("poker.screen", table_id=table_id))
    if may_reach("live.screen"):  # the croupier came to deal: go straight to the table screen
        return redirect(url_for("live.screen", table_id=table_id))
    return redirect(url_for("tables.detail", table_id=table_id))
