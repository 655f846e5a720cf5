"""What the house and the poker shift reports share: exact ratios, the canonical JSON and its
digest, the stored settlements, the people, and the sections both print (the shift's head, the
round counts, the inventory, the disputes, the audit chain entry, the signatures).

See :mod:`.shift` for the meaning of each sum; every time is shown in the floor's zone passed in.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import datetime, tzinfo
from typing import Any

from sqlmodel import Session, col, func, select

from ... import audit
from ...models import GameTable, Round, RoundEvent, RoundSettlement, RoundStatus, Shift, User
from ...models.audit import AuditEntry, Dispute, DisputeDecision
from ...rules.games.registry import get_game
from ...rules.phrase import Phrase
from ..shifts import inventory
from . import changes as report_changes

#: message ids (the report's data keeps the English; the PDF says them in the reader's language)
ROLE_TITLES = {"croupier": Phrase("Croupier"), "pit_boss": Phrase("Pit boss"),
               "shift_manager": Phrase("Shift manager"), "admin": Phrase("Administrator")}


def percent(num: int, den: int) -> str | None:
    """``num/den`` as a percentage with two decimals, rounded half away from zero, no float."""
    if den == 0:
        return None
    sign = "-" if (num < 0) != (den < 0) and num != 0 else ""
    n, d = abs(num) * 10000, abs(den)
    hundredths = (2 * n + d) // (2 * d)
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def ratio(num: int, den: int) -> dict[str, Any]:
    return {"num": num, "den": den, "percent": percent(num, den)}


def canonical_json(data: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: the bytes the digest is taken of."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def digest(data: Any) -> str:
    return hashlib.sha256(canonical_json(data)).hexdigest()


def at(moment: datetime | None, zone: tzinfo | None) -> str | None:
    return moment.astimezone(zone).isoformat(timespec="seconds") if moment else None


def settlements(session: Session, shift_id: int) -> list[tuple[Round, dict[str, Any], int]]:
    """(round, newest stored settlement, number of settlement rows) of each settled round."""
    query = (select(Round, RoundSettlement)
             .join(RoundSettlement, col(RoundSettlement.round_id) == Round.id)
             .where(Round.shift_id == shift_id, Round.status == RoundStatus.SETTLED.value)
             .order_by(col(Round.number), col(RoundSettlement.through_seq)))
    newest: dict[int, tuple[Round, RoundSettlement]] = {}
    versions: Counter[int] = Counter()
    for rnd, row in session.exec(query):
        newest[rnd.number] = (rnd, row)
        versions[rnd.number] += 1
    return [(rnd, json.loads(row.settlement), versions[n])
            for n, (rnd, row) in sorted(newest.items())]


def user_names(session: Session, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(select(User).where(col(User.id).in_(wanted))).all()
    return {u.id or 0: (u.display_name, u.role) for u in rows}


def event_stats(session: Session, shift_id: int) -> tuple[Counter[int], dict[int, int]]:
    """Events recorded per user, and undo corrections per round number."""
    query = (select(RoundEvent.actor_id, RoundEvent.type, Round.number, func.count())
             .join(Round, col(Round.id) == RoundEvent.round_id)
             .where(Round.shift_id == shift_id)
             .group_by(col(RoundEvent.actor_id), col(RoundEvent.type), col(Round.number)))
    by_actor: Counter[int] = Counter()
    undos: dict[int, int] = defaultdict(int)
    for actor, kind, number, n in session.exec(query):
        by_actor[actor] += n
        if kind == "undo":
            undos[number] += n
    return by_actor, dict(undos)


def inventory_section(session: Session, shift_id: int, win: int, corrected: int,
                      zone: tzinfo | None, buy_ins: int = 0) -> dict[str, Any]:
    """The counts, the transfers (with their slip numbers; a void slip counts not) and the
    reconciliation: ``tray`` = closing - opening + credits - fills, ``win`` = tray + the buy-ins
    recorded at the table (the chips sold for cash left the tray; a poker table's
    chips sold are its own section, so it passes none), the variances against ``win``."""
    inv = inventory.inventory_of(session, shift_id)
    roles = {uid: role for uid, (_n, role) in user_names(session, [
        *(c.signed.pit_boss_id for c in (inv.opening, inv.closing) if c),
        *(t.signed.pit_boss_id for t in inv.transfers)]).items()}

    def signers(s: inventory.Signed) -> dict[str, Any]:
        """The pit's signer is printed in the role they signed in (a shift manager as such)."""
        role = roles.get(s.pit_boss_id, "pit_boss")
        return {"croupier": s.croupier, "pit_boss": s.pit_boss, "pit_boss_role": role,
                "pit_boss_title": ROLE_TITLES.get(role, role)}

    def count(c: inventory.CountView | None) -> dict[str, Any] | None:
        if c is None:
            return None
        return {"amount": c.amount, "at": at(c.counted_at, zone), **signers(c.signed),
                "note": c.note, "chips": [{"denomination": d, "chips": n}
                                          for d, n in sorted(c.chips.items()) if n]}

    transfers = [{"kind": t.kind, "amount": t.amount, "at": at(t.at, zone),
                  **signers(t.signed), "note": t.note, "slip": t.slip, "void": t.void}
                 for t in inv.transfers]
    table_win = None if inv.win is None else inv.win + buy_ins
    return {"opening": count(inv.opening), "closing": count(inv.closing),
            "transfers": transfers, "fills": inv.fills, "credits": inv.credits,
            "tray": inv.win, "buy_ins": buy_ins, "win": table_win,
            "hold": ratio(table_win, buy_ins) if table_win is not None else None,
            "variance": None if table_win is None else table_win - win,
            "variance_corrected": None if table_win is None else table_win - corrected}


