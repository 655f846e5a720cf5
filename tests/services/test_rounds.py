"""Rounds are append-only event streams; an idempotency key makes a retried action harmless."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from dealer_assist.models import Round
from dealer_assist.services.errors import Conflict, ValidationError
from dealer_assist.services.rounds import store as rounds
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user


@pytest.fixture
def setup(session: Session) -> tuple[int, int]:
    """(shift id, croupier id) on an open shift."""
    table = make_table(session)
    carla = make_user(session)
    shift = shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    return shift.id, carla.id


def test_rounds_are_numbered_within_their_shift(session: Session, setup: tuple[int, int]) -> None:
    shift_id, _ = setup
    assert [rounds.start_round(session, shift_id=shift_id).number for _ in range(3)] == [1, 2, 3]


def test_events_get_consecutive_sequence_numbers(session: Session,
                                                 setup: tuple[int, int]) -> None:
    shift_id, carla = setup
    rnd = rounds.start_round(session, shift_id=shift_id)
    first = rounds.append_event(session, round_id=rnd.id, type="deal", payload={"box": 1},
                                actor_id=carla, idempotency_key="k1")
    second = rounds.append_event(session, round_id=rnd.id, type="fold", payload={"box": 1},
                                 actor_id=carla, idempotency_key="k2")
    assert (first.seq, second.seq) == (1, 2)
    assert [e.type for e in rounds.events(session, rnd.id)] == ["deal", "fold"]


def test_repeating_an_event_with_the_same_key_records_it_once(session: Session,
                                                              setup: tuple[int, int]) -> None:
    shift_id, carla = setup
    rnd = rounds.start_round(session, shift_id=shift_id)
    first = rounds.append_event(session, round_id=rnd.id, type="deal",
                                payload={"cards": ["As", "Kd"]}, actor_id=carla,
                                idempotency_key="tablet-7:42")
    again = rounds.append_event(session, round_id=rnd.id, type="deal",
                                payload={"cards": ["As", "Kd"]}, actor_id=carla,
                                idempotency_key="tablet-7:42")
    assert again == first
    assert len(rounds.events(session, rnd.id)) == 1


def test_reusing_a_key_for_a_different_event_is_a_conflict(session: Session,
                                                           setup: tuple[int, int]) -> None:
    shift_id, carla = setup
    rnd = rounds.start_round(session, shift_id=shift_id)
    rounds.append_event(session, round_id=rnd.id, type="deal", payload={"box": 1},
                        actor_id=carla, idempotency_key="k")
    with pytest.raises(Conflict, match="different event"):
        rounds.append_event(session, round_id=rnd.id, type="fold", payload={"box": 1},
                            actor_id=carla, idempotency_key="k")


def test_payloads_are_stored_as_canonical_json(session: Session, setup: tuple[int, int]) -> None:
    assert rounds.encode_payload({"b": 2, "a": [1, "x"]}) == '{"a":[1,"x"],"b":2}'
    with pytest.raises(ValidationError):
        rounds.encode_payload({"stake": 1.5e400})
    with pytest.raises(ValidationError):
        rounds.encode_payload({"when": object()})


def test_a_settled_round_takes_no_more_events(session: Session, setup: tuple[int, int]) -> None:
    shift_id, carla = setup
    rnd = rounds.start_round(session, shift_id=shift_id)
    row = session.get(Round, rnd.id)
    assert row is not None
    row.status = "settled"
    session.flush()
    with pytest.raises(Conflict, match="settled"):
        rounds.append_event(session, round_id=rnd.id, type="deal", payload={}, actor_id=carla,
                            idempotency_key="k")
