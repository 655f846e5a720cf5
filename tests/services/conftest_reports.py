"""Shift-report test data: staff, a table, a shift, and hundreds of random legal rounds.

Imported explicitly by the report and inventory tests (and by ``benchmarks/report.py``); it is
not a pytest conftest. :func:`play_round` drives the engine's live flow
(``rules.engine``) with steps chosen at random among the ones the engine offers
(``next_steps``) and cards dealt from one shuffled deck, so every round is legal by
construction. :func:`store_round` writes the events as rows (append-only, idempotency keys, at
the times the report reads) and the settlement as "Paid" stores it: a ``paid`` event and a
``RoundSettlement`` row, round status ``settled`` (or ``void`` and ``voided`` for a redeal).
A few rounds get an ``undo`` (a correction) so the report's corrections section has content.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session, func, select

from dealer_assist.models import Round, RoundEvent, RoundSettlement, RoundStatus
from dealer_assist.rules import ALL_CARDS, RulesError
from dealer_assist.rules.engine import Game, Step
from dealer_assist.rules.games.registry import start
from dealer_assist.services.rounds import store as rounds
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import SIGNED, cage_issue, make_table, make_user

#: a Saturday afternoon; every generated time derives from it, so data is reproducible
T0 = datetime(2026, 3, 14, 14, 0, tzinfo=UTC)
#: the rated player who plays box 1 of every round
RATED = "C-100"
ANTES = (10, 10, 25, 25, 50, 50, 100, 200, 500)
WEIGHTS = {"deal_box": 10.0, "deal_dealer": 10.0, "exchange": 2.0, "sixth_card": 0.7,
           "bet": 5.0, "fold": 2.0, "insure": 0.6, "reveal": 10.0, "take_ante": 3.0,
           "buy_game": 2.0, "dealer_draw": 10.0, "void": 10.0, "show": 10.0}


@dataclass
class Floor:
    """The people, the table and the shift of a test."""

    croupier: int
    croupier2: int
    pit_boss: int
    manager: int
    admin: int
    table_id: int
    shift_id: int
    profile: str
    limits: tuple[int, int, int] = (10, 500, 50000)
    names: dict[int, str] = field(default_factory=dict)


def make_floor(session: Session, *, table_name: str = "RP 1", now: datetime = T0) -> Floor:
    people = {name: make_user(session, name, role) for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pavel", "pit_boss"),
        ("maria", "shift_manager"), ("root", "admin"))}
    table = make_table(session, name=table_name)
    shift = shifts.open_shift(session, table_id=table.id, user_id=people["carla"].id, now=now)
    return Floor(people["carla"].id, people["dimitri"].id, people["pavel"].id,
                 people["maria"].id, people["root"].id, table.id, shift.id, table.profile,
                 (table.min_ante, table.max_ante, table.max_payout),
                 {p.id: p.display_name for p in people.values()})


# --- one random legal round ----------------------------------------------------------------------

@dataclass
class Played:
    events: list[tuple[str, dict[str, Any]]]
    settlement: dict[str, Any] | None  # None: voided
    voided: bool = False


def _place(rng: random.Random, limits: tuple[int, int, int], boxes: int) -> dict[str, Any]:
    low, high, _cap = limits
    out = []
    for i in range(rng.randint(1, boxes)):
        ante = min(max(rng.choice(ANTES), low), high)
        item: dict[str, Any] = {"box": str(i + 1), "seat": str(i + 1), "ante": ante}
        if i == 0:  # box 1 is a rated player's (the report's top rated players)
            item["player"] = {"card": RATED}
        if ante >= 100 and rng.random() < 0.2:
            item["bonus"] = 50
        out.append(item)
    return {"boxes": out}


def _payload(rng: random.Random, step: Step, deck: list[str]) -> dict[str, Any]:
    box = {"box": step.box} if step.box is not None else {}
    if step.type == "deal_dealer":  # dealing order: the face-up card(s) only
        return {"up": [deck.pop() for _ in range(step.cards)]}
    if step.type in ("deal_box", "reveal", "show"):  # the cards as they are turned over
        return {**box, "cards": [deck.pop() for _ in range(step.cards)]}
    if step.type == "exchange":
        return {**box, "count": rng.choice(step.discard_counts)}
    if step.type == "sixth_card":
        return box
    if step.type == "insure":  # the player shows his hand (refused below trips: not insured)
        low, high = step.min_amount or 0, step.max_amount or 4 * (step.min_amount or 0)
        return {**box, "amount": rng.randint(low, max(low, min(high, 4 * low))),
                "cards": [deck.pop() for _ in range(step.cards)]}
    if step.type == "dealer_draw":  # the second card is used only if the engine needs it
        return {"cards": [deck.pop() for _ in range(max(step.cards, step.max_cards))]}
    if step.type == "redeal":
        return {**box, "cards_received": 6}
    return box


def play_round(rng: random.Random, engine: Game, empty: Any, limits: tuple[int, int, int],
               boxes: int = 6, *, void_rate: float = 0.01, undo_rate: float = 0.02) -> Played:
    """A random legal round as (type, payload) events, and its settlement."""
    deck = [c.code for c in ALL_CARDS]
    rng.shuffle(deck)
    while True:
        place = _place(rng, limits, boxes)
        try:
            state = engine.step(empty, "place", place)
            break
        except RulesError:  # e.g. a bonus the profile refuses: place again without it
            continue
    events: list[tuple[str, dict[str, Any]]] = [("place", engine.normalize(empty, "place", place))]
    history: list[Any] = [empty]
    voiding = rng.random() < void_rate
    refused: set[tuple[str, str | None]] = set()  # steps the engine refused in this state
    for _ in range(400):
        steps = [s for s in engine.next_steps(state) if (s.type in WEIGHTS or
                 (voiding and s.type == "redeal")) and (s.type, s.box) not in refused]
        if not steps:
            break
        if voiding and any(s.type == "redeal" for s in steps):
            step = next(s for s in steps if s.type == "redeal")
        else:
            step = rng.choices(steps, [WEIGHTS.get(s.type, 0.0) for s in steps])[0]
        if step.type == "void":
            events.append(("void", {}))
            return Played(events, None, voided=True)
        if step.type in ("exchange", "sixth_card") and len(deck) < 12:
            refused.add((step.type, step.box))  # keep cards for the dealer's draw
            continue
        saved = list(deck)
        payload = _payload(rng, step, deck)
        try:
            new = engine.step(state, step.type, payload)
        except RulesError:
            deck[:] = saved  # the cards were not dealt
            refused.add((step.type, step.box))
            continue
        refused.clear()
        events.append((step.type, engine.normalize(state, step.type, payload)))
        history.append(state)
        state = new
        if rng.random() < undo_rate and len(events) > 1:
            events.append(("undo", {"cancels": -1}))  # seq filled in when stored
            state = history.pop()
    if not engine.can_settle(state):
        raise AssertionError(f"a generated round did not finish: {events}")
    events.append(("paid", {}))
    return Played(events, engine.settle(state).to_dict())


# --- storing it through the services ----------------------------------------------------------

def store_round(session: Session, floor: Floor, played: Played, *, actor_id: int,
                at: datetime) -> int:
    """Write the round, its events and its settlement as rows, at the times the report reads
    (``at``, then 5 seconds a step); returns its id. The events are the engine's (every round
    is legal by construction) but they are written as data, not through the record path: two
    croupiers taking turns without a relief, a clock set in the past and the old ``void`` event
    are shapes the record path does not take (the record path's own tests take it)."""
    last = session.exec(select(func.max(Round.number))
                        .where(Round.shift_id == floor.shift_id)).one()
    rnd = Round(table_id=floor.table_id, shift_id=floor.shift_id, number=(last or 0) + 1,
                status=RoundStatus.OPEN.value, opened_at=at)
    session.add(rnd)
    session.flush()
    assert rnd.id is not None
    seqs: list[int] = []
    for i, (kind, payload) in enumerate(played.events):
        if kind == "undo":
            payload = {"cancels": seqs.pop()}
        event = RoundEvent(round_id=rnd.id, seq=i + 1, type=kind,
                           payload=rounds.encode_payload(payload), actor_id=actor_id,
                           created_at=at + timedelta(seconds=5 * i), idempotency_key=f"k{i}")
        session.add(event)
        if kind not in ("undo", "paid", "void"):
            seqs.append(event.seq)
    session.flush()
    row = rnd
    if played.settlement is None:
        row.status = RoundStatus.VOIDED.value
    else:
        session.add(RoundSettlement(
            round_id=rnd.id, through_seq=event.seq,
            settlement=rounds.encode_payload(played.settlement), engine_version="test",
            profile=floor.profile, profile_version="test"))
        row.status = RoundStatus.SETTLED.value
    session.add(row)
    session.flush()
    return rnd.id


def play_shift(session: Session, floor: Floor, n: int, *, seed: int = 7,
               hours: float = 12.0, void_rate: float = 0.01) -> list[Played]:
    """``n`` rounds spread over ``hours``, the two croupiers taking turns every 40 rounds."""
    rng = random.Random(seed)
    engine, empty = start("russian", floor.profile, *floor.limits)
    gap = timedelta(hours=hours) / max(n, 1)
    out = []
    for i in range(n):
        played = play_round(rng, engine, empty, floor.limits, void_rate=void_rate)
        actor = floor.croupier if (i // 40) % 2 == 0 else floor.croupier2
        store_round(session, floor, played, actor_id=actor, at=T0 + timedelta(minutes=1) + gap * i)
        out.append(played)
    return out


def open_inventory(session: Session, floor: Floor, *, opening: int = 200_000,
                   fills: tuple[int, ...] = (50_000,), credits: tuple[int, ...] = (20_000,),
                   note: str = "") -> None:
    inventory.record_opening_count(session, credential=SIGNED,
                                   shift_id=floor.shift_id, amount=opening,
                                   croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                   actor_id=floor.pit_boss, note=note,
                                   now=T0 + timedelta(seconds=30))
    for i, amount in enumerate(fills):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=cage_issue(session, floor.shift_id, "fill", amount),
                                  shift_id=floor.shift_id, kind="fill", amount=amount,
                                  croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.pit_boss, at=T0 + timedelta(hours=2 + i),
                                  now=T0 + timedelta(hours=13))
    for i, amount in enumerate(credits):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=cage_issue(session, floor.shift_id, "credit", amount),
                                  shift_id=floor.shift_id, kind="credit",
                                  amount=amount, croupier_id=floor.croupier,
                                  pit_boss_id=floor.pit_boss, actor_id=floor.pit_boss,
                                  at=T0 + timedelta(hours=6 + i), now=T0 + timedelta(hours=13))


def stored_settlements(session: Session, shift_id: int) -> list[dict[str, Any]]:
    """Independent of the report code: the newest settlement JSON of each settled round."""
    from sqlalchemy import text

    rows = session.execute(text(
        "SELECT s.settlement FROM round_settlement s JOIN game_round r ON r.id = s.round_id "
        "WHERE r.shift_id = :shift AND r.status = 'settled' AND s.through_seq = "
        "(SELECT max(through_seq) FROM round_settlement s2 WHERE s2.round_id = r.id) "
        "ORDER BY r.number"), {"shift": shift_id}).all()
    return [json.loads(r[0]) for r in rows]
