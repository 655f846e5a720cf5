"""The end-of-shift report of a poker table (part 4), as plain data like the house
games' report (:mod:`.shift`: deterministic, canonical JSON, a stated SHA-256).

At a poker table the players play one another: the house takes no side of a pot. Its win is the
rake (or time charge) the hands collected, which the default profiles set to 0. What the floor
needs is where the chips went: the hands dealt, the players seated, the chips sold at the table
(buy-ins and rebuys, ``poker_chip_move``) and cashed out when a player left, the pots (total and
largest, with who won them and with what), disputes, voids and corrections, and the tray's
reconciliation.

The tray: chips leave it when the dealer sells them to a player (buy-in, rebuy) and enter it as
rake. A player leaving takes his chips to the cage, not to the tray, and a pot moves chips from
player to player only. So the tray's counted change (closing - opening + credits - fills, the
inventory's ``win``) must equal ``rake - chips sold``; a correction paid to a player after a
disputed award comes from the tray too (``house`` = -amount, as in the house games' report).
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from typing import Any

from sqlmodel import Session, col, select

from ...models import GameTable, Round, Shift
from ...models.poker import PokerSeat
from ...rules.ranking import Category
from ..rounds import store
from ..tables import poker as poker_tables
from . import changes as report_changes
from . import dealers, sections

SCHEMA = "dealer_assist/poker-shift-report/1"
#: message ids (the report's data keeps the English; the PDF says them in the reader's language)
CATEGORIES = frozenset(c.value for c in Category)
TOP_POTS = 10
SOLD = ("buy_in", "rebuy")


def _player_at(seats: list[PokerSeat], label: str, rnd: Round) -> str:
    """Who sat in seat ``label`` when the hand was dealt (the last one seated before it)."""
    before = [s for s in seats if s.seat == label and s.seated_at <= rnd.opened_at]
    return before[-1].player if before else f"Seat {label}"


def _players(session: Session, shift: Shift, seats: list[PokerSeat],
             rows: list[tuple[Round, dict[str, Any], int]],
             zone: tzinfo | None) -> list[dict[str, Any]]:
    """Each player seated in the shift: chips bought and cashed out here, hands played, net, and
    the time he played (the rating's definition: first to last hand, or sit-down to
    leave when they were tapped in this shift)."""
    assert shift.id is not None
    out: dict[tuple[str, str], dict[str, Any]] = {}
    times: dict[tuple[str, str], list[datetime]] = {}

    def line(seat: str, player: str) -> dict[str, Any]:
        return out.setdefault((seat, player), {"seat": seat, "player": player, "bought_in": 0,
                                               "cashed_out": 0, "hands": 0, "net": 0})

    for move in poker_tables.chip_moves(session, shift.id):
        entry = line(move.seat, move.player)
        entry["cashed_out" if move.kind == "cash_out" else "bought_in"] += move.amount
    ends = store.round_ends(session, [r.id for r, _s, _v in rows if r.id is not None])
    for rnd, settled, _v in rows:
        for seat, net in settled["net"].items():
            key = (seat, _player_at(seats, seat, rnd))
            entry = line(*key)
            entry["hands"] += 1
            entry["net"] += int(net)
            times.setdefault(key, []).extend((rnd.opened_at, ends.get(rnd.id or 0, rnd.opened_at)))
    for key, entry in out.items():
        entry.update(_time_played(shift, [s for s in seats if (s.seat, s.player) == key],
                                  times.get(key, []), zone))
    return sorted(out.values(), key=lambda p: (poker_tables.seat_order(p["seat"]), p["player"]))


def _time_played(shift: Shift, seats: list[PokerSeat], hands: list[datetime],
                 zone: tzinfo | None) -> dict[str, Any]:
    """From the sit-down (when tapped in this shift) or his first hand, to the leave (when
    tapped in this shift) or the end of his last hand; in whole seconds."""
    def within(at: datetime | None) -> bool:
        return at is not None and at >= shift.opened_at and (
            shift.closed_at is None or at <= shift.closed_at)

    sat = [s.seated_at for s in seats if within(s.seated_at)]
    left = [s.left_at for s in seats if s.left_at is not None and within(s.left_at)]
    start = min(sat) if sat else min(hands) if hands else None
    end = max(left) if left else max(hands) if hands else None
    seconds = int((end - start).total_seconds()) if start and end and end >= start else 0
    return {"started": sections.at(start, zone), "ended": sections.at(end, zone),
            "seconds": seconds}


def _hand_value(hand: dict[str, Any]) -> dict[str, Any] | None:
    """The category and cards the PDF names the hand by in the reader's language (the English
    ``label`` stays beside it)."""
    value = hand.get("value") or {}  # stored by poker_hands.shown_hands
    if value.get("category") in CATEGORIES:
        return {"category": value["category"], "cards": list(value.get("cards") or [])}
    return None


def _pots(rows: list[tuple[Round, dict[str, Any], int]],
          zone: tzinfo | None) -> list[dict[str, Any]]:
    """Every settled hand's pots, the largest first (ties: the earlier hand)."""
    out = []
    for rnd, settled, _v in rows:
        hands = {b["box"]: b.get("hand") or {} for b in settled["boxes"]}
        for n, pot in enumerate(settled.get("pots") or []):
            out.append({"hand": rnd.number, "at": sections.at(rnd.opened_at, zone),
                        "pot": "main" if n == 0 else f"side {n}", "amount": int(pot["amount"]),
                        "awards": [{"seat": s, "amount": int(a),
                                    "hand": hands.get(s, {}).get("label"),
                                    "hand_value": _hand_value(hands.get(s, {}))}
                                   for s, a in sorted(pot["awards"].items())]})
    return sorted(out, key=lambda p: (-p["amount"], p["hand"], p["pot"]))


