"""The API: a buy-in at the table (table staff), a numbered slip and the day/MTD/YTD hold
report (read-only: pit, managers, auditors). Same services as the pages (``web/cage.py``)."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Any

from flask import current_app, g, request

from .. import db
from ..edge import FLOOR_READERS, problem, role_required
from ..services.cage import buyins, slips, win
from ..services.reports import hold
from .operations import (
    WRITE,
    answer,
    parsed,
    path_param,
    query,
    read_answers,
    route,
    write_answers,
)
from .shapes.cage import BuyIn, BuyInCreate, HoldReport, Slip

READERS = FLOOR_READERS


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


@route("post", "/tables/<int:table_id>/buy-ins",
       "Record cash exchanged for chips at the table (any moment of a round)", tag="cage",
       body=BuyInCreate, answers=write_answers(BuyIn),
       parameters=(path_param("table_id", "the table"), *WRITE),
       example={"amount": 5000, "seat": "2", "player": "C-1007"})
@role_required(*sorted(buyins.RECORDERS))
def create_buy_in(table_id: int) -> Any:
    cash = parsed(BuyInCreate).got
    dbs = db.get_session()
    done = buyins.record_buy_in(dbs, table_id=table_id, amount=cash.amount, actor_id=g.user.id,
                                seat=cash.seat, player=cash.player, key=cash.key)
    out = _plain(done)
    del out["created"]
    return answer(BuyIn, out), 201 if done.created else 200


@route("get", "/slips/<int:number>", "A numbered slip (fill, credit, opener, closer)",
       tag="cage", answers=read_answers(Slip), parameters=(path_param("number", "the slip"),))
@role_required(*READERS)
def get_slip(number: int) -> Any:
    out = _plain(slips.get_slip(db.get_session(), number))
    out["signed"] = [{"name": n, "method": m} for n, m in out["signed"]]
    for key in ("id", "currency", "transfer_id", "count_id", "extra"):
        out.pop(key, None)
    return answer(Slip, out)


@route("get", "/hold", "Win, drop and hold for a gaming day, month and year to date",
       tag="cage", answers={**read_answers(HoldReport), "400": "BadRequest"},
       parameters=(query("date", "the gaming date (YYYY-MM-DD; default the newest with a "
                         "shift)", type="string", format="date"),))
@role_required(*READERS)
def hold_report() -> Any:
    raw = request.args.get("date", "").strip()
    try:
        day = date.fromisoformat(raw) if raw else win.latest_day(db.get_session())
    except ValueError:
        return problem(400, "Bad request", "date: a gaming date like 2026-03-14",
                       field="date")
    band = hold.band_from(current_app.config.get("HOLD_BAND"))
    return answer(HoldReport, hold.build_hold_report(db.get_session(), day, band=band))
