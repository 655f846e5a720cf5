"""Rounds are append-only event streams, written by the one record path; an idempotency key
makes a retried action harmless."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session

from dealer_assist.services.errors import Conflict, ValidationError
from dealer_assist.services.rounds import live
from dealer_assist.services.rounds import store as rounds
from dealer_assist.services.shifts import shifts
from tests.factories import (
    SHORT_ROUND,
    make_table,
    make_user,
    record_step,
    short_round,
    start_round,
)


@pytest.fixture
def setup(session: Session) -> tuple[int, int]:
    """(table id, croupier id) with an open shift."""
    table = make_table(session)
    carla = make_user(session)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    session.commit()
    return table.id, carla.id


def _begin(session: Session, setup: tuple[int, int], key: str = "start") -> Any:
    table_id, carla = setup
    return start_round(session, table_id=table_id, actor_id=carla,
                       boxes=[live.BoxStake("1", 100)], idempotency_key=key)


def test_rounds_are_numbered_within_their_shift(session: Session, setup: tuple[int, int]) -> None:
    table_id, carla = setup
    numbers = [short_round(session, table_id=table_id, actor_id=carla, key=f"r{n}").round.number
               for n in range(3)]
    assert numbers == [1, 2, 3]


def test_events_get_consecutive_sequence_numbers(session: Session,
                                                 setup: tuple[int, int]) -> None:
    _, carla = setup
    rnd = _begin(session, setup)
    for n, (kind, payload) in enumerate(SHORT_ROUND[:2]):
        rnd = record_step(session, round_id=rnd.round.id, actor_id=carla, type=kind,
                          payload=payload, idempotency_key=f"k{n}")
    assert [(e.seq, e.type) for e in rounds.events(session, rnd.round.id)] == [
        (1, "place"), (2, "deal_box"), (3, "deal_dealer")]


def test_repeating_an_event_with_the_same_key_records_it_once(session: Session,
                                                              setup: tuple[int, int]) -> None:
    _, carla = setup
    rnd = _begin(session, setup)
    kind, payload = SHORT_ROUND[0]
    first = record_step(session, round_id=rnd.round.id, actor_id=carla, type=kind,
                        payload=payload, idempotency_key="tablet-7:42")
    again = record_step(session, round_id=rnd.round.id, actor_id=carla, type=kind,
                        payload=payload, idempotency_key="tablet-7:42")
    assert again.events == first.events
    assert len(rounds.events(session, rnd.round.id)) == 2  # the bets and the one deal


def test_reusing_a_key_for_a_different_event_is_a_conflict(session: Session,
                                                           setup: tuple[int, int]) -> None:
    _, carla = setup
    rnd = _begin(session, setup)
    kind, payload = SHORT_ROUND[0]
    record_step(session, round_id=rnd.round.id, actor_id=carla, type=kind, payload=payload,
                idempotency_key="k")
    with pytest.raises(Conflict, match="different step"):
        record_step(session, round_id=rnd.round.id, actor_id=carla, type="deal_dealer",
                    payload=SHORT_ROUND[1][1], idempotency_key="k")


def test_payloads_are_stored_as_canonical_json(session: Session, setup: tuple[int, int]) -> None:
    assert rounds.encode_payload({"b": 2, "a": [1, "x"]}) == '{"a":[1,"x"],"b":2}'
    with pytest.raises(ValidationError):
        rounds.encode_payload({"stake": 1.5e400})
    with pytest.raises(ValidationError):
        rounds.encode_payload({"when": object()})


def test_a_settled_round_takes_no_more_events(session: Session, setup: tuple[int, int]) -> None:
    table_id, carla = setup
    rnd = short_round(session, table_id=table_id, actor_id=carla, key="r")
    assert rnd.round.status == "settled"
    with pytest.raises(Conflict, match="settled"):
        record_step(session, round_id=rnd.round.id, actor_id=carla, type="undo", payload={},
                    idempotency_key="late")
