"""The table's money as the cage counts it: pages.

* ``POST /cage/tables/<id>/buy-ins`` -- the table screen's buy-in (croupier, pit): one form,
  any moment of a round, back to the table screen.
* ``/cage/drop`` -- the soft count: a gaming date's drop boxes, each counted by two
  authenticated members of the count team (a PIN each, or the signed-in counter's own
  session); the count team only, independent of the pit.
* ``/cage/issues`` -- the cage cashier issues a fill or credit for a table's open
  shift; the table signs for it on the shift's inventory page.
* ``/cage/slips/<number>`` (preview), ``.pdf`` (the printed slip), ``POST .../void``.
* ``/cage/hold`` -- win, drop and hold for a gaming day, month-to-date and year-to-date
  (preview, ``.pdf``, ``.csv``), the fluctuations and their investigation notes, the slips'
  accounting.
"""

from __future__ import annotations

import csv
import io
from datetime import date
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
    on_refusal,
    role_required,
)
from ..edge.header_values import attachment
from ..i18n.wording import say
from ..models import Role
from ..services.cage import buyins, drop, issues, notes, slips, win
from ..services.errors import NotFound, ValidationError
from ..services.people import cosign
from ..services.reports import hold
from .forms import text, whole_number
from .tables import floor_zone

bp = PageBlueprint("cage", __name__, url_prefix="/cage")
READERS = FLOOR_READERS
PIT = PIT_ROLES
COUNTERS = tuple(sorted(drop.COUNTERS))
ISSUERS = tuple(sorted(issues.ISSUERS))
#: a slip is read by the floor's readers and by the cage that issued it
SLIP_READERS = (*READERS, *ISSUERS)
RECORDERS = tuple(sorted(buyins.RECORDERS))


def _day(name: str = "date") -> date:
    raw = (request.values.get(name) or "").strip()
    if not raw:
        return win.latest_day(db.get_session())
    try:
        return date.fromisoformat(raw)
    except ValueError:
        abort(400, description=gettext("A date looks like 2026-03-14."))


def _optional(name: str) -> str | None:
    return text(name, max_length=40) or None


# --- buy-ins ----------------------------------------------------------------------------------

def _buy_in_refused(err: Refused, table_id: int) -> Any:
    flash(f"{gettext('Buy-in')}: {say(err.message)}", "error")
    return redirect(url_for("live.screen", table_id=table_id), 303)


@bp.post("/tables/<int:table_id>/buy-ins")
@on_refusal(_buy_in_refused)
@role_required(*RECORDERS)
def buy_in(table_id: int) -> Any:
    done = buyins.record_buy_in(db.get_session(), table_id=table_id,
                                amount=whole_number("buy_in", gettext("Buy-in")),
                                actor_id=g.user.id, seat=_optional("seat"),
                                player=_optional("player"),
                                key=request.form.get("key", "")[:64])
    if done.created:
        flash(gettext("Buy-in %(amount)s: the cash into the drop box, the chips from the "
                      "tray.", amount=f"{done.amount:,}"), "success")
    return redirect(url_for("live.screen", table_id=table_id), 303)


# --- the soft count ---------------------------------------------------------------------------

def _denominations() -> tuple[int, ...]:
    return tuple(current_app.config.get("CASH_DENOMINATIONS") or drop.DEFAULT_CASH)


