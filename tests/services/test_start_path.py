"""Every stream starts by the one start path, on SQLite and PostgreSQL.

A house round (its bets), a poker hand and a parlour evening start through
``record.start``: the start is a step of the stream, with the same idempotency key (a resend
answers the stream it started and stores nothing, the key used for another start is a 409),
the same compare under the lock and the same retries as any step. The redeal's write runs under
the record path's own compare.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, func, select

from dealer_assist.models import ParlourGame, Round
from dealer_assist.services.errors import Conflict
from dealer_assist.services.rounds import live, parlour, poker_hands, steps
from dealer_assist.services.rounds import record as path
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user, record_step, start_round
from tests.services.test_poker_tables import _table

Spy = list[Any]


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """The openers ``record.start`` was called with."""
    seen: Spy = []
    real = path.start

    def spy(session: Session, opener: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(opener)
        return real(session, opener, *args, **kwargs)

    monkeypatch.setattr(path, "start", spy)
    return seen


def _rounds(session: Session) -> int:
    found = session.exec(select(func.count()).select_from(Round)).one()
    session.rollback()
    return int(found)


def test_a_house_round_a_poker_hand_and_a_parlour_evening_all_start_by_the_one_start_path(
        session: Session, starts: Spy) -> None:
    poker_table, carla = _table(session)
    table = make_table(session)
    dora = make_user(session, "dora", "croupier").id
    shifts.open_shift(session, table_id=table.id, user_id=dora)
    session.commit()
    start_round(session, table_id=table.id, actor_id=dora, boxes=[live.BoxStake("1", 100)],
                idempotency_key="round")
    poker_hands.start_hand(session, table_id=poker_table, user_id=carla, idempotency_key="hand")
    parlour.create_game(session, name="Friday", players=["Ann", "Bob", "Cy"], actor_id=dora,
                        idempotency_key="evening")
    assert [type(o) for o in starts] == [steps.HouseStart, poker_hands.PokerStart,
                                         parlour.ParlourStart]
    assert [o.stream for o in starts] == [steps.HOUSE_START.stream, poker_hands.POKER,
                                          parlour.PARLOUR_STREAM]


def test_a_resent_poker_start_answers_the_hand_its_key_dealt_and_deals_no_other(
        session: Session) -> None:
    table_id, carla = _table(session)
    hand, created = poker_hands.deal(session, table_id=table_id, user_id=carla,
                                     idempotency_key="tablet-3:deal")
    again, resent = poker_hands.deal(session, table_id=table_id, user_id=carla,
                                     idempotency_key="tablet-3:deal")
    assert (created, resent) == (True, False)
    assert again.round.id == hand.round.id and again.rules == hand.rules
    assert hand.rules["idempotency_key"] == "tablet-3:deal"
    assert _rounds(session) == 1
    with pytest.raises(Conflict, match="already being dealt"):  # another key: a second hand
        poker_hands.deal(session, table_id=table_id, user_id=carla, idempotency_key="other")


def test_a_poker_start_without_a_key_deals_a_hand_of_its_own_and_keeps_no_key_in_its_rules(
        session: Session) -> None:
    table_id, carla = _table(session)
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    assert "idempotency_key" not in hand.rules
    row = session.get(Round, hand.round.id)
    assert row is not None and row.start_key  # the row keeps the key the path made


def test_twin_poker_starts_with_one_key_deal_one_hand_and_both_are_answered_with_it(
        engine: Engine, session: Session) -> None:
    table_id, carla = _table(session)
    answers: list[Any] = []
    go = threading.Barrier(2)

    def tablet() -> None:
        with Session(engine) as own:
            go.wait()
            try:
                answers.append(poker_hands.deal(own, table_id=table_id, user_id=carla,
                                                idempotency_key="twin")[0].round.id)
            except Exception as err:  # the thread reports whatever happened
                answers.append(err)

    threads = [threading.Thread(target=tablet) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(answers) == 2 and answers[0] == answers[1], answers
    assert _rounds(session) == 1


def _evening(session: Session, host: int, key: str | None, name: str = "Friday") -> int:
    gid = parlour.create_game(session, name=name, players=["Ann", "Bob", "Cy"],
                              actor_id=host, idempotency_key=key)
    session.commit()
    return gid


def _evenings(session: Session) -> int:
    found = session.exec(select(func.count()).select_from(ParlourGame)).one()
    session.rollback()
    return int(found)


def test_a_resent_parlour_evening_is_created_once(session: Session) -> None:
    host = make_user(session, "carla", "croupier").id
    first = _evening(session, host, "form-1")
    assert _evening(session, host, "form-1") == first
    assert _evenings(session) == 1
    assert _evening(session, host, None) != first  # without a key: an evening of its own
    assert _evenings(session) == 2


def test_a_parlour_key_used_for_another_evening_is_a_conflict_and_another_hosts_key_is_his(
        session: Session) -> None:
    carla = make_user(session, "carla", "croupier").id
    root = make_user(session, "root", "admin").id
    first = _evening(session, carla, "form-1")
    with pytest.raises(Conflict, match="already used"):
        _evening(session, carla, "form-1", name="Saturday")
    assert _evening(session, root, "form-1") != first
    assert _evenings(session) == 2


def test_the_redeal_files_its_void_under_the_record_paths_compare(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(session)
    carla = make_user(session, "carla", "croupier").id
    shifts.open_shift(session, table_id=table.id, user_id=carla)
    session.commit()
    rnd = start_round(session, table_id=table.id, actor_id=carla,
                      boxes=[live.BoxStake("1", 100), live.BoxStake("2", 100)],
                      idempotency_key="start")
    for n, (kind, payload) in enumerate([
            ("deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}),
            ("deal_box", {"box": "2", "cards": "7s 8s 9d jc 2h"}),
            ("deal_dealer", {"cards": "kh qh 4s 5c 6d"})]):
        rnd = record_step(session, round_id=rnd.round.id, actor_id=carla, type=kind,
                          payload=payload, idempotency_key=f"s{n}")
    compared: list[int] = []
    real: Callable[..., None] = path.compare

    def spy(session: Session, stream: Any, loaded: Any) -> None:
        compared.append(loaded.id)
        real(session, stream, loaded)

    monkeypatch.setattr(path, "compare", spy)
    asked = record_step(session, round_id=rnd.round.id, actor_id=carla, type="redeal",
                        payload={"box": "2", "cards_received": 4}, idempotency_key="redeal")
    assert asked.void_pending and compared == [rnd.round.id]
