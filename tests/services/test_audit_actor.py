"""The audit log names whom the service acted for: the ``actor_id`` of the service call.

The record path (a round's start, its steps, a poker hand's start) receives the actor; the
audit capture takes it from there, not from whoever the surrounding context says is signed in
(``audit.acting_as``, the edge's per-request actor) and not from Flask: a step recorded with
Carla's id is Carla's in the log, with no request at all and inside another account's context.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session

from dealer_assist import audit
from dealer_assist.db import make_engine
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user, record_step, start_round


@pytest.fixture
def audited(db_url: str) -> Iterator[Engine]:
    engine = audit.install(make_engine(db_url, busy_timeout_ms=2000))
    yield engine
    engine.dispose()


def _actors(engine: Engine, action_prefix: str) -> set[tuple[int | None, str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT actor_id, actor, role FROM audit_entry "
                                 "WHERE action LIKE :a"), {"a": f"{action_prefix}%"}).all()
    return {(r.actor_id, r.actor, r.role) for r in rows}


def _round(session: Session) -> tuple[int, int]:
    with audit.acting_as(audit.Actor(None, "seeder", "system")):
        table = make_table(session, name="T1")
        carla = make_user(session, "carla", "croupier").id
        shifts.open_shift(session, table_id=table.id, user_id=carla)
        session.commit()
    return table.id, carla


def test_a_step_recorded_for_carla_with_no_request_is_carlas_in_the_log(
        audited: Engine) -> None:
    with Session(audited, expire_on_commit=False) as session:
        table_id, carla = _round(session)
        rnd = start_round(session, table_id=table_id, actor_id=carla,
                          boxes=[live.BoxStake("1", 100)], idempotency_key="start")
        record_step(session, round_id=rnd.round.id, actor_id=carla, type="deal_dealer",
                    payload={"up": []}, idempotency_key="k1")
    assert _actors(audited, "round_event.") == {(carla, "carla", "croupier")}
    assert _actors(audited, "round.") == {(carla, "carla", "croupier")}


def test_the_service_calls_actor_wins_over_the_context_signed_in(audited: Engine) -> None:
    """Another account's context (a pit boss signed in on the tablet, a CLI's ``acting_as``)
    does not take the step Carla's service call records."""
    with Session(audited, expire_on_commit=False) as session:
        table_id, carla = _round(session)
        with audit.acting_as(audit.Actor(999, "mallory", "pit_boss")):
            rnd = start_round(session, table_id=table_id, actor_id=carla,
                              boxes=[live.BoxStake("1", 100)], idempotency_key="start")
            record_step(session, round_id=rnd.round.id, actor_id=carla, type="deal_dealer",
                        payload={"up": []}, idempotency_key="k1")
            session.commit()
    assert _actors(audited, "round_event.") == {(carla, "carla", "croupier")}
    # the context still names who did what no service call names
    assert ("seeder" in {a for _, a, _ in _actors(audited, "shift.")})


def test_a_service_that_names_no_one_is_attributed_to_the_context(audited: Engine) -> None:
    with Session(audited, expire_on_commit=False) as session, \
            audit.acting_as(audit.Actor(7, "cli", "admin")):
        make_table(session, name="T9")
        session.commit()
    assert _actors(audited, "table.") == {(7, "cli", "admin")}
