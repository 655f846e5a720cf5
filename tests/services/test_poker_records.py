"""Records and review of poker hands (part 3) on SQLite and PostgreSQL: a dispute on a
pot award filed by the dealer, reviewed by a pit boss against the hand replayed by the poker
engine, and decided; a void of a hand being dealt, approved by a second person (four eyes)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import Session

from dealer_assist.models import RoundStatus
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import Conflict, PermissionDenied, ValidationError
from dealer_assist.services.rounds import poker_hands, voids
from dealer_assist.services.tables import poker as poker_tables
from tests.factories import make_user
from tests.services.test_poker_tables import _stacks, _table
from tests.web.test_poker_api import DRAW_HAND


def _showdown(session: Session, table_id: int, user: int) -> poker_hands.PokerHand:
    """The 4-player limit draw hand of the API test: seat 1's three queens beat seat 2's two
    pair at the showdown (main pot only)."""
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=user)
    for n, action in enumerate(DRAW_HAND):
        hand = poker_hands.record(session, round_id=hand.round.id, user_id=user,
                                  action=action, idempotency_key=f"a{n}")
    session.commit()
    return hand


def test_a_dispute_on_a_pot_award_is_filed_by_the_dealer_reviewed_against_the_replay_and_decided(
        session: Session) -> None:
    table_id, carla = _table(session)
    pia = make_user(session, "pia", "pit_boss").id
    hand = _showdown(session, table_id, carla)
    engine = parse_hand({**hand.rules, "actions": DRAW_HAND})
    net = hand_to_dict(engine)["net"]
    (pot,) = engine.pots
    # 4 x 40 before the draw, 3 x 80 after it (seat 3 folded)
    assert dict(pot.awards) == {"1": pot.amount} and pot.amount == 160 + 240
    filed = disputes.file_dispute(
        session, round_id=hand.round.id, box="2", claim="Seat 2 says two pair, aces up, won "
        "the pot", claimed_amount=pot.amount, croupier_note="Seat 1 showed three queens",
        actor_id=carla)
    review = disputes.review(session, filed.id)
    assert review.round.matches and review.round.recomputed is not None
    assert review.round.recomputed["pots"] == [{"amount": 400, "eligible": ["1", "2", "4"],
                                                "winners": ["1"], "awards": {"1": 400}}]
    seat1 = review.round.box("1", "recomputed")
    assert seat1 is not None and seat1["net"] == net["1"] == 400 - 40 - 80
    assert seat1["hand"]["label"].startswith("Three of a kind")
    assert review.round.box("2")["net"] == net["2"] == -120  # type: ignore[index]
    with pytest.raises(PermissionDenied):  # the dealer does not decide his own table's dispute
        disputes.decide(session, dispute_id=filed.id, outcome="denied", note="no",
                        actor_id=carla)
    decided = disputes.decide(session, dispute_id=filed.id, outcome="denied", actor_id=pia,
                              note="The replay gives the pot to seat 1: three queens")
    session.commit()
    assert decided.status == "denied" and decided.latest is not None
    assert decided.latest.decided_by == pia


def test_an_upheld_pot_dispute_pays_an_adjustment_bounded_by_the_chips_bought_in(
        session: Session) -> None:
    table_id, carla = _table(session)
    sam = make_user(session, "sam", "shift_manager").id
    hand = _showdown(session, table_id, carla)
    filed = disputes.file_dispute(session, round_id=hand.round.id, box="4", claim="Mucked by "
                                  "mistake", claimed_amount=40, croupier_note="",
                                  actor_id=carla)
    with pytest.raises(ValidationError) as beyond:  # 4 x 1,000 bought in at the table
        disputes.decide(session, dispute_id=filed.id, outcome="upheld", adjustment=4001,
                        note="x", actor_id=sam)
    assert beyond.value.field == "adjustment" and "4,000" in beyond.value.message
    upheld = disputes.decide(session, dispute_id=filed.id, outcome="upheld", adjustment=40,
                             note="The camera shows the muck was the dealer's", actor_id=sam)
    corrections = disputes.corrections(session, round_id=hand.round.id)
    assert upheld.status == "upheld" and [(c.box, c.amount) for c in corrections] == [("4", 40)]


def test_a_hand_being_dealt_is_voided_only_with_a_second_persons_approval(
        session: Session) -> None:
    table_id, carla = _table(session)
    pia = make_user(session, "pia", "pit_boss").id
    before = _stacks(session, table_id)
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    hand = poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                              action={"type": "call", "seat": "1"}, idempotency_key="c1")
    asked = voids.request_change(session, round_id=hand.round.id, kind="void",
                                 reason="Misdeal: seat 2 got six cards", actor_id=carla)
    with pytest.raises(Conflict, match="waits for a pit boss"):  # the hand is frozen
        poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                           action={"type": "call", "seat": "2"}, idempotency_key="c2")
    with pytest.raises(PermissionDenied):  # four eyes: the dealer cannot approve his own
        voids.decide_change(session, request_id=asked.id, approve=True, note="",
                            actor_id=carla)
    voids.decide_change(session, request_id=asked.id, approve=True, note="", actor_id=pia)
    session.commit()
    assert poker_hands.load(session, hand.round.id).round.status == RoundStatus.VOIDED.value
    assert _stacks(session, table_id) == before  # the pot went back
    again = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    assert again.rules["button"] == hand.rules["button"] == "1"  # dealt again, same button


def test_a_finished_hand_is_not_voided_but_disputed(session: Session) -> None:
    table_id, carla = _table(session)
    hand = _showdown(session, table_id, carla)
    with pytest.raises(Conflict, match="file a dispute on the award"):
        voids.request_change(session, round_id=hand.round.id, kind="void", reason="Late claim",
                             actor_id=carla)


def test_the_review_timeline_marks_an_undone_poker_action(session: Session) -> None:
    from dealer_assist.services.rounds import review as round_review

    table_id, carla = _table(session)
    hand = poker_hands.start_hand(session, table_id=table_id, user_id=carla)
    hand = poker_hands.record(session, round_id=hand.round.id, user_id=carla,
                              action={"type": "call", "seat": "1"}, idempotency_key="c1")
    poker_hands.undo(session, round_id=hand.round.id, user_id=carla, idempotency_key="u1")
    timeline: Any = round_review.replay_round(session, hand.round.id).events
    assert [(e.type, e.undone_by) for e in timeline] == [("action", 2), ("undo", None)]
    assert poker_tables.get(session, table_id).hands_dealt == 0
