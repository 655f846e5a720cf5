"""Shift-report test data: staff, a table, a shift, and hundreds of random legal rounds.

Imported explicitly by the report and inventory tests (and by ``benchmarks/report.py`` and
``floor_watch.py``); it is not a pytest conftest. :func:`play_round` drives the engine's live flow
(``rules.engine``) with steps chosen at random among the ones the engine offers
(``next_steps``) and cards dealt from one shuffled deck, so every round is legal by
construction. :func:`store_round` records it through the services production takes (the
start, each step, "Paid", a redeal's void asked and approved by a pit boss, an undo), under a
test clock at the times the report reads; :func:`play_shift` relieves the dealer through the
relief service. A few rounds get an ``undo`` (a correction) so the report's corrections
section has content. No row of a round is written here by hand
(``tests/test_rounds_recorded.py`` keeps it so).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import time_machine
from sqlalchemy import event
from sqlmodel import Session

from dealer_assist.rules import ALL_CARDS, RulesError
from dealer_assist.rules.engine import VOID, Game, Step
from dealer_assist.rules.games.registry import start
from dealer_assist.services.people import cosign, reliefs, stints
from dealer_assist.services.players import cards
from dealer_assist.services.rounds import live, steps, voids
from dealer_assist.services.rounds.steps import PLACE
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import PIN, SIGNED, cage_issue, make_table, make_user

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
    if step.type == "dealer_draw":  # the second card is kept only if the bought game uses it
        return {"cards": [deck.pop() for _ in range(max(step.cards, step.max_cards))]}
    if step.type == "redeal":
        return {**box, "cards_received": 6}
    return box


def table_step(engine: Game, state: Any, type: str,
               payload: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The step applied as the record path applies a new one (``new``: a dealer's draw takes
    the cards the bought game uses, no surplus card, which stays aside as dealt): the state
    after it and its event as stored (``normalize``)."""
    try:
        new = engine.step(state, type, payload, new=True)
    except RulesError:
        if type != "dealer_draw" or len(payload.get("cards", ())) < 2:
            raise
        payload = {**payload, "cards": payload["cards"][:1]}
        new = engine.step(state, type, payload, new=True)
    return new, engine.normalize(state, type, payload)


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
        offered = [s for s in engine.next_steps(state) if (s.type in WEIGHTS or
                   (voiding and s.type == "redeal")) and (s.type, s.box) not in refused]
        if not offered:
            break
        if voiding and any(s.type == "redeal" for s in offered):
            step = next(s for s in offered if s.type == "redeal")
        else:
            step = rng.choices(offered, [WEIGHTS.get(s.type, 0.0) for s in offered])[0]
        if step.type == "void":
            events.append(("void", {}))
            return Played(events, None, voided=True)
        if step.type in ("exchange", "sixth_card") and len(deck) < 12:
            refused.add((step.type, step.box))  # keep cards for the dealer's draw
            continue
        saved = list(deck)
        payload = _payload(rng, step, deck)
        try:
            new, stored = table_step(engine, state, step.type, payload)
        except RulesError:
            deck[:] = saved  # the cards were not dealt
            refused.add((step.type, step.box))
            continue
        refused.clear()
        events.append((step.type, stored))
        history.append(state)
        state = new
        # a redeal is no event the table could undo: it asked a pit boss for a void
        if rng.random() < undo_rate and len(events) > 1 and step.type != "redeal":
            events.append(("undo", {}))  # no step named: the last one is meant
            state = history.pop()
    if not engine.can_settle(state):
        raise AssertionError(f"a generated round did not finish: {events}")
    events.append(("paid", {}))
    return Played(events, engine.settle(state).to_dict())


# --- recording it through the services ------------------------------------------------------

#: every round's idempotency keys are ``fixture-<n>-<i>`` (``n`` counts the rounds this process
#: recorded, ``i`` the round's steps): one key is never used by two rounds
_ROUNDS = itertools.count(1)


def store_round(session: Session, floor: Floor, played: Played, *, actor_id: int,
                at: datetime) -> int:
    """Record the round as the table records it, at the times the report reads (``at``, then
    5 seconds a step: a test clock, :func:`_clock`); returns its id.

    The bets start it (``steps.begin``: the API's ``POST /tables/<id>/rounds``; a rated
    player's card is seated first, ``players.cards.sit_down``); each step is ``steps.record``
    (the API's ``POST /rounds/<id>/events``): an ``undo`` (``play_round``'s names no step: the
    last one is meant), ``paid`` is the table screen's Paid and stores the settlement, which
    must be the one the engine computed when the round was generated. A redeal asks a pit
    boss for a void (``steps.record`` files the request, no event) and the engine's ``void``
    (the round closed) is the pit boss approving it (``voids.decide_change``). ``actor_id``
    must deal at the table (see :func:`relieve`). Every call commits."""
    (kind, place), *rest = played.events
    assert kind == PLACE, f"a round starts with its bets, not {kind}"
    key = f"fixture-{next(_ROUNDS)}"
    with _clock(at) as clock:
        _seat(session, floor, place, actor_id)
        done = steps.begin(session, table_id=floor.table_id, actor_id=actor_id,
                           boxes=_stakes(place), idempotency_key=key)
        round_id = done.live_round.round.id
        for i, (kind, payload) in enumerate(rest, 1):
            clock.move_to(at + timedelta(seconds=5 * i))
            if kind == VOID:
                _approve_void(session, floor, round_id)
                continue
            done = steps.record(session, round_id=round_id, actor_id=actor_id, type=kind,
                                payload=payload, idempotency_key=f"{key}-{i}")
            assert done.created or kind == live.REDEAL, (kind, payload)
    if played.settlement is not None:
        stored = done.live_round.stored_settlement
        assert stored == json.loads(json.dumps(played.settlement)), "the engine's settlement"
    return round_id


