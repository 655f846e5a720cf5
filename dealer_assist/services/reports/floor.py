"""The pit's live floor: every table of a pit at a glance, as plain data.

Per table: the game and limits, who deals and for how long, the round's stage (placing, deciding,
reveal, showdown, paid; a poker hand: its betting round and pot), rounds per hour over the last
hour, the shift's money (the card shows the win and hold after corrections, the report's final
figures) and the theoretical figures, and the alerts. The money is the shift
report's own figures, from the same functions over the same stored settlements (``sections``,
``house``, ``theoretical``, ``changes``; a poker table: chips sold at the table and the rake), so
the floor and the report cannot disagree; a test holds them together. Those sums are cached per
shift until one of its rounds settles again (:func:`_money`), so a page polled every two seconds
does not re-read every settlement of a long shift.

A house table's drop is the buy-ins recorded at it in the shift (the drop box is
counted per gaming day at the soft count); a poker table's drop is the chips sold at the table.

Alerts (each a code and its figures; the page words them): ``payout`` (a box paid at or over the
threshold within the alert window), ``frozen`` (a void waits for a pit boss), ``dispute`` (an
open or escalated dispute of the shift), ``hold`` (the shift's win outside the 95 % range),
``rotation`` (the dealer past the table's interval) and ``idle`` (no round for N minutes).

(:mod:`.floor_tablets`): each card's ``tablet`` (offline since when, the steps queued
on a returning tablet) and ``refusals`` (queued steps the server refused, until marked seen).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import text
from sqlmodel import Session, col, func, select

from ...models import (
    Dispute,
    DisputeDecision,
    GameTable,
    Round,
    RoundCorrection,
    RoundSettlement,
    RoundStatus,
    Shift,
    ShiftStatus,
)
from ...rules.games.registry import get_game
from ...rules.games.stud import PHASES
from ..cage import buyins
from ..figures import house_edge, theoretical
from ..people import stints
from ..rounds import live, poker_hands
from ..tables import poker as poker_tables
from ..tables import tables
from . import changes as report_changes
from . import floor_tablets, house, sections


@dataclass(frozen=True, slots=True)
class FloorSettings:
    payout_alert: int = 10_000
    alert_window: timedelta = timedelta(minutes=30)
    idle: timedelta = timedelta(minutes=15)
    break_window: timedelta = timedelta(hours=2)


def version(session: Session) -> int:
    """A number that moves with every state change (the audit chain's head): the floor's news
    are unchanged while it stays put."""
    head = session.connection().execute(text("SELECT max(seq) FROM audit_entry")).scalar()
    return int(head or 0)


def stage_of(steps: set[str], *, frozen: bool, settled: bool) -> str:
    if frozen:
        return "frozen"
    for names, _title, stage in PHASES:  # the table screen's own heading reads the same table
        if steps & names:
            return stage
    return "showdown" if settled else "placing"


# --- money, cached per shift until it changes ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Money:
    """A shift's money as the report computes it (``figures``, shown), and each round's
    largest box payout (number, time, box, amount) for the payout alert (not shown)."""

    figures: dict[str, Any]
    payouts: tuple[tuple[int, datetime, str, int], ...] = ()


_CACHE: OrderedDict[tuple[Any, ...], Money] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256


def _with_drop(session: Session, shift_id: int, figures: dict[str, Any]) -> dict[str, Any]:
    """A house table's drop so far is the buy-ins recorded at it (one query, outside
    the cache: a buy-in settles no round)."""
    if figures.get("kind") != "house":
        return figures
    return {**figures, "drop": buyins.total_of_shift(session, shift_id)}


def _money(session: Session, table: GameTable, shift: Shift) -> Money:
    """The shift report's money figures for the floor (cached until a round settles again)."""
    assert shift.id is not None
    newest, settled, when = session.exec(
        select(func.max(RoundSettlement.id), func.count(col(RoundSettlement.id)),
               func.max(RoundSettlement.created_at))
        .join(Round, col(Round.id) == RoundSettlement.round_id)
        .where(Round.shift_id == shift.id)).one()
    fixed, fixes_n, fixed_at = session.exec(
        select(func.max(RoundCorrection.id), func.count(col(RoundCorrection.id)),
               func.max(RoundCorrection.created_at))
        .where(RoundCorrection.shift_id == shift.id)).one()
    figures = house_edge.stored(session, table.profile)
    # the database, the shift, its newest settlement and correction (ids and times: a database
    # emptied and filled again reuses ids, not times), and the lab's figure for the profile
    key = (str(session.get_bind().engine.url), shift.id, newest, settled, str(when), fixed,
           fixes_n, str(fixed_at), json.dumps(figures, sort_keys=True), table.strategy)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    fixes = report_changes.corrections(session, shift.id, lambda t: None)
    rows = sections.settlements(session, shift.id)
    if get_game(table.game).poker_room:
        moves = poker_tables.chip_moves(session, shift.id)
        sold = sum(m.amount for m in moves if m.kind in ("buy_in", "rebuy"))
        rake = sum(int(s.get("rake") or 0) for _r, s, _v in rows)
        pots = sum(int(p["amount"]) for _r, s, _v in rows for p in s.get("pots") or [])
        money = Money({"kind": "poker", "drop": sold, "win": rake,
                       "win_corrected": rake + fixes["house"], "pots": pots,
                       "hold": sections.ratio(rake, sold),
                       "hold_corrected": sections.ratio(rake + fixes["house"], sold),
                       "theoretical": None})
    else:
        wagers = house.wagers(rows)
        win = wagers["total"]["house_win"]
        money = Money({"kind": "house", "drop": None, "wagered": wagers["total"]["wagered"],
                       "win": win, "win_corrected": win + fixes["house"],
                       "hold": wagers["hold"],
                       "hold_corrected": sections.ratio(win + fixes["house"],
                                                        wagers["total"]["wagered"]),
                       "theoretical": theoretical.section(rows, table.profile, figures,
                                                          table.strategy)},
                      tuple(p for p in (_largest(r, s) for r, s, _v in rows) if p[3] > 0))
    with _LOCK:
        _CACHE[key] = money
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return money


