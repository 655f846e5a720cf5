"""Per-dealer figures: the shift report's dealers section and a dealer's page.

For each dealer of a shift: his stints (from, to), the minutes he dealt, the rounds (or poker
hands) whose dealer of record he is, settled and voided, rounds per hour, the corrections asked
for on his rounds, and the disputes upheld on them. A stint still open has no end yet; the report
reads no clock (the same database gives the same bytes), so it counts up to the shift's last
round or the stint's start, whichever is later (``open_end``), and says the stint is open.

Rounds per hour are an exact decimal string (two places, rounded half up, integer arithmetic),
like the report's percentages: no float enters the report's JSON.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime, timedelta, tzinfo
from typing import Any

from sqlmodel import Session, col, func, select

from ...models import (
    DealerStint,
    Dispute,
    DisputeDecision,
    GameTable,
    Round,
    RoundChangeRequest,
    RoundStatus,
    Shift,
    User,
)
from ..errors import NotFound
from ..people import stints as people_stints
from . import sections


def per_hour(count: int, minutes: int) -> str | None:
    """``count`` per hour over ``minutes`` as a two-decimal string, rounded half up."""
    if minutes <= 0:
        return None
    hundredths = (2 * count * 6000 + minutes) // (2 * minutes)
    return f"{hundredths // 100}.{hundredths % 100:02d}"


def _upheld_by_round(session: Session, shift_id: int) -> Counter[int]:
    """Disputes of the shift whose newest decision upheld them, per round id."""
    newest = (select(DisputeDecision.dispute_id, func.max(DisputeDecision.number).label("n"))
              .group_by(col(DisputeDecision.dispute_id)).subquery())
    query = (select(Dispute.round_id)
             .join(newest, newest.c.dispute_id == Dispute.id)
             .join(DisputeDecision, (col(DisputeDecision.dispute_id) == Dispute.id)
                   & (col(DisputeDecision.number) == newest.c.n))
             .where(Dispute.shift_id == shift_id, DisputeDecision.outcome == "upheld"))
    return Counter(session.exec(query).all())


def _corrections_by_round(session: Session, shift_id: int) -> Counter[int]:
    query = select(RoundChangeRequest.round_id).where(RoundChangeRequest.shift_id == shift_id,
                                                      RoundChangeRequest.kind == "correction")
    return Counter(session.exec(query).all())


def open_end(session: Session, shift: Shift) -> datetime | None:
    """Where an open stint's count stops on a report: the shift's last round (no clock)."""
    last: datetime | None = session.exec(select(func.max(Round.opened_at))
                                         .where(Round.shift_id == shift.id)).one()
    return last


def dealers_section(session: Session, shift: Shift, zone: tzinfo | None) -> list[dict[str, Any]]:
    """One line per dealer of the shift, in the order they first dealt."""
    assert shift.id is not None
    views = people_stints.of_shift(session, shift.id)
    rounds = session.exec(select(Round.id, Round.dealer_id, Round.status)
                          .where(Round.shift_id == shift.id)).all()
    upheld, corrections = _upheld_by_round(session, shift.id), _corrections_by_round(session,
                                                                                     shift.id)
    stop = open_end(session, shift)
    lines: dict[int, dict[str, Any]] = {}
    for view in views:
        line = lines.setdefault(view.dealer_id, _line(view.dealer_id, view.dealer))
        end = view.ended_at or max(stop or view.started_at, view.started_at)
        minutes = max(0, int((end - view.started_at).total_seconds()) // 60)
        line["minutes"] += minutes
        line["stints"].append({"from": sections.at(view.started_at, zone),
                               "to": sections.at(view.ended_at, zone), "minutes": minutes,
                               "kind": view.kind, "authorized_by": view.authorized_by_name})
    names = sections.user_names(session, [d for _i, d, _s in rounds if d is not None])
    by_status: dict[int, Counter[str]] = defaultdict(Counter)
    for round_id, dealer, status in rounds:
        if dealer is None or round_id is None:
            continue
        line = lines.setdefault(dealer, _line(dealer, names.get(dealer, ("?", ""))[0]))
        by_status[dealer][status] += 1
        line["corrections_requested"] += corrections[round_id]
        line["disputes_upheld"] += upheld[round_id]
    for dealer, line in lines.items():
        counted = by_status[dealer]
        line["rounds"] = sum(counted.values())
        line["settled"] = counted[RoundStatus.SETTLED.value]
        line["voided"] = counted[RoundStatus.VOIDED.value]
        line["per_hour"] = per_hour(line["rounds"], line["minutes"])
    roles = {uid: role for uid, (_n, role) in sections.user_names(session, lines).items()}
    for dealer, line in lines.items():
        line["role"] = roles.get(dealer, "")
    return list(lines.values())


def _line(dealer_id: int, name: str) -> dict[str, Any]:
    return {"dealer_id": dealer_id, "name": name, "role": "", "stints": [], "minutes": 0,
            "rounds": 0, "settled": 0, "voided": 0, "per_hour": None,
            "corrections_requested": 0, "disputes_upheld": 0}


def dealer_page(session: Session, user_id: int, *, zone: tzinfo | None, days: int = 31,
                now: datetime) -> dict[str, Any]:
    """A dealer's shifts over the last ``days``: each shift's line for him, and the totals."""
    user = session.get(User, user_id)
    if user is None:
        raise NotFound("No account with id %(user_id)s.", user_id=user_id)
    since = now - timedelta(days=days)
    shift_ids = session.exec(select(DealerStint.shift_id).where(
        DealerStint.dealer_id == user_id, col(DealerStint.started_at) >= since,
        col(DealerStint.shift_id).is_not(None)).distinct()).all()
    dealt = session.exec(select(Round.shift_id).where(
        Round.dealer_id == user_id, col(Round.opened_at) >= since).distinct()).all()
    shifts = session.exec(select(Shift).where(col(Shift.id).in_({*shift_ids, *dealt}))
                          .order_by(col(Shift.opened_at).desc())).all()
    out = []
    for shift in shifts:
        mine = [line for line in dealers_section(session, shift, zone)
                if line["dealer_id"] == user_id]
        if mine:
            table = session.get(GameTable, shift.table_id)
            out.append({"shift_id": shift.id, "table": table.name if table else "?",
                        "game": table.game if table else "",
                        "gaming_date": shift.gaming_date.isoformat(), **mine[0]})
    totals: dict[str, Any] = {k: sum(int(s[k]) for s in out)
                              for k in ("minutes", "rounds", "settled", "voided",
                                        "corrections_requested", "disputes_upheld")}
    totals["stints"] = sum(len(s["stints"]) for s in out)
    totals["per_hour"] = per_hour(totals["rounds"], totals["minutes"])
    return {"dealer": {"id": user_id, "name": user.display_name, "role": user.role},
            "days": days, "shifts": out, "totals": totals}