def _drop_page(day: date, **extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    days = win.days_between(dbs, day, day)
    tables = win.table_names(dbs)
    people = drop.counters(dbs)
    chosen = as_id(request.values.get("table", ""))
    return {"day": day, "days": days, "tables": tables, "people": people, "chosen": chosen,
            "denominations": _denominations(), "form": request.form,
            "letters": drop.LETTERS[:_signers()], **extra}


def _signers() -> int:
    """How many of the count team sign (the casino's setting; at least two)."""
    return min(len(drop.LETTERS), max(2, int(current_app.config.get("COUNT_TEAM_SIGNERS", 2))))


@bp.get("/drop")
@role_required(*COUNTERS)
def drop_page() -> str:
    return render_template("cage/drop.html", **_drop_page(_day()))


def _counter_credential(pin_field: str) -> cosign.Credential:
    """A typed PIN authenticates the counter by PIN; a blank one means the signed-in counter
    signs by his own session (anyone else is then asked for his PIN)."""
    typed = device.credential(pin_field)
    if typed.pin:
        return cosign.Credential(typed.pin, None, typed.device_id, typed.origin)
    return typed


def _cash() -> dict[int, int]:
    out = {}
    for denom in _denominations():
        raw = request.form.get(f"cash.{denom}", "").strip()
        out[denom] = whole_number(f"cash.{denom}", gettext("Notes of %(value)s", value=denom)) \
            if raw else 0
    return out


@bp.post("/drop")
@on_refusal(lambda err, **_: form_error(err, "cage/drop.html", **_drop_page(_day())))
@role_required(*COUNTERS)
def soft_count() -> Any:
    """A wrong PIN's failure is kept (throttling: the edge commits it); nothing else is."""
    day = _day()
    table_id = as_id(request.form.get("table", ""))
    team = [as_id(request.form.get(f"counter_{x}", "")) for x in drop.LETTERS[:_signers()]]
    if table_id is None:
        raise ValidationError("Choose the table.", field="table")
    if None in team:
        raise ValidationError("Choose the counters.",
                              field=f"counter_{drop.LETTERS[team.index(None)]}")
    a, b, *more = [t or 0 for t in team]
    counted = drop.soft_count(
        db.get_session(), table_id=table_id, gaming_date=day, cash=_cash(), counter_a=a,
        counter_b=b, credential_a=_counter_credential("counter_a_pin"),
        credential_b=_counter_credential("counter_b_pin"), actor_id=g.user.id,
        more=[(p, _counter_credential(f"counter_{x}_pin"))
              for p, x in zip(more, drop.LETTERS[2:], strict=False)],
        signers=_signers(),
        note=text("note", max_length=500), denominations=_denominations(),
        note_threshold=int(current_app.config.get("DROP_VARIANCE_NOTE_THRESHOLD", 100)))
    flash(gettext("Drop counted: %(amount)s.", amount=f"{counted.amount:,}"), "success")
    return redirect(url_for("cage.drop_page", date=day.isoformat()))


# --- the cage issues fills and credits ---------------------------------------------------------

def _issues_page(**extra: Any) -> dict[str, Any]:
    dbs = db.get_session()
    return {"tables": issues.open_tables(dbs), "issued": issues.recent(dbs),
            "form": request.form, "zone": floor_zone(), **extra}


@bp.get("/issues")
@role_required(*ISSUERS)
def issues_page() -> str:
    return render_template("cage/issues.html", **_issues_page())


@bp.post("/issues")
@on_refusal(lambda err, **_: form_error(err, "cage/issues.html", **_issues_page()))
@role_required(*ISSUERS)
def issue() -> Any:
    table_id = as_id(request.form.get("table", ""))
    if table_id is None:
        raise ValidationError("Choose the table.", field="table")
    done = issues.issue(db.get_session(), kind=request.form.get("kind", ""), table_id=table_id,
                        amount=whole_number("amount", "Amount"),
                        actor_id=g.user.id, note=text("note", max_length=500))
    flash(gettext("%(kind)s of %(amount)s issued to %(table)s: the table signs for it.",
                  kind=gettext("Fill") if done.kind == "fill" else gettext("Credit"),
                  amount=f"{done.amount:,}", table=done.table), "success")
    return redirect(url_for("cage.issues_page"), 303)


# --- slips ------------------------------------------------------------------------------------

def _slip_html(number: int, *, preview: bool) -> str:
    slip = slips.get_slip(db.get_session(), number)
    links = [(gettext("PDF"), url_for("cage.slip_pdf", number=number))] if preview else []
    return pdf.print_html("reports/slip.html", preview=preview, links=links, slip=slip,
                          zone=floor_zone())


@bp.get("/slips/<int:number>")
@role_required(*SLIP_READERS)
def slip_page(number: int) -> str:
    return _slip_html(number, preview=True)


def _pdf(html: str, filename: str) -> Response:
    timeout = float(current_app.config.get("REPORT_PDF_TIMEOUT_SECONDS", pdf.DEFAULT_TIMEOUT))
    try:
        body = pdf.html_to_pdf(html, static_dir=current_app.static_folder or "", timeout=timeout)
    except (pdf.RenderTimeout, pdf.RenderFailed) as err:
        abort(503, description=gettext("The PDF could not be made (%(error)s). Try again, or "
                                       "use the preview and print it from the browser.",
                                       error=str(err)))
    resp = Response(body, mimetype="application/pdf")
    resp.headers["Content-Disposition"] = attachment(filename)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/slips/<int:number>.pdf")
@role_required(*SLIP_READERS)
def slip_pdf(number: int) -> Response:
    return _pdf(_slip_html(number, preview=False), f"slip-{number}.pdf")


def _void_refused(err: Refused, number: int) -> Any:
    """Back to the slip's shift with the refusal (a wrong PIN's failure is kept: the edge
    commits it); a slip that does not exist is a 404."""
    number = as_id(request.form.get("number", "")) or number
    flash(f"{gettext('Slip')} {number}: {say(err.message)}", "error")
    found = slips.shift_of(db.get_session(), number)
    if found is None:
        raise NotFound("No slip number %(number)s.", number=number)
    return redirect(url_for("reports.inventory_page", shift_id=found), 303)


@bp.post("/slips/<int:number>/void")
@on_refusal(_void_refused)
@role_required(*PIT)
def void(number: int) -> Any:
    """The slip to void: the one the form's list names (one form for every slip of the
    shift), else the URL's."""
    number = as_id(request.form.get("number", "")) or number
    dbs = db.get_session()
    slip = slips.get_slip(dbs, number)
    signer = as_id(request.form.get("signer_id", ""))
    if signer is None:
        raise ValidationError("Choose who signs the void with you.", field="signer_id")
    slips.void_slip(dbs, number=number, reason=text("reason", max_length=500),
                    actor_id=g.user.id, signer_id=signer,
                    credential=device.credential("signer_pin"))
    flash(gettext("Slip %(number)s is void.", number=number), "success")
    return redirect(url_for("reports.inventory_page", shift_id=slip.shift_id), 303)


# --- the hold report --------------------------------------------------------------------------

def _hold(day: date) -> dict[str, Any]:
    band = hold.band_from(current_app.config.get("HOLD_BAND"))
    return hold.build_hold_report(db.get_session(), day, band=band)


@bp.get("/hold")
@role_required(*READERS)
def hold_page() -> str:
    day = _day()
    links = [(gettext("← Shift reports"), url_for("reports.index")),
             (gettext("PDF"), url_for("cage.hold_pdf", date=day.isoformat())),
             (gettext("CSV"), url_for("cage.hold_csv", date=day.isoformat()))]
    return pdf.print_html("reports/hold.html", preview=True, links=links, r=_hold(day),
                          may_note=g.user.role in notes.WRITERS)


@bp.get("/hold.pdf")
@role_required(*READERS)
def hold_pdf() -> Response:
    day = _day()
    html = pdf.print_html("reports/hold.html", r=_hold(day), may_note=False)
    return _pdf(html, f"hold-{day.isoformat()}.pdf")


@bp.get("/hold.csv")
@role_required(*READERS)
def hold_csv() -> Response:
    day = _day()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([gettext("Line"), gettext("Table"), gettext("Game"), gettext("Period"),
                     gettext("From"), gettext("To"), gettext("Drop"), gettext("Win"),
                     gettext("Hold %"), gettext("Settled win"), gettext("Variance"),
                     gettext("Days not counted"), gettext("Outside the band"),
                     gettext("Investigation notes")])
    for row in hold.csv_rows(_hold(day)):
        writer.writerow(row)
    resp = Response(out.getvalue().encode("utf-8-sig"), mimetype="text/csv")
    resp.headers["Content-Disposition"] = attachment(f"hold-{day.isoformat()}.csv")
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _note_refused(err: Refused, **_: Any) -> Any:
    flash(say(err.message), "error")
    return redirect(url_for("cage.hold_page", date=_day().isoformat()), 303)


@bp.post("/hold/notes")
@on_refusal(_note_refused)
@role_required(Role.SHIFT_MANAGER.value)
def hold_note() -> Any:
    day = _day()
    table_id = as_id(request.form.get("table", ""))
    if table_id is None:
        raise ValidationError("Choose the table.", field="table")
    notes.write_note(db.get_session(), table_id=table_id, period=request.form.get("period", ""),
                     day=day, note=text("note", max_length=500), actor_id=g.user.id)
    flash(gettext("Investigation note kept with the report."), "success")
    return redirect(url_for("cage.hold_page", date=day.isoformat()), 303)