def _largest(rnd: Round, settled: dict[str, Any]) -> tuple[int, datetime, str, int]:
    """The round's largest box payout: what the croupier paid one box (its net, as the table
    screen's PAY and the report's largest payouts)."""
    paid, box = max(((max(int(b["net"]), 0), str(b["box"])) for b in settled["boxes"]),
                    default=(0, ""))
    return rnd.number, rnd.opened_at, box, paid


# --- one table ------------------------------------------------------------------------------------

def _stage(session: Session, table: tables.TableView, shift: Shift) -> dict[str, Any]:
    assert shift.id is not None
    # the shift's newest round: its id, number and status only (a round row carries its rules)
    last = session.exec(select(Round.id, Round.number, Round.status)
                        .where(Round.shift_id == shift.id)
                        .order_by(col(Round.number).desc()).limit(1)).first()
    if last is None:
        return {"code": "waiting", "round_id": None, "number": None}
    open_id, number, status = last
    assert open_id is not None
    if status != RoundStatus.OPEN.value:
        code = "paid" if status == RoundStatus.SETTLED.value else status
        return {"code": code, "round_id": open_id, "number": number}
    if get_game(table.game).poker_room:
        hand = poker_hands.load(session, open_id)
        frozen = poker_hands.void_pending(session, open_id)
        return {"code": "frozen" if frozen else "betting", "round_id": open_id,
                "number": hand.round.number, "poker": {"status": hand.state.status,
                                                       "round": hand.state.round,
                                                       "pot": hand.state.pot}}
    rnd = live.load(session, open_id)
    code = stage_of({s.type for s in rnd.steps}, frozen=rnd.void_pending,
                    settled=rnd.settlement is not None)
    return {"code": code, "round_id": open_id, "number": rnd.round.number}


def _open_disputes(session: Session, shift_id: int) -> int:
    newest = (select(DisputeDecision.dispute_id, func.max(DisputeDecision.number).label("n"))
              .group_by(col(DisputeDecision.dispute_id)).subquery())
    query = (select(Dispute.id, DisputeDecision.outcome)
             .outerjoin(newest, newest.c.dispute_id == Dispute.id)
             .outerjoin(DisputeDecision, (col(DisputeDecision.dispute_id) == Dispute.id)
                        & (col(DisputeDecision.number) == newest.c.n))
             .where(Dispute.shift_id == shift_id))
    return sum(1 for _id, outcome in session.exec(query).all()
               if outcome is None or outcome == "escalated")