def _tray(session: Session, shift_id: int, rake: int, sold: int, house_fixes: int,
          zone: tzinfo | None) -> dict[str, Any]:
    """The inventory section with the poker table's expectation (see the module docstring)."""
    expected = rake - sold
    inv = sections.inventory_section(session, shift_id, expected, expected + house_fixes, zone)
    return {**inv, "rake": rake, "sold": sold, "expected": expected,
            "expected_corrected": expected + house_fixes}


def build_poker_report(session: Session, shift: Shift, table: GameTable, *,
                       zone: tzinfo | None, zone_name: str) -> dict[str, Any]:
    """The whole poker report as plain data (no clock read: the same database, the same dict)."""
    assert shift.id is not None and table.id is not None
    rows = sections.settlements(session, shift.id)
    by_actor, undos = sections.event_stats(session, shift.id)
    names = sections.user_names(session, [*by_actor, shift.opened_by,
                                     *([shift.closed_by] if shift.closed_by else [])])
    seats = list(session.exec(select(PokerSeat).where(PokerSeat.table_id == table.id)
                              .order_by(col(PokerSeat.seated_at), col(PokerSeat.id))).all())
    moves = poker_tables.chip_moves(session, shift.id)
    sold = sum(m.amount for m in moves if m.kind in SOLD)
    rake = sum(int(s.get("rake") or 0) for _r, s, _v in rows)
    pots = _pots(rows, zone)
    fixes = report_changes.corrections(session, shift.id, lambda t: sections.at(t, zone))
    inv = _tray(session, shift.id, rake, sold, fixes["house"], zone)
    counts, voids = sections.round_counts(session, shift.id, rows, zone)
    head = sections.shift_section(session, shift, table, names, zone, zone_name)
    poker = poker_tables.get(session, table.id)
    cumulative, running = [], 0
    for _r, settled, _v in rows:
        running += int(settled.get("rake") or 0)
        cumulative.append(running)
    return {
        "schema": SCHEMA,
        "shift": {**head, "stakes": poker.stakes, "seat_count": poker.seat_count},
        "staff": [{"name": names.get(uid, ("?", ""))[0], "role": names.get(uid, ("", "?"))[1],
                   "events": n}
                  for uid, n in sorted(by_actor.items(), key=lambda kv: (-kv[1], kv[0]))],
        "dealers": dealers.dealers_section(session, shift, zone),
        "hands": {"dealt": counts["total"], "settled": counts["settled"],
                  "voided": counts["voided"], "open": counts["open"]},
        "players": _players(session, shift, seats, rows, zone),
        "chips": {"bought_in": sold, "cashed_out": sum(m.amount for m in moves
                                                       if m.kind == "cash_out"),
                  "moves": [{"seat": m.seat, "player": m.player, "kind": m.kind,
                             "amount": m.amount, "at": sections.at(m.at, zone)}
                            for m in moves]},
        "pots": {"total": sum(p["amount"] for p in pots), "count": len(pots),
                 "largest": pots[:TOP_POTS]},
        "rake": {"collected": rake, "after_corrections": rake + fixes["house"]},
        "inventory": inv,
        "voids": voids,
        "corrections": [{"round": n, "undos": k} for n, k in sorted(undos.items())],
        "paid_corrections": fixes,
        "disputes": sections.disputes_section(session, shift.id, zone),
        "audit_chain": sections.audit_section(session, shift),
        "cumulative": cumulative,
        "signatures": sections.signatures(inv["closing"] or {}),
    }
