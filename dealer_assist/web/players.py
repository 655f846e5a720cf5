"""Rated players' pages, for pit and management roles (who see names):

* ``/players`` -- find a player by his card, the newest cards, the day's rating slips as CSV;
* ``/players/<card>`` -- his ratings: every gaming day (or ``?day=``) with its table sessions,
  and over all of them (definitions: ``services.players.ratings``);
* ``/players/slips.csv?day=YYYY-MM-DD`` -- every rating slip of a gaming day, the columns a
  player-tracking system imports: card, table, game, start, end, average bet, wagered, win,
  theoretical (times in the floor's zone, ISO 8601; average bet rounded half up).
"""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

from flask import Response, g, redirect, render_template, request, url_for

from .. import db
from ..edge import PageBlueprint, role_required
from ..edge.header_values import attachment
from ..services.errors import ValidationError
from ..services.players import cards, rated
from ..services.players.played import EdgeBook
from .tables import floor_zone, gaming_today

bp = PageBlueprint("players", __name__, url_prefix="/players")
READERS = tuple(sorted(cards.NAME_READERS))
CSV_COLUMNS = ("card", "table", "game", "start", "end", "average_bet", "wagered", "win",
               "theoretical")


def edges() -> EdgeBook:
    """The lab's stored house edges (the ``lab_figure`` table), for theoretical wins."""
    return EdgeBook(db.get_session())


def _day(raw: str | None, default: date | None = None) -> date | None:
    if not raw or not raw.strip():
        return default
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ValidationError("day must be a date like 2026-03-14.", field="day") from None


@bp.get("/")
@role_required(*READERS)
def index() -> Any:
    card = request.args.get("card", "").strip()
    if card:
        return redirect(url_for("players.page", card=cards.card_number(card)))
    return render_template("players/index.html", today=gaming_today(),
                           players=cards.recent(db.get_session(), g.user.role), zone=floor_zone())


@bp.get("/<string:card>")
@role_required(*READERS)
def page(card: str) -> str:
    day = _day(request.args.get("day"))
    found = rated.player_ratings(db.get_session(), card, reader_role=g.user.role,
                                 edges=edges(), day=day)
    return render_template("players/page.html", rated=found, day=day, zone=floor_zone())


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and not _number(text) else text


def _number(text: str) -> bool:
    return text.lstrip("-").isdigit()


@bp.get("/slips.csv")
@role_required(*READERS)
def slips_csv() -> Response:
    day = _day(request.args.get("day"), gaming_today())
    assert day is not None
    zone = floor_zone()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for card, slip in rated.day_slips(db.get_session(), day, edges()):
        r = slip.rating
        writer.writerow([_cell(v) for v in (
            card, slip.table, slip.game,
            r.start.astimezone(zone).isoformat(timespec="seconds") if r.start else "",
            r.end.astimezone(zone).isoformat(timespec="seconds") if r.end else "",
            r.average_bet.rounded, r.wagered, r.win, r.theoretical)])
    resp = Response(out.getvalue(), mimetype="text/csv")
    resp.headers["Content-Disposition"] = attachment(f"rating-slips-{day}.csv")
    resp.headers["Cache-Control"] = "no-store"
    return resp
