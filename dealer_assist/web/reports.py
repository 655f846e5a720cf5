"""Shift reports and the table inventory pages.

* ``/reports/`` lists recent shifts; ``/reports/shifts/<id>`` previews a shift's report (the
  same template the PDF is printed from) and ``/reports/shifts/<id>.pdf?size=a4|letter``
  downloads it. For shift managers, pit bosses and administrators.
* ``/reports/shifts/<id>/inventory`` is the pit's page: the opening count, fills and credits,
  and closing the shift with its closing count. For pit bosses and shift managers (the pit
  boss signs under their own account and names the croupier).
"""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from .. import db, pdf
from ..edge import (
    FLOOR_READERS,
    PIT_ROLES,
    PageBlueprint,
    Refused,
    as_id,
    device,
    form_error,
    may_reach,
    on_refusal,
    role_required,
)
from ..edge.header_values import attachment
from ..i18n.formats import when
from ..i18n.wording import N_
from ..models import utcnow
from ..services import reports
from ..services.cage import issues, slips
from ..services.errors import ValidationError
from ..services.shifts import inventory, shifts
from ..services.tables import chips, tables
from .forms import text, whole_number
from .tables import chip_counts, floor_zone

bp = PageBlueprint("reports", __name__, url_prefix="/reports")
READERS = FLOOR_READERS
PIT = PIT_ROLES


def _zone() -> tuple[tzinfo | None, str]:
    zone = floor_zone()
    name = current_app.config.get("TIMEZONE") or (utcnow().astimezone().tzname() or "local")
    return zone, name


def _report(shift_id: int) -> tuple[dict[str, Any], str]:
    zone, name = _zone()
    return reports.report_with_digest(db.get_session(), shift_id, zone=zone, zone_name=name)


@bp.get("/")
@role_required(*READERS)
def index() -> str:
    return render_template("reports/index.html",
                           shifts=reports.recent_shifts(db.get_session()), zone=_zone()[0])


@bp.get("/shifts/<int:shift_id>")
@role_required(*READERS)
def preview(shift_id: int) -> str:
    data, sha = _report(shift_id)
    links = [(N_("← All shifts"), url_for("reports.index")),
             (N_("Download PDF (A4)"), url_for("reports.download", shift_id=shift_id,
                                               size="a4")),
             (N_("Download PDF (Letter)"), url_for("reports.download", shift_id=shift_id,
                                                   size="letter"))]
    if may_reach("reports.inventory_page"):
        links.append((N_("Inventory · close shift"),
                      url_for("reports.inventory_page", shift_id=shift_id)))
    return pdf.report_html(data, sha, preview=True, links=links)


def _filename(data: dict[str, Any], size: str) -> str:
    table = re.sub(r"\W+", "-", data["shift"]["table"]).strip("-") or "table"
    return f"shift-{data['shift']['id']}-{table}-{data['shift']['gaming_date']}-{size}.pdf"


@bp.get("/shifts/<int:shift_id>.pdf")
@role_required(*READERS)
def download(shift_id: int) -> Response:
    size = request.args.get("size", "a4").lower()
    if size not in pdf.PAGE_SIZES:
        abort(404)
    data, sha = _report(shift_id)
    printed = when(datetime.now(_zone()[0]))  # the reader's date format
    html = pdf.report_html(data, sha, page_size=size,
                           printed_at=gettext("%(when)s by %(who)s", when=printed,
                                              who=g.user.display_name))
    timeout = float(current_app.config.get("REPORT_PDF_TIMEOUT_SECONDS", pdf.DEFAULT_TIMEOUT))
    try:
        body = pdf.html_to_pdf(html, static_dir=current_app.static_folder or "",
                               timeout=timeout)
    except (pdf.RenderTimeout, pdf.RenderFailed) as err:
        current_app.logger.error("shift %s report PDF: %s", shift_id, err)
        abort(503, description=gettext("The PDF could not be made (%(error)s). Try again, or "
                                       "use the preview and print it from the browser.",
                                       error=str(err)))
    resp = Response(body, mimetype="application/pdf")
    resp.headers["Content-Disposition"] = attachment(_filename(data, size))
    resp.headers["X-Report-SHA256"] = sha
    resp.headers["Cache-Control"] = "no-store"
    return resp


# --- the pit's inventory page ---------------------------------------------------------------------