def _alerts(session: Session, card: dict[str, Any], shift: Shift, now: datetime,
            settings: FloorSettings,
            payouts: tuple[tuple[int, datetime, str, int], ...]) -> list[dict[str, Any]]:
    assert shift.id is not None
    alerts: list[dict[str, Any]] = []
    since = now - settings.alert_window
    recent = [p for p in payouts if p[1] >= since and p[3] >= settings.payout_alert]
    if recent:
        number, _at, box, amount = max(recent, key=lambda p: (p[3], p[0]))
        alerts.append({"code": "payout", "round": number, "box": box, "amount": amount})
    if card["stage"]["code"] == "frozen":
        alerts.append({"code": "frozen", "round": card["stage"]["number"]})
    disputes = _open_disputes(session, shift.id)
    if disputes:
        alerts.append({"code": "dispute", "count": disputes})
    theo = card["money"].get("theoretical") or {}
    if theo.get("outside"):
        alerts.append({"code": "hold", "actual": theo["actual_win"], "range": theo["range"]})
    dealer = card["dealer"]
    if dealer is not None and dealer["due"]:
        alerts.append({"code": "rotation", "dealer": dealer["name"],
                       "minutes": dealer["minutes"], "interval": dealer["interval"]})
    last = session.exec(select(func.max(Round.opened_at))
                        .where(Round.shift_id == shift.id)).one() or shift.opened_at
    if card["stage"]["code"] in ("paid", "waiting", "voided") and now - last >= settings.idle:
        alerts.append({"code": "idle", "minutes": int((now - last).total_seconds()) // 60})
    return alerts


def _limits(session: Session, table: tables.TableView) -> dict[str, Any]:
    if get_game(table.game).poker_room:
        return {"stakes": poker_tables.get(session, table.id).stakes}
    return {"min_ante": table.min_ante, "max_ante": table.max_ante,
            "max_payout": table.max_payout}


def table_card(session: Session, table: tables.TableView, shift: Shift | None,
               dealer: stints.StintView | None, now: datetime,
               settings: FloorSettings = FloorSettings()) -> dict[str, Any]:
    """Everything the floor shows of one table."""
    card: dict[str, Any] = {
        "id": table.id, "name": table.name, "game": table.game, "profile": table.profile,
        "poker_room": get_game(table.game).poker_room,
        "pit": table.pit, "currency": table.currency, "limits": _limits(session, table),
        "rotation_minutes": table.rotation_minutes, "shift_id": None, "dealer": None,
        "stage": {"code": "closed", "round_id": None, "number": None}, "rounds_last_hour": 0,
        "money": {}, "alerts": []}
    if shift is None or shift.id is None:
        return card
    row = session.get(GameTable, table.id)
    assert row is not None
    minutes = dealer.minutes(now) if dealer else 0
    money = _money(session, row, shift)
    card.update(
        shift_id=shift.id, stage=_stage(session, table, shift), money=_with_drop(
            session, shift.id, money.figures),
        dealer=None if dealer is None else {
            "id": dealer.dealer_id, "name": dealer.dealer, "minutes": minutes,
            "since": dealer.started_at.isoformat(), "interval": table.rotation_minutes,
            "due": minutes >= table.rotation_minutes},
        rounds_last_hour=int(session.exec(
            select(func.count()).select_from(Round)
            .where(Round.shift_id == shift.id,
                   col(Round.opened_at) >= now - timedelta(hours=1))).one()))
    card["alerts"] = _alerts(session, card, shift, now, settings, money.payouts)
    return card


def floor(session: Session, *, pit: str | None, now: datetime,
          settings: FloorSettings = FloorSettings()) -> dict[str, Any]:
    """The floor of one pit (None: every active table), with the dealers on break."""
    chosen = [t for t in tables.list_tables(session, include_inactive=False)
              if pit is None or t.pit == pit]
    shifts = {s.table_id: s for s in session.exec(
        select(Shift).where(Shift.status == ShiftStatus.OPEN.value)).all()}
    dealers = stints.current_by_shift(session)
    cards = []
    for table in chosen:
        shift = shifts.get(table.id)
        cards.append(table_card(session, table, shift,
                                dealers.get(shift.id) if shift and shift.id else None, now,
                                settings))
    floor_tablets.add_to_cards(session, cards, now)  # offline tablets, refusals
    breaks = stints.on_break(session, now=now, window=settings.break_window)
    names = {t.id: t.name for t in tables.list_tables(session)}
    return {"pit": pit, "pits": tables.pits(session), "at": now.isoformat(),
            "tables": cards,
            "breaks": [{"dealer_id": b.dealer_id, "name": b.dealer, "minutes": b.minutes,
                        "since": b.since.isoformat(), "table": names.get(b.table_id or 0)}
                       for b in breaks]}
