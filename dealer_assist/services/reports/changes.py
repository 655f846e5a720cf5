"""The shift report's corrections, voids and dispute counts, as plain data.

Read through the services that wrote them (``disputes.corrections``, ``disputes.queue``,
``voids.changes``), so the report names the same people the review pages do.

**Sign convention.** A ``round_correction.amount`` is stored from the player's side, like a
settlement's ``net``: +120 means the house paid the player 120 more. The report prints the
*house* view, ``house = -amount``: a negative number lowers the house win. So

    house win after corrections = computed house win + sum(house) = computed - sum(amount).

Who asked and who approved: for an approved correction request, its requester and its approver;
for a dispute adjustment (and the reversal written when a later decision supersedes it), the
person who filed the dispute and the person who decided. A voided round lists its approved void
request (reason, requester, approver); a round closed as void at the table (a redeal) has none:
it names the croupier who recorded the ``void`` event and no approver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundEvent, RoundStatus, User
from ...models.audit import ChangeKind, CorrectionSource
from ...rules.phrase import Phrase
from ..disputes import disputes
from ..people import duties
from ..rounds import voids

LIMIT = 1_000_000  # every row of one shift (the services' default limit is for pages)
SOURCE_TITLES = {CorrectionSource.DISPUTE.value: Phrase("Dispute upheld"),
                 CorrectionSource.CORRECTION.value: Phrase("Correction"),
                 CorrectionSource.REVERSAL.value: Phrase("Dispute reversal")}
TABLE_VOID_REASON = Phrase("Redeal: closed as void at the table")

At = Callable[[datetime | None], str | None]


def corrections(session: Session, shift_id: int, at: At) -> dict[str, Any]:
    """Each correction (oldest first) with its house-view amount, and their total."""
    rows = disputes.corrections(session, shift_id=shift_id)
    requests = {c.id: c for c in voids.changes(session, shift_id=shift_id, limit=LIMIT)}
    filed_by = {dec.id: d.filed_by_name
                for d in disputes.queue(session, shift_id=shift_id, limit=LIMIT)
                for dec in d.decisions}
    items = []
    for c in rows:
        request = requests.get(c.request_id) if c.request_id is not None else None
        asked = request.requested_by_name if request else filed_by.get(
            c.dispute_decision_id or 0, "?")
        items.append({"round": c.round_number, "box": c.box or "", "source": c.source,
                      "kind": SOURCE_TITLES.get(c.source, c.source), "reason": c.reason,
                      "player": c.amount, "house": -c.amount, "at": at(c.created_at),
                      "requested_by": asked, "approved_by": c.approved_by_name,
                      "after_close": duties.after_close(session, shift_id, c.created_at)})
    return {"items": items, "count": len(items),
            "player": sum(i["player"] for i in items), "house": sum(i["house"] for i in items)}


def voided_rounds(session: Session, shift_id: int, at: At) -> list[dict[str, Any]]:
    """Every voided round with why, who asked and who approved."""
    rows = session.exec(select(Round).where(Round.shift_id == shift_id,
                                            Round.status == RoundStatus.VOIDED.value)
                        .order_by(col(Round.number))).all()
    approved = {c.round_id: c for c in voids.changes(
        session, shift_id=shift_id, kind=ChangeKind.VOID.value, status=voids.APPROVED,
        limit=LIMIT)}
    at_table = _table_voids(session, [r.id for r in rows if r.id not in approved])
    out = []
    for rnd in rows:
        request = approved.get(rnd.id or 0)
        if request is not None:
            out.append({"round": rnd.number, "at": at(rnd.opened_at), "reason": request.reason,
                        "requested_by": request.requested_by_name,
                        "approved_by": request.decided_by_name,
                        "approved_at": at(request.decided_at), "note": request.note})
        else:
            out.append({"round": rnd.number, "at": at(rnd.opened_at),
                        "reason": TABLE_VOID_REASON,
                        "requested_by": at_table.get(rnd.id or 0, "?"), "approved_by": None,
                        "approved_at": None, "note": ""})
    return out


def _table_voids(session: Session, round_ids: list[int | None]) -> dict[int, str]:
    """Who recorded the ``void`` event of each round voided at the table."""
    wanted = [i for i in round_ids if i is not None]
    if not wanted:
        return {}
    query = (select(RoundEvent.round_id, User.display_name)
             .join(User, col(User.id) == RoundEvent.actor_id)
             .where(col(RoundEvent.round_id).in_(wanted), RoundEvent.type == "void")
             .order_by(col(RoundEvent.round_id), col(RoundEvent.seq)))
    return {rid: name for rid, name in session.exec(query).all() if rid is not None}


def dispute_summary(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Filed, upheld, denied, escalated and open counts; amounts claimed and adjusted."""
    statuses = Counter(i["status"] for i in items)
    return {"filed": len(items), **{s: statuses.get(s, 0) for s in disputes.STATUSES},
            "claimed": sum(i["claimed"] for i in items),
            "adjusted": sum(i["adjustment"] for i in items)}
