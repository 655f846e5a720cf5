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
reversals) and the voids' reasons and approvers come from :mod:`.report_changes`; corrections are
shown from the house's side (``house = -amount``) and the *house win after corrections* is the
computed win plus their house total (see ``docs/reports.md``).

Disputes come from the ``dispute`` table (newest decision of each; "open" when undecided). The
audit chain entry shown is the one that recorded the shift's closing (``seq:hash``), which never
changes afterwards; an open shift has none yet (``available: false``). The live chain head would
move with every later write and break the report's determinism.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import Any

from sqlmodel import Session, col, func, select

from .. import audit
from ..models import (
    POKER_GAMES,
    GameTable,
    Round,
    RoundEvent,
    RoundSettlement,
    RoundStatus,
    Shift,
    User,
)
from ..models_audit import AuditEntry, Dispute, DisputeDecision
from ..rules.phrase import Phrase
from ..rules.ranking import Category
from ..rules.settlement import WAGER_NAMES
from . import inventory, report_changes, theoretical
from .errors import NotFound

SCHEMA = "dealer_assist/shift-report/2"
WAGER_TITLES = {"ante": Phrase("Ante"), "bet": Phrase("Bet"),
                "improvement_fee": Phrase("Improvement fees"),
                "buy_game_fee": Phrase("Buy-game fees"), "insurance": Phrase("Insurance"),
                "bonus": Phrase("Bonus")}
GAME_TITLES = {"russian": Phrase("Russian poker"), "caribbean": Phrase("Caribbean stud"),
               "oasis": Phrase("Oasis poker"), "split": Phrase("Big/Small hand")}
#: message ids (the report's data keeps the English; the PDF says them in the reader's language)
ROLE_TITLES = {"croupier": Phrase("Croupier"), "pit_boss": Phrase("Pit boss"),
               "shift_manager": Phrase("Shift manager"), "admin": Phrase("Administrator")}
CATEGORY_ORDER = {c.value: i for i, c in enumerate(Category)}
TOP_PAYOUTS = 10


# --- formatting helpers (exact) -------------------------------------------------------------------

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


def _at(moment: datetime | None, zone: tzinfo | None) -> str | None:
    return moment.astimezone(zone).isoformat(timespec="seconds") if moment else None


# --- reading ------------------------------------------------------------------------------------

def _settlements(session: Session, shift_id: int) -> list[tuple[Round, dict[str, Any], int]]:
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


