"""The floor's view of the tables' tablets: offline since when, the steps waiting in
a returning tablet's queue, and the queued steps the server refused.

A table whose bound device has not been heard from for ``heard.OFFLINE_AFTER`` (10 s) is
offline since the last time it was heard from; once it is heard from again with steps queued
(its ping's figures), the floor says how many steps of how many rounds wait. Each refused
queued step (``offline_refusal``) of the table's open shift is shown until a pit boss marks it
seen (a table with no open shift: every unseen one, e.g. a step refused because the shift
closed). The floor page's ETag includes :func:`fingerprint`, so a table going offline (which
writes nothing) changes the page.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlmodel import Session

from ..rounds import offline
from ..tables import heard


def tablet(found: heard.Heard | None) -> dict[str, Any] | None:
    """One table's tablet as the floor card shows it (None: no bound device)."""
    if found is None:
        return None
    return {"offline": found.offline, "since": found.heard_at.isoformat(),
            "queued_steps": found.queue.steps, "queued_rounds": found.queue.rounds}


def refusal(r: offline.RefusalView) -> dict[str, Any]:
    return {"id": r.id, "round": r.round_number, "round_id": r.round_id, "step": r.type,
            "why": r.detail, "reason": r.reason, "status": r.status,
            "tapped_at": r.tapped_at.isoformat() if r.tapped_at else None,
            "received_at": r.created_at.isoformat()}


def add_to_cards(session: Session, cards: list[dict[str, Any]], now: datetime) -> None:
    """Each card's ``tablet`` and ``refusals`` (two queries for the whole floor)."""
    ids = [card["id"] for card in cards]
    devices = heard.of_tables(session.connection(), ids, now)
    unseen = offline.refusals(session, table_ids=ids, unseen=True) if ids else []
    for card in cards:
        card["tablet"] = tablet(devices.get(card["id"]))
        card["refusals"] = [refusal(r) for r in unseen if r.table_id == card["id"]
                            and (card["shift_id"] is None or r.shift_id == card["shift_id"])]


def fingerprint(session: Session, now: datetime) -> str:
    """What of the tablets the floor shows and no audit entry moves: which tables are offline
    and the queue figures (a digest, for the page's ETag)."""
    devices = heard.of_tables(session.connection(), heard.tables_with_devices(
        session.connection()), now)
    state = sorted((t, d.offline, d.heard_at.isoformat() if d.offline else "",
                    d.queue.steps, d.queue.rounds) for t, d in devices.items())
    return hashlib.sha256(repr(state).encode()).hexdigest()[:16]
