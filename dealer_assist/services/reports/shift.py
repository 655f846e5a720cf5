"""The end-of-shift report as plain data: deterministic, canonical JSON, a stated SHA-256.

:func:`build_shift_report` reads the shift, its table, its rounds and the **stored**
settlements (the newest ``RoundSettlement`` of each settled round; the report never re-settles),
the round events (who recorded, undo corrections) and the inventory, and returns a plain dict of
ints, strings, lists and None. No clock is read: the same database gives the same dict, hence
the same bytes from :func:`canonical_json` and the same :func:`digest`. Times are shown in the
floor's zone passed in (the zone's name is part of the data).

Money is an int throughout; ratios (hold, no-game rate) are kept as an exact fraction
``{"num", "den"}`` with a two-decimal percentage string rounded half up by integer arithmetic.
Money semantics (player's view in the stored settlement, ``net`` signed): for each wager,
*wagered* is the sum of stakes, *collected* the sum of the house's takings (losing nets),
*paid* the sum of winning nets, and the *house win* is collected - paid (= -sum of nets). Fees
count as wagered (they are stakes the house always takes), so hold = house win / total wagered.

Corrections after payment (``round_correction``: upheld disputes, approved corrections,
reversals) and the voids' reasons and approvers come from :mod:`.changes`; corrections are
shown from the house's side (``house = -amount``) and the *house win after corrections* is the
computed win plus their house total (see ``docs/reports.md``).

Disputes come from the ``dispute`` table (newest decision of each; "open" when undecided). The
audit chain entry shown is the one that recorded the shift's closing (``seq:hash``), which never
changes afterwards; an open shift has none yet (``available: false``). The live chain head would
move with every later write and break the report's determinism.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any

from sqlmodel import Session, col, func, select

from ...models import GameTable, Round, Shift
from ...rules.games.registry import POKER_REPORT, get_game
from ..cage import buyins
from ..decisions import shift_section
from ..errors import NotFound
from ..figures import house_edge, theoretical
from ..players import rated
from ..players.played import EdgeBook
from . import changes as report_changes
from . import dealers, house, offline_steps, sections
from .poker import build_poker_report

SCHEMA = "dealer_assist/shift-report/2"


def build_shift_report(session: Session, shift_id: int, *, zone: tzinfo | None = None,
                       zone_name: str = "UTC") -> dict[str, Any]:
    """The whole report as plain data (see the module docstring for the meaning of each sum);
    the theoretical win from the lab's figures stored in the database (none: unavailable)."""
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    table = session.get(GameTable, shift.table_id)
    assert table is not None
    if get_game(table.game).report == POKER_REPORT:  # chips, pots and rake, not wagers
        return build_poker_report(session, shift, table, zone=zone, zone_name=zone_name)

    rows = sections.settlements(session, shift_id)
    by_actor, undos = sections.event_stats(session, shift_id)
    names = sections.user_names(session, [*by_actor, shift.opened_by,
                                          *([shift.closed_by] if shift.closed_by else [])])
    money = house.wagers(rows)
    fixes = report_changes.corrections(session, shift_id, lambda t: sections.at(t, zone))
    win = money["total"]["house_win"]
    corrected = win + fixes["house"]
    inv = sections.inventory_section(session, shift_id, win, corrected, zone,
                                     buyins.total_of_shift(session, shift_id))
    counts, voids = sections.round_counts(session, shift_id, rows, zone)
    largest, capped = house.payouts(rows, table.max_payout, zone)
    closing = inv["closing"] or {}
    figures = house_edge.stored(session, table.profile)
    return {
        "schema": SCHEMA,
        "shift": sections.shift_section(session, shift, table, names, zone, zone_name),
        "staff": [{"name": names.get(uid, ("?", ""))[0], "role": names.get(uid, ("", "?"))[1],
                   "events": n}
                  for uid, n in sorted(by_actor.items(), key=lambda kv: (-kv[1], kv[0]))],
        "dealers": dealers.dealers_section(session, shift, zone),
        "rounds": counts,
        "wagers": money["lines"], "total": money["total"], "hold": money["hold"],
        "after_corrections": {"corrections": fixes["house"], "house_win": corrected,
                              "hold": sections.ratio(corrected, money["total"]["wagered"])},
        "inventory": inv,
        "dealer": house.dealer(rows),
        "theoretical": theoretical.section(rows, table.profile, figures, table.strategy),
        "decisions": _decisions(session, rows, figures),
        "top_players": rated.top_players(session, shift_id, EdgeBook(session)),
        "hands_paid": house.hands_paid(rows),
        "largest_payouts": largest,
        "capped": capped,
        "voids": voids,
        "corrections": [{"round": n, "undos": k} for n, k in sorted(undos.items())],
        "paid_corrections": fixes,
        "resettled": [{"round": r.number, "settlements": v} for r, _s, v in rows if v > 1],
        "disputes": sections.disputes_section(session, shift_id, zone),
        # steps recorded on the tablet offline, and the queued steps refused
        "offline": offline_steps.section(session, shift_id, zone),
        "audit_chain": sections.audit_section(session, shift),
        "cumulative": house.cumulative(rows),
        "cumulative_rounds": house.cumulative_rounds(rows),
        "signatures": sections.signatures(closing),
    }


def _decisions(session: Session, rows: list[tuple[Round, dict[str, Any], int]],
               figures: dict[str, Any] | None) -> dict[str, Any]:
    """Every recorded decision judged: the win split against the best strategy and
    the advantage-play alerts."""
    found = theoretical.edge_of(figures, "best")
    return shift_section(session, rows, found[0] if found else None)


@dataclass(frozen=True, slots=True)
class ShiftLine:
    """One line of the list of shifts: enough to choose a report."""

    id: int
    table: str
    gaming_date: date
    status: str
    opened_at: datetime
    closed_at: datetime | None
    rounds: int


def recent_shifts(session: Session, limit: int = 100) -> list[ShiftLine]:
    """The most recent shifts (newest first) with their number of rounds."""
    counts = (select(Round.shift_id, func.count().label("n")).group_by(col(Round.shift_id))
              .subquery())
    query = (select(Shift, GameTable.name, counts.c.n)
             .join(GameTable, col(GameTable.id) == Shift.table_id)
             .outerjoin(counts, counts.c.shift_id == Shift.id)
             .order_by(col(Shift.opened_at).desc(), col(Shift.id).desc())
             .limit(limit))
    return [ShiftLine(s.id or 0, name, s.gaming_date, s.status, s.opened_at, s.closed_at, n or 0)
            for s, name, n in session.exec(query).all()]


def report_with_digest(session: Session, shift_id: int, *, zone: tzinfo | None = None,
                       zone_name: str = "UTC") -> tuple[dict[str, Any], str]:
    data = build_shift_report(session, shift_id, zone=zone, zone_name=zone_name)
    return data, sections.digest(data)