def _names(session: Session, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(select(User).where(col(User.id).in_(wanted))).all()
    return {u.id or 0: (u.display_name, u.role) for u in rows}


def _event_stats(session: Session, shift_id: int) -> tuple[Counter[int], dict[int, int]]:
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


# --- sections -----------------------------------------------------------------------------------

def _money(rows: list[tuple[Round, dict[str, Any], int]]) -> dict[str, Any]:
    """Per wager: boxes with a stake, wagered, collected, paid, house win; and the totals."""
    sums = {w: {"boxes": 0, "wagered": 0, "collected": 0, "paid": 0} for w in WAGER_NAMES}
    for _rnd, s, _v in rows:
        for box in s["boxes"]:
            for name, w in box["wagers"].items():
                line = sums.setdefault(name, {"boxes": 0, "wagered": 0, "collected": 0,
                                              "paid": 0})
                net, stake = int(w["net"]), int(w["stake"])
                line["boxes"] += stake > 0
                line["wagered"] += stake
                line["collected"] += -net if net < 0 else 0
                line["paid"] += net if net > 0 else 0
    lines = [{"wager": name, "title": WAGER_TITLES.get(name, name), **v,
              "house_win": v["collected"] - v["paid"]} for name, v in sums.items()]
    total = {k: sum(v[k] for v in sums.values()) for k in ("wagered", "collected", "paid")}
    total["house_win"] = total["collected"] - total["paid"]
    return {"lines": lines, "total": total,
            "hold": ratio(total["house_win"], total["wagered"])}


def _dealer(rows: list[tuple[Round, dict[str, Any], int]]) -> dict[str, Any]:
    no_game = sum(1 for _r, s, _v in rows if not s["dealer"].get("qualified", True))
    bought = sum(1 for _r, s, _v in rows if s["dealer"].get("bought"))
    return {"rounds": len(rows), "no_game": no_game, "bought": bought,
            "no_game_rate": ratio(no_game, len(rows))}


def _best(combinations: list[dict[str, Any]]) -> dict[str, Any]:
    return min(combinations, key=lambda c: (-int(c["multiplier"]),
                                            CATEGORY_ORDER.get(c["category"], 99)))


def _hands_paid(rows: list[tuple[Round, dict[str, Any], int]]) -> list[dict[str, Any]]:
    """Boxes whose bet was paid, by the category of their best paid combination.

    ``paid`` is what those boxes won net (the box's net: the fees it paid, collected at the tap,
    are taken off; the table screen's showdown PAY is the wagers alone); ``gross`` is the bet's
    win before the fees, labelled so.
    """
    by: dict[str, dict[str, int]] = {}
    for _r, s, _v in rows:
        for box in s["boxes"]:
            bet = box["wagers"].get("bet", {})
            if not box["combinations"] or int(bet.get("net", 0)) <= 0:
                continue
            line = by.setdefault(_best(box["combinations"])["category"],
                                 {"boxes": 0, "combinations": 0, "paid": 0, "gross": 0})
            line["boxes"] += 1
            line["combinations"] += len(box["combinations"])
            line["paid"] += _box_paid(box)
            line["gross"] += int(bet["net"])
    return [{"category": c, "label": _label(c), **v}
            for c, v in sorted(by.items(), key=lambda kv: CATEGORY_ORDER.get(kv[0], 99))]


def _label(category: str) -> str:
    try:
        return Category(category).label
    except ValueError:
        return category.replace("_", " ").capitalize()


def _box_paid(box: dict[str, Any]) -> int:
    """What the box won net: its net when positive (the fees it paid at the tap taken off)."""
    return max(int(box["net"]), 0)


def _box_gross(box: dict[str, Any]) -> int:
    """The box's winning wagers added up, before its lost fees and stakes are taken off."""
    return sum(int(w["net"]) for w in box["wagers"].values() if int(w["net"]) > 0)


def _box_line(rnd: Round, box: dict[str, Any], zone: tzinfo | None) -> dict[str, Any]:
    hand = box.get("hand") or {}
    return {"round": rnd.number, "at": _at(rnd.opened_at, zone), "box": box["box"],
            "seat": box.get("seat", box["box"]), "hand": hand.get("label", ""),
            "paid": _box_paid(box), "gross": _box_gross(box), "net": int(box["net"]),
            "capped": bool(box["capped"])}


#: the engine's cap notes: "capped at 50000 (maximum payout 50000 ...)" or "capped at the
#: maximum payout 50000"; the number after "maximum payout" is the cap that wager met
_CAP_NOTE = re.compile(r"capped at .*?maximum payout (\d+)(?P<shared> for [^)]*)?")


def _capped_wagers(rnd: Round, box: dict[str, Any], table_cap: int,
                   zone: tzinfo | None) -> list[dict[str, Any]]:
    """One line per capped wager of a capped box, each against its own cap (a bet and a bonus
    capped separately are two lines, never one sum "at the cap")."""
    hand = (box.get("hand") or {}).get("label", "")
    out = []
    for name, w in box["wagers"].items():
        note = _CAP_NOTE.search(str(w.get("explanation", "")))
        if note is None or int(w["net"]) <= 0:
            continue
        out.append({"round": rnd.number, "at": _at(rnd.opened_at, zone), "box": box["box"],
                    "hand": hand, "wager": name, "title": WAGER_TITLES.get(name, name),
                    "paid": int(w["net"]), "cap": int(note.group(1)),
                    "shared": (note.group("shared") or "").replace(" for ", "", 1)})
    if not out:  # an older settlement without a cap note: the box, against the table's cap
        out.append({"round": rnd.number, "at": _at(rnd.opened_at, zone), "box": box["box"],
                    "hand": hand, "wager": "", "title": "Box", "paid": _box_paid(box),
                    "cap": table_cap, "shared": ""})
    return out


def _payouts(rows: list[tuple[Round, dict[str, Any], int]], table_cap: int,
             zone: tzinfo | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ten largest payouts (what the croupier paid a box) and every capped wager."""
    paid = [(rnd, box) for rnd, s, _v in rows for box in s["boxes"] if _box_paid(box) > 0]
    paid.sort(key=lambda rb: (-_box_paid(rb[1]), rb[0].number, rb[1]["box"]))
    capped = [line for rnd, s, _v in rows for box in s["boxes"] if box["capped"]
              for line in _capped_wagers(rnd, box, table_cap, zone)]
    return ([_box_line(r, b, zone) for r, b in paid[:TOP_PAYOUTS]], capped)


def _cumulative(rows: list[tuple[Round, dict[str, Any], int]]) -> list[int]:
    out, total = [], 0
    for _r, s, _v in rows:
        total -= sum(int(b["net"]) for b in s["boxes"])
        out.append(total)
    return out


def _inventory(session: Session, shift_id: int, win: int, corrected: int,
               zone: tzinfo | None) -> dict[str, Any]:
    inv = inventory.inventory_of(session, shift_id)
    roles = {uid: role for uid, (_n, role) in _names(session, [
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
        return {"amount": c.amount, "at": _at(c.counted_at, zone), **signers(c.signed),
                "note": c.note, "chips": [{"denomination": d, "chips": n}
                                          for d, n in sorted(c.chips.items()) if n]}

    transfers = [{"kind": t.kind, "amount": t.amount, "at": _at(t.at, zone),
                  **signers(t.signed), "note": t.note} for t in inv.transfers]
    return {"opening": count(inv.opening), "closing": count(inv.closing),
            "transfers": transfers, "fills": inv.fills, "credits": inv.credits,
            "win": inv.win, "variance": None if inv.win is None else inv.win - win,
            "variance_corrected": None if inv.win is None else inv.win - corrected}


def _disputes(session: Session, shift_id: int, zone: tzinfo | None) -> dict[str, Any]:
    query = (select(Dispute, Round.number).join(Round, col(Round.id) == Dispute.round_id)
             .where(Dispute.shift_id == shift_id).order_by(col(Round.number), col(Dispute.id)))
    items = []
    for dispute, number in session.exec(query).all():
        decision = session.exec(select(DisputeDecision)
                                .where(DisputeDecision.dispute_id == dispute.id)
                                .order_by(col(DisputeDecision.number).desc())
                                ).first()
        items.append({"round": number, "box": dispute.box, "claimed": dispute.claimed_amount,
                      "filed_at": _at(dispute.filed_at, zone),
                      "status": decision.outcome if decision else "open",
                      "adjustment": decision.adjustment if decision else 0,
                      "resolution": decision.note if decision else ""})
    return {"available": True, "items": items, "summary": report_changes.dispute_summary(items)}


def _audit(session: Session, shift: Shift) -> dict[str, Any]:
    """The audit entry that recorded the shift's closing (fixed once written)."""
    if shift.closed_at is None:
        return {"available": False, "head": None, "note": "shift still open"}
    entry = session.exec(select(AuditEntry).where(AuditEntry.entity == "shift",
                                                  AuditEntry.entity_id == str(shift.id))
                         .order_by(col(AuditEntry.seq).desc())).first()
    if entry is None:
        return {"available": False, "head": None, "note": "no audit entry for the closing"}
    key = audit.key_of(session)
    signed = audit.sign_head(key, entry.seq, entry.hash) if key is not None else None
    return {"available": True, "head": f"{entry.seq}:{entry.hash}", "note": "closing entry",
            "signature": signed,
            "signed_head": f"{entry.seq}:{entry.hash}:{signed}" if signed else None}


def _signatures(closing: dict[str, Any]) -> list[dict[str, Any]]:
    """The three signature lines; the closing count's pit signer fills the line of the role
    they signed in (a shift manager's name never lands on the pit boss's line)."""
    signer_role = closing.get("pit_boss_role")
    return [{"role": "Croupier", "name": closing.get("croupier")},
            *({"role": ROLE_TITLES[role],
               "name": closing.get("pit_boss") if signer_role == role else None}
              for role in ("pit_boss", "shift_manager"))]


# --- the report -----------------------------------------------------------------------------------

def _shift(session: Session, shift: Shift, table: GameTable, names: dict[int, tuple[str, str]],
           zone: tzinfo | None, zone_name: str) -> dict[str, Any]:
    times = session.exec(select(func.min(Round.opened_at), func.max(Round.opened_at))
                         .where(Round.shift_id == shift.id)).one()
    return {
        "id": shift.id, "table": table.name, "game": table.game,
        "game_title": GAME_TITLES.get(table.game, table.game), "profile": table.profile,
        "gaming_date": shift.gaming_date.isoformat(), "status": shift.status,
        "timezone": zone_name, "opened_at": _at(shift.opened_at, zone),
        "closed_at": _at(shift.closed_at, zone),
        "opened_by": names.get(shift.opened_by, ("?", ""))[0],
        "closed_by": names[shift.closed_by][0] if shift.closed_by in names else None,
        "first_round_at": _at(times[0], zone), "last_round_at": _at(times[1], zone),
        "limits": {"min_ante": table.min_ante, "max_ante": table.max_ante,
                   "max_payout": table.max_payout},
    }


def _rounds(session: Session, shift_id: int, rows: list[tuple[Round, dict[str, Any], int]],
            zone: tzinfo | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Round and box counts, and the voided rounds."""
    statuses = Counter(session.exec(select(Round.status).where(Round.shift_id == shift_id)).all())
    boxes = [b for _r, s, _v in rows for b in s["boxes"]]
    counts = {"total": sum(statuses.values()), "settled": len(rows),
              "voided": statuses.get(RoundStatus.VOIDED.value, 0),
              "open": statuses.get(RoundStatus.OPEN.value, 0),
              "boxes": len(boxes), "boxes_folded": sum(1 for b in boxes if b["folded"])}
    return counts, report_changes.voided_rounds(session, shift_id, lambda t: _at(t, zone))


def build_shift_report(session: Session, shift_id: int, *, zone: tzinfo | None = None,
                       zone_name: str = "UTC") -> dict[str, Any]:
    """The whole report as plain data (see the module docstring for the meaning of each sum)."""
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    table = session.get(GameTable, shift.table_id)
    assert table is not None
    if table.game in POKER_GAMES:  # issue 15, part 4: chips, pots and rake, not wagers
        from .reports_poker import build_poker_report

        return build_poker_report(session, shift, table, zone=zone, zone_name=zone_name)
    rows = _settlements(session, shift_id)
    by_actor, undos = _event_stats(session, shift_id)
    names = _names(session, [*by_actor, shift.opened_by, *([shift.closed_by] if shift.closed_by
                                                           else [])])
    money = _money(rows)
    fixes = report_changes.corrections(session, shift_id, lambda t: _at(t, zone))
    win = money["total"]["house_win"]
    corrected = win + fixes["house"]
    inv = _inventory(session, shift_id, win, corrected, zone)
    counts, voids = _rounds(session, shift_id, rows, zone)
    largest, capped = _payouts(rows, table.max_payout, zone)
    closing = inv["closing"] or {}
    return {
        "schema": SCHEMA,
        "shift": _shift(session, shift, table, names, zone, zone_name),
        "staff": [{"name": names.get(uid, ("?", ""))[0], "role": names.get(uid, ("", "?"))[1],
                   "events": n}
                  for uid, n in sorted(by_actor.items(), key=lambda kv: (-kv[1], kv[0]))],
        "rounds": counts,
        "wagers": money["lines"], "total": money["total"], "hold": money["hold"],
        "after_corrections": {"corrections": fixes["house"], "house_win": corrected,
                              "hold": ratio(corrected, money["total"]["wagered"])},
        "inventory": inv,
        "dealer": _dealer(rows),
        "theoretical": theoretical.section(rows, table.profile),
        "hands_paid": _hands_paid(rows),
        "largest_payouts": largest,
        "capped": capped,
        "voids": voids,
        "corrections": [{"round": n, "undos": k} for n, k in sorted(undos.items())],
        "paid_corrections": fixes,
        "resettled": [{"round": r.number, "settlements": v} for r, _s, v in rows if v > 1],
        "disputes": _disputes(session, shift_id, zone),
        "audit_chain": _audit(session, shift),
        "cumulative": _cumulative(rows),
        "signatures": _signatures(closing),
    }


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
    return data, digest(data)
