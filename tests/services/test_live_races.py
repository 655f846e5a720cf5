"""Races between tablets on SQLite and PostgreSQL: real threads, each with its own connection.

The load test found, on PostgreSQL, a double-tapped "new round" opening two rounds from
one key, a double-tapped step answered "created" twice, and (both databases) a resent ``undo``
without ``cancels`` refused as a different step. Each race below is started by a barrier so the
twins hit the database together, and repeated :data:`REPEATS` times (the round-start bug showed
in about 1 of 150 tries with two twins; here each try has :data:`TWINS` twins).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, func
from sqlmodel import Session, select

from dealer_assist.models import Round, RoundEvent
from dealer_assist.rules.errors import RulesError
from dealer_assist.services.rounds import live, steps
from dealer_assist.services.rounds import store as rounds_store
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user
from tests.services.test_live import BOXES as THREE_BOXES
from tests.services.test_live import RUSSIAN_STEPS

T = TypeVar("T")
TWINS = 4
REPEATS = 40
BOXES = [live.BoxStake("1", 100)]
DEAL = {"box": "1", "cards": "as ad ah 2c 3d"}


def together(engine: Engine, fn: Callable[[Session], T], twins: int = TWINS) -> list[T]:
    """Run ``fn`` in ``twins`` threads at once, each with its own session (its own connection)."""
    gate = threading.Barrier(twins)

    def one(_n: int) -> T:
        with Session(engine, expire_on_commit=False) as session:
            gate.wait()
            return fn(session)

    with ThreadPoolExecutor(twins) as pool:
        return list(pool.map(one, range(twins)))


@pytest.fixture
def carla(session: Session) -> int:
    user = make_user(session)
    session.commit()
    return user.id


def fresh_table(session: Session, carla: int, n: int) -> int:
    table = make_table(session, name=f"RP {n}")
    shifts.open_shift(session, table_id=table.id, user_id=carla)
    session.commit()
    return table.id


def start(session: Session, table_id: int, carla: int, key: str) -> steps.RoundRecorded:
    return steps.begin(session, table_id=table_id, actor_id=carla, boxes=BOXES,
                       idempotency_key=key)


def count(session: Session, model: Any, *where: Any) -> int:
    """Count rows, then end the transaction (on SQLite it holds the write lock)."""
    found = int(session.exec(select(func.count()).select_from(model).where(*where)).one())
    session.rollback()
    return found


def test_a_double_tapped_round_start_opens_one_round_and_is_created_once(
        engine: Engine, session: Session, carla: int) -> None:
    for n in range(REPEATS):
        # a croupier per table: a dealer deals one round at a time
        dealer = carla if n == 0 else make_user(session, f"dealer{n}").id
        session.commit()
        table_id = fresh_table(session, dealer, n)
        answers = together(engine, lambda s, t=table_id, k=f"start-{n}", d=dealer: start(
            s, t, d, k))
        assert [a.created for a in answers].count(True) == 1, f"try {n}"
        assert {a.live_round.round.id for a in answers} == {answers[0].live_round.round.id}
        assert count(session, Round, Round.table_id == table_id) == 1, f"try {n}"


def test_a_double_tapped_step_is_stored_once_and_created_once(
        engine: Engine, session: Session, carla: int) -> None:
    table_id = fresh_table(session, carla, 0)
    rid = start(session, table_id, carla, "start").live_round.round.id
    for n in range(REPEATS):
        payload = {"box": "1", "cards": "as ad ah 2c 3d"} if n % 2 == 0 else {}
        type = "deal_box" if n % 2 == 0 else "undo"
        answers = together(engine, lambda s, p=payload, t=type, k=f"tap-{n}": steps.record(
            s, round_id=rid, actor_id=carla, type=t, payload=p, idempotency_key=k))
        assert [a.created for a in answers].count(True) == 1, f"try {n}"
        assert {a.live_round.last_seq for a in answers} == {n + 2}, f"try {n}"
        assert count(session, RoundEvent, RoundEvent.round_id == rid,
                     RoundEvent.idempotency_key == f"tap-{n}") == 1
    assert count(session, RoundEvent, RoundEvent.round_id == rid) == REPEATS + 1


def test_a_resent_undo_without_cancels_gets_the_stored_undo_back_whatever_happened_since(
        engine: Engine, session: Session, carla: int) -> None:
    table_id = fresh_table(session, carla, 0)
    rid = start(session, table_id, carla, "start").live_round.round.id
    for n in range(REPEATS // 4):
        steps.record(session, round_id=rid, actor_id=carla, type="deal_box", payload=DEAL,
                     idempotency_key=f"deal-{n}")
        first = steps.record(session, round_id=rid, actor_id=carla, type="undo", payload={},
                             idempotency_key=f"undo-{n}")
        assert first.created
        # the resends race each other and a new deal that moves the round on
        answers = together(engine, lambda s, k=f"undo-{n}": steps.record(
            s, round_id=rid, actor_id=carla, type="undo", payload={}, idempotency_key=k))
        assert [a.created for a in answers] == [False] * TWINS
        again = steps.record(session, round_id=rid, actor_id=carla, type="undo", payload={},
                             idempotency_key=f"undo-{n}")
        assert not again.created and again.live_round.last_seq == first.live_round.last_seq
    undos = session.exec(select(RoundEvent).where(RoundEvent.round_id == rid,
                                                  RoundEvent.type == "undo")).all()
    session.rollback()
    assert len(undos) == REPEATS // 4


def test_tablets_racing_on_one_round_never_lose_or_double_a_step(
        engine: Engine, session: Session, carla: int) -> None:
    """Different keys at once: each is stored exactly once or refused, none silently lost."""
    table_id = fresh_table(session, carla, 0)
    rid = start(session, table_id, carla, "start").live_round.round.id
    boxes = ["as ad ah 2c 3d", "7s 8s 9d jc 2h", "kc qc 4h 6s 9h", "2d 3h 5s 8d tc"]

    def deal(s: Session, box: int) -> bool:
        try:
            return steps.record(s, round_id=rid, actor_id=carla, type="deal_box",
                                payload={"box": "1", "cards": boxes[box]},
                                idempotency_key=f"box-{box}").created
        except RulesError:  # the engine refuses all but the first deal of box 1
            return False

    counter = iter(range(TWINS))
    lock = threading.Lock()

    def next_box(s: Session) -> bool:
        with lock:
            box = next(counter)
        return deal(s, box)

    created = together(engine, next_box)
    stored = count(session, RoundEvent, RoundEvent.round_id == rid, RoundEvent.type == "deal_box")
    assert created.count(True) == stored == 1


def test_a_resent_paid_read_across_its_twins_commit_is_answered_settled(
        engine: Engine, session: Session, carla: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The record path's read is two statements without one snapshot (the round's row, then
    its events). Its twin's ``paid`` committed between them (found on two processes under
    load: tests/cluster/test_two_processes.py answered the resend "open"): the events hold the
    key, the row read first still says open. The unit must read again, so the resend is
    answered with the round as it is -- settled -- not as a torn read saw it."""
    table_id = fresh_table(session, carla, 0)
    rid = steps.begin(session, table_id=table_id, actor_id=carla, boxes=THREE_BOXES,
                      idempotency_key="start").live_round.round.id
    for n, (type, payload) in enumerate(RUSSIAN_STEPS):
        steps.record(session, round_id=rid, actor_id=carla, type=type, payload=payload,
                     idempotency_key=f"k{n}")
    events, twin_paid = rounds_store.events, []

    def twin_commits_first(s: Session, round_id: int | None = None, **kw: Any) -> Any:
        if not twin_paid:  # the twin's paid commits after this request read the round's row
            twin_paid.append(True)
            with Session(engine, expire_on_commit=False) as twin:
                assert steps.record(twin, round_id=rid, actor_id=carla, type="paid",
                                    payload={}, idempotency_key="pay").created
        return events(s, round_id, **kw)

    monkeypatch.setattr(rounds_store, "events", twin_commits_first)
    with Session(engine, expire_on_commit=False) as tablet:
        resent = steps.record(tablet, round_id=rid, actor_id=carla, type="paid", payload={},
                              idempotency_key="pay")
    assert twin_paid and not resent.created
    assert resent.live_round.round.status == "settled"
    assert count(session, RoundEvent, RoundEvent.round_id == rid,
                 RoundEvent.idempotency_key == "pay") == 1
