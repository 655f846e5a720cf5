"""The shift report's steps recorded offline: each step that waited in a table
tablet's queue (round, step, tapped time against received time) and each queued step the
server refused when it was sent (with the reason), so the report says what the record is.

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its
stored events are the record."
"""

from __future__ import annotations

from datetime import tzinfo
from typing import Any

from sqlalchemy import select
from sqlmodel import Session

from ...models import Round, RoundEvent
from ..rounds import offline
from .sections import at

_EVENT = RoundEvent.__table__  # type: ignore[attr-defined]
_ROUND = Round.__table__  # type: ignore[attr-defined]


def section(session: Session, shift_id: int, zone: tzinfo | None) -> dict[str, Any]:
    """``steps``: the shift's events recorded offline, by round and sequence; ``refused``: the
    queued steps refused, in the order they were sent."""
    ev, rnd = _EVENT.c, _ROUND.c
    query = (select(rnd.number, ev.seq, ev.type, ev.tapped_at, ev.created_at)
             .join_from(_EVENT, _ROUND, rnd.id == ev.round_id)
             .where(rnd.shift_id == shift_id, ev.offline.is_(True))
             .order_by(rnd.number, ev.seq))
    steps = [{"round": number, "seq": seq, "step": type, "tapped_at": at(tapped, zone),
              "received_at": at(received, zone)}
             for number, seq, type, tapped, received in session.connection().execute(query)]
    refused = [{"round": r.round_number, "step": r.type, "tapped_at": at(r.tapped_at, zone),
                "received_at": at(r.created_at, zone), "status": r.status, "why": r.detail,
                "reason": r.reason}
               for r in offline.refusals(session, shift_id=shift_id)]
    return {"steps": steps, "refused": refused}
