"""The shift report's steps recorded offline (issue 34): each step that waited in a table
tablet's queue (round, step, tapped time against received time) and each queued step the
server refused when it was sent (with the reason), so the report says what the record is.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its
stored events are the record."
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundEvent
from ..rounds import offline
from .sections import at


def section(session: Session, shift_id: int, zone: tzinfo | None) -> dict[str, Any]:
    """``steps``: the shift's events recorded offline, by round and sequence; ``refused``: the
    queued steps refused, in the order they were sent."""
    query = (select(Round.number, RoundEvent.seq, RoundEvent.type, RoundEvent.tapped_at,
                    RoundEvent.created_at)
             .join(Round, col(Round.id) == RoundEvent.round_id)
             .where(Round.shift_id == shift_id, col(RoundEvent.offline).is_(True))
             .order_by(col(Round.number), col(RoundEvent.seq)))
    steps = [{"round": number, "seq": seq, "step": type, "tapped_at": at(tapped, zone),
              "received_at": at(received, zone)}
             for number, seq, type, tapped, received in session.exec(query).all()]
    refused = [{"round": r.round_number, "step": r.type, "tapped_at": at(r.tapped_at, zone),
                "received_at": at(r.created_at, zone), "status": r.status, "why": r.detail,
                "reason": r.reason}
               for r in offline.refusals(session, shift_id=shift_id)]
    return {"steps": steps, "refused": refused}
