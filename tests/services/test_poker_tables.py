"""Poker tables on SQLite and PostgreSQL: seats, stacks carried hand to hand, the button moving,
missed blinds charged on return; each hand a round of the shift, replayed from its events."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select

from dealer_assist.models import Round, RoundEvent, RoundSettlement, RoundStatus
from dealer_assist.rules.errors import IllegalActionError
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand
from dealer_assist.services.errors import Conflict
from dealer_assist.services.rounds import poker_hands
from dealer_assist.services.shifts import shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import make_user


def _table(session: Session, profile: str = "draw32-limit", players: int = 4) -> tuple[int, int]:
    stakes = {"ante": 5} if profile.startswith("americana") else {"small_blind": 10}
    table = poker_tables.open_table(session, name="PK 1", profile=profile, stakes=stakes,
                                    seat_count=5 if profile.startswith("draw") else 6)
    carla = make_user(session)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    for i in range(1, players + 1):
        poker_tables.seat_player(session, table.id, seat=str(i), player=f"P{i}", buy_in=1000)
    session.commit()
    return table.id, carla.id


def _fold_out(session: Session, table_id: int, user: int) -> poker_hands.PokerHand:
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=user)
    n = 0
    while hand.state.status != "complete":
        n += 1
        seat = hand.state.to_act
        action: dict[str, object] = {"type": "fold", "seat": seat}
        if hand.state.status == "street":  # stud: the first up cards, seat 1 the highest
            action = {"type": "street", "up": dict(zip(hand.state.seats, ["As", "Kd", "Qh"],
                                                       strict=False))}
        elif hand.state.opener is not None:
            action = {"type": "bring_in", "seat": seat}
        hand = poker_hands.record(session, round_id=hand.round.id, user_id=user,
                                  action=action, idempotency_key=f"k{n}")
    session.commit()
    return hand


def _stacks(session: Session, table_id: int) -> dict[str, int]:
    return {s.seat: s.stack for s in poker_tables.get(session, table_id).seated()}


def test_stacks_carry_from_hand_to_hand_and_the_button_moves_one_seat(session: Session) -> None:
    table_id, carla = _table(session)
    first = _fold_out(session, table_id, carla)
    assert first.rules["button"] == "1"
    assert _stacks(session, table_id) == dict(first.state.stacks)
    assert sum(_stacks(session, table_id).values()) == 4000
    second = _fold_out(session, table_id, carla)
    assert second.rules["button"] == "2"
    assert [s["stack"] for s in second.rules["seats"]] == [first.state.stacks[s]
                                                           for s in "1234"]
    assert _stacks(session, table_id) == dict(second.state.stacks)


def test_a_returning_player_who_missed_the_small_blind_posts_the_big_blind(
        session: Session) -> None:
    """RULES.md, 32-card draw: "a returning player who missed the small blind posts an amount
    equal to the big blind"."""
    table_id, carla = _table(session)
    _fold_out(session, table_id, carla)  # button 1
    poker_tables.set_status(session, table_id, "3", "sitting_out")
    _fold_out(session, table_id, carla)  # button 2: seat 3 would have posted the small blind
    assert poker_tables.get(session, table_id).seats[2].missed == "small"
    poker_tables.set_status(session, table_id, "3", "playing")
    third = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    assert third.rules["button"] == "3"
    assert [s.get("missed") for s in third.rules["seats"]] == [None, None, "small", None]
    due = [p for p in third.state.posted if p.seat == "3"]
    assert [(p.kind, p.amount, p.dead) for p in due] == [("big_blind", 20, False)]


def test_a_hand_replays_from_its_events_and_settles_its_round(session: Session) -> None:
    table_id, carla = _table(session, "americana-limit", players=3)
    hand = _fold_out(session, table_id, carla)
    assert hand.round.status == RoundStatus.SETTLED.value
    row = session.get(Round, hand.round.id)
    assert row is not None
    events = session.exec(select(RoundEvent).where(RoundEvent.round_id == row.id)).all()
    replayed = parse_hand({**hand.rules, "actions": [json.loads(e.payload)
                                                     for e in events]})
    stored = session.exec(select(RoundSettlement)
                          .where(RoundSettlement.round_id == row.id)).one()
    assert json.loads(stored.settlement) == poker_hands.settlement_of(replayed)
    assert {k: v for k, v in poker_hands.settlement_of(replayed).items()
            if k != "boxes"} == hand_to_dict(replayed)


def test_a_refused_action_stores_nothing_and_a_resent_one_records_once(session: Session) -> None:
    table_id, carla = _table(session)
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    wrong = "1" if hand.state.to_act != "1" else "2"
    with pytest.raises(IllegalActionError):
        poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                           action={"type": "fold", "seat": wrong}, idempotency_key="a")
    fold = {"type": "fold", "seat": hand.state.to_act}
    once = poker_hands.record(session, round_id=hand.round.id, user_id=carla, action=fold,
                              idempotency_key="b")
    again = poker_hands.record(session, round_id=hand.round.id, user_id=carla, action=fold,
                               idempotency_key="b")
    assert once.last_seq == again.last_seq == 1
    with pytest.raises(Conflict):
        poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                           action={"type": "fold", "seat": once.state.to_act},
                           idempotency_key="c", expected_seq=0)


def test_a_player_leaving_cashes_out_his_stack(session: Session) -> None:
    table_id, carla = _table(session)
    _fold_out(session, table_id, carla)
    stack = _stacks(session, table_id)["4"]
    left = poker_tables.set_status(session, table_id, "4", "left")
    assert (left.cashed_out, left.stack) == (stack, 0)
    assert poker_tables.rebuy(session, table_id, "1", 500).bought_in == 1500


def test_undo_takes_back_the_last_action_as_an_event_and_the_hand_replays_without_it(
        session: Session) -> None:
    table_id, carla = _table(session)
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    first = hand.state.to_act
    called = poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                                action={"type": "call", "seat": first}, idempotency_key="c")
    assert called.state.pot == hand.state.pot + 40
    undone = poker_hands.undo(session, round_id=hand.round.id, user_id=carla,
                              idempotency_key="u")
    again = poker_hands.undo(session, round_id=hand.round.id, user_id=carla,
                             idempotency_key="u")
    assert undone.state == hand.state and undone.actions == [] and again.last_seq == 2
    with pytest.raises(Conflict):
        poker_hands.undo(session, round_id=hand.round.id, user_id=carla, idempotency_key="v")
    folded = poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                                action={"type": "fold", "seat": first}, idempotency_key="f")
    assert folded.actions == [{"type": "fold", "seat": first}]