def _clock(at: datetime) -> Any:
    """The clock every service reads (``models.utcnow``, ``datetime.now``) standing at ``at``
    until moved. time-machine rather than a monkeypatched clock: ``utcnow`` is imported by name
    into 44 modules (and a few call ``datetime.now`` themselves), so patching one function
    would miss most of them; time-machine moves ``datetime.now`` and ``time.time`` for all."""
    return time_machine.travel(at, tick=False)


def _stakes(place: dict[str, Any]) -> list[live.BoxStake]:
    return [live.BoxStake(b["box"], b["ante"], b.get("bonus", 0), seat=b.get("seat"),
                          player=b.get("player")) for b in place["boxes"]]


def _seat(session: Session, floor: Floor, place: dict[str, Any], actor_id: int) -> None:
    """A rated player's card is registered when he first sits down (the table screen's "seat
    the rated player"): at the moment of his first round, so his time played is unchanged."""
    for box in place["boxes"]:
        card = (box.get("player") or {}).get("card")
        if card and cards.find(session, card) is None:
            cards.sit_down(session, table_id=floor.table_id, card=card, actor_id=actor_id)


def _approve_void(session: Session, floor: Floor, round_id: int) -> None:
    """The pit boss approves the void the redeal asked for (he neither asked nor dealt)."""
    (asked,) = voids.changes(session, kind=VOID, round_id=round_id, status=voids.PENDING)
    decided = voids.decide_change(session, request_id=asked.id, approve=True, note="",
                                  actor_id=floor.pit_boss)
    assert decided.status == voids.APPROVED
    session.commit()


def relieve(session: Session, floor: Floor, dealer_id: int, *, at: datetime) -> None:
    """``dealer_id`` takes the table between rounds ("Relieve dealer": his PIN, typed in the
    browser of the dealer he relieves), at ``at``; he is the next rounds' dealer of record."""
    outgoing = stints.current_dealer_id(session, floor.shift_id)
    with _clock(at):
        reliefs.relieve(session, table_id=floor.table_id, relief=reliefs.Relief(
            dealer_id, cosign.Credential(pin=PIN, signed_in=outgoing)), now=at)
    session.commit()


def play_shift(session: Session, floor: Floor, n: int, *, seed: int = 7,
               hours: float = 12.0, void_rate: float = 0.01) -> list[Played]:
    """``n`` rounds spread over ``hours``, the two croupiers taking turns every 40 rounds (a
    relief a second before the first round of each turn)."""
    rng = random.Random(seed)
    engine, empty = start("russian", floor.profile, *floor.limits)
    gap = timedelta(hours=hours) / max(n, 1)
    out = []
    dealer = stints.current_dealer_id(session, floor.shift_id)
    with unsynced(session):
        for i in range(n):
            played = play_round(rng, engine, empty, floor.limits, void_rate=void_rate)
            actor = floor.croupier if (i // 40) % 2 == 0 else floor.croupier2
            at = T0 + timedelta(minutes=1) + gap * i
            if actor != dealer:
                relieve(session, floor, actor, at=at - timedelta(seconds=1))
                dealer = actor
            store_round(session, floor, played, actor_id=actor, at=at)
            out.append(played)
    return out


@contextmanager
def unsynced(session: Session) -> Iterator[None]:
    """SQLite: the test database's commits are not flushed to the disk meanwhile
    (``synchronous=OFF`` on every connection checked out; ``FULL`` again when it is checked
    in). Every step is still its own transaction, committed as the record path commits it:
    only the fsync of a throwaway file (4 ms a commit here, most of a generated round's time) is
    skipped. PostgreSQL: nothing changes."""
    engine = session.get_bind().engine
    if engine.dialect.name != "sqlite":
        yield
        return

    def pragma(value: str) -> Callable[..., None]:
        def run(dbapi_connection: Any, *_: Any) -> None:
            if dbapi_connection is not None:  # None: invalidated on its way back
                dbapi_connection.execute(f"PRAGMA synchronous={value}")
        return run

    off, full = pragma("OFF"), pragma("FULL")
    session.commit()  # the connection is checked in: the next checkout is unsynced
    event.listen(engine, "checkout", off)
    event.listen(engine, "checkin", full)
    try:
        yield
    finally:
        session.commit()
        event.remove(engine, "checkout", off)
        event.remove(engine, "checkin", full)


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