def _inventory_page(shift_id: int, **extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    shift = shifts.get_shift(dbs, shift_id)
    croupiers, bosses = inventory.candidates(dbs)
    table = tables.get_table(dbs, shift.table_id)
    return {"shift": shift, "table": table, "denominations": chips.denominations(table.chip_set),
            "inv": inventory.inventory_of(dbs, shift_id), "croupiers": croupiers,
            "bosses": bosses, "open_rounds": inventory.open_rounds(dbs, shift_id),
            "has_rounds": inventory.has_rounds(dbs, shift_id),
            "slips": slips.of_shift(dbs, shift_id),
            "cage_waiting": issues.of_shift(dbs, shift_id, waiting=True),
            "zone": _zone()[0], "form": request.form if request.method == "POST" else {},
            **extra}


def _person(name: str, label: str) -> int:
    found = as_id(request.form.get(name, ""))
    if found is None:
        raise ValidationError("Choose the %(label)s.", label=label, field=name)
    return found


def _counted(dbs: Any, shift_id: int, name: str, label: str) -> dict[str, Any]:
    """A count from the form: chip by chip (``chips.<denomination>`` fields, the table's chip
    set) or, from an older client, one amount in ``name``."""
    if any(key.startswith("chips.") for key in request.form):
        table = tables.get_table(dbs, shifts.get_shift(dbs, shift_id).table_id)
        return {"amount": None, "chips": chip_counts(chips.denominations(table.chip_set))}
    return {"amount": whole_number(name, label), "chips": None}


def _transfer_amount(dbs: Any, shift_id: int) -> dict[str, Any]:
    """The chips received or sent by denomination (the slip lists them) when any
    chip field is filled in, else one amount if typed, else the cage's issued amount."""
    if any(v.strip() for k, v in request.form.items() if k.startswith("chips.")):
        return _counted(dbs, shift_id, "amount", "The amount")
    if request.form.get("amount", "").strip():
        return {"amount": whole_number("amount", "The amount"), "chips": None}
    return {"amount": None, "chips": None}


@bp.get("/shifts/<int:shift_id>/inventory")
@role_required(*PIT)
def inventory_page(shift_id: int) -> str:
    return render_template("reports/inventory.html", **_inventory_page(shift_id))


def _inventory_refused(err: Refused, shift_id: int) -> Any:
    return form_error(err, "reports/inventory.html", **_inventory_page(shift_id))


def _save(shift_id: int, action: Any, done: str) -> Any:
    action(db.get_session())
    flash(done, "success")
    return redirect(url_for("reports.inventory_page", shift_id=shift_id))


@bp.post("/shifts/<int:shift_id>/opening-count")
@on_refusal(_inventory_refused)
@role_required(*PIT)
def opening_count(shift_id: int) -> Any:
    return _save(shift_id, lambda dbs: inventory.record_opening_count(
        dbs, shift_id=shift_id, **_counted(dbs, shift_id, "amount", "The opening count"),
        croupier_id=_person("croupier_id", "croupier"), pit_boss_id=g.user.id,
        actor_id=g.user.id, note=text("note", max_length=500),
        credential=device.credential("croupier_pin")), "Opening count recorded.")


@bp.post("/shifts/<int:shift_id>/transfers")
@on_refusal(_inventory_refused)
@role_required(*PIT)
def transfer(shift_id: int) -> Any:
    """The table signs for a fill or credit the cage issued."""
    kind = request.form.get("kind") or None
    return _save(shift_id, lambda dbs: inventory.record_transfer(
        dbs, shift_id=shift_id, issue_id=as_id(request.form.get("issue_id", "")), kind=kind,
        **_transfer_amount(dbs, shift_id),
        croupier_id=_person("croupier_id", "croupier"), pit_boss_id=g.user.id,
        actor_id=g.user.id, note=text("note", max_length=500),
        credential=device.credential("croupier_pin")),
        gettext("Signed for: the slip is numbered."))


@bp.post("/shifts/<int:shift_id>/close")
@on_refusal(_inventory_refused)
@role_required(*PIT)
def close(shift_id: int) -> Any:
    dbs = db.get_session()
    if request.form.get("confirm") != "yes":
        raise ValidationError("Tick the box to confirm the closing count and signatures.",
                              field="confirm")
    counted = _counted(dbs, shift_id, "closing_amount", "The closing count")
    inventory.close_shift(
        dbs, shift_id=shift_id, closing_amount=counted["amount"], chips=counted["chips"],
        croupier_id=_person("croupier_id", "croupier"), pit_boss_id=g.user.id,
        actor_id=g.user.id, note=text("note", max_length=500),
        credential=device.credential("croupier_pin"))
    flash(gettext("Shift closed. Its rounds are now read-only."), "success")
    return redirect(url_for("reports.inventory_page", shift_id=shift_id))