def disputes_section(session: Session, shift_id: int, zone: tzinfo | None) -> dict[str, Any]:
    query = (select(Dispute, Round.number).join(Round, col(Round.id) == Dispute.round_id)
             .where(Dispute.shift_id == shift_id).order_by(col(Round.number), col(Dispute.id)))
    items = []
    for dispute, number in session.exec(query).all():
        decision = session.exec(select(DisputeDecision)
                                .where(DisputeDecision.dispute_id == dispute.id)
                                .order_by(col(DisputeDecision.number).desc())
                                ).first()
        items.append({"round": number, "box": dispute.box, "claimed": dispute.claimed_amount,
                      "filed_at": at(dispute.filed_at, zone),
                      "status": decision.outcome if decision else "open",
                      "adjustment": decision.adjustment if decision else 0,
                      "resolution": decision.note if decision else ""})
    return {"available": True, "items": items, "summary": report_changes.dispute_summary(items)}


def audit_section(session: Session, shift: Shift) -> dict[str, Any]:
    """The audit entry that recorded the shift's closing (fixed once written)."""
    if shift.closed_at is None:
        return {"available": False, "head": None, "note": Phrase("shift still open")}
    entry = session.exec(select(AuditEntry).where(AuditEntry.entity == "shift",
                                                  AuditEntry.entity_id == str(shift.id))
                         .order_by(col(AuditEntry.seq).desc())).first()
    if entry is None:
        return {"available": False, "head": None,
                "note": Phrase("no audit entry for the closing")}
    key = audit.key_of(session)
    signed = audit.sign_head(key, entry.seq, entry.hash) if key is not None else None
    return {"available": True, "head": f"{entry.seq}:{entry.hash}", "note": "closing entry",
            "signature": signed,
            "signed_head": f"{entry.seq}:{entry.hash}:{signed}" if signed else None}


def signatures(closing: dict[str, Any]) -> list[dict[str, Any]]:
    """The three signature lines; the closing count's pit signer fills the line of the role
    they signed in (a shift manager's name never lands on the pit boss's line)."""
    signer_role = closing.get("pit_boss_role")
    return [{"role": "Croupier", "name": closing.get("croupier")},
            *({"role": ROLE_TITLES[role],
               "name": closing.get("pit_boss") if signer_role == role else None}
              for role in ("pit_boss", "shift_manager"))]


def shift_section(session: Session, shift: Shift, table: GameTable,
                  names: dict[int, tuple[str, str]], zone: tzinfo | None,
                  zone_name: str) -> dict[str, Any]:
    times = session.exec(select(func.min(Round.opened_at), func.max(Round.opened_at))
                         .where(Round.shift_id == shift.id)).one()
    return {
        "id": shift.id, "table": table.name, "game": table.game,
        "game_title": get_game(table.game).title, "profile": table.profile,
        "gaming_date": shift.gaming_date.isoformat(), "status": shift.status,
        "timezone": zone_name, "opened_at": at(shift.opened_at, zone),
        "closed_at": at(shift.closed_at, zone),
        "opened_by": names.get(shift.opened_by, ("?", ""))[0],
        "closed_by": names[shift.closed_by][0] if shift.closed_by in names else None,
        "first_round_at": at(times[0], zone), "last_round_at": at(times[1], zone),
        "limits": {"min_ante": table.min_ante, "max_ante": table.max_ante,
                   "max_payout": table.max_payout},
    }


def round_counts(session: Session, shift_id: int, rows: list[tuple[Round, dict[str, Any], int]],
            zone: tzinfo | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Round and box counts, and the voided rounds."""
    statuses = Counter(session.exec(select(Round.status).where(Round.shift_id == shift_id)).all())
    boxes = [b for _r, s, _v in rows for b in s["boxes"]]
    counts = {"total": sum(statuses.values()), "settled": len(rows),
              "voided": statuses.get(RoundStatus.VOIDED.value, 0),
              "open": statuses.get(RoundStatus.OPEN.value, 0),
              "boxes": len(boxes), "boxes_folded": sum(1 for b in boxes if b["folded"])}
    return counts, report_changes.voided_rounds(session, shift_id, lambda t: at(t, zone))
