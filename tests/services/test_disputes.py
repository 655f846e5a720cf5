"""Disputes, voids and corrections (services), on SQLite and PostgreSQL: who may do what, the
engine's recomputation, append-only decisions and the corrections the shift report adds up."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlmodel import Session

from dealer_assist import audit
from dealer_assist.models import Round, RoundSettlement
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import Conflict, PermissionDenied, ValidationError
from dealer_assist.services.rounds import live, voids
from dealer_assist.services.rounds import review as round_review
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user, pay_round, record_step, start_round

_keys = itertools.count(1)
STEPS = [("deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}),
         ("deal_box", {"box": "2", "cards": "7s 8s 9d jc 2h"}),
         ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}), ("bet", {"box": "1"}),
         ("bet", {"box": "2"}), ("reveal", {}), ("take_ante", {"box": "1"}),
         ("take_ante", {"box": "2"})]


@dataclass
class Floor:
    croupier: int
    croupier2: int
    pit_boss: int
    pit_boss2: int
    manager: int
    table_id: int
    shift_id: int


def play(session: Session, floor: Floor, *, dealer: int | None = None, pay: bool = True) -> int:
    """A Russian poker round through the live service (dealer has no game; both boxes take
    the ANTE): box 1 nets +50 (bonus three of a kind), box 2 +100."""
    dealer = dealer or floor.croupier
    rnd = start_round(session, table_id=floor.table_id, actor_id=dealer,
                           boxes=[live.BoxStake("1", 100, 50), live.BoxStake("2", 100)],
                           idempotency_key=f"s{next(_keys)}")
    for type, payload in STEPS:
        record_step(session, round_id=rnd.round.id, actor_id=dealer, type=type,
                         payload=payload, idempotency_key=f"k{next(_keys)}")
    if pay:
        pay_round(session, round_id=rnd.round.id, actor_id=dealer,
                 idempotency_key=f"p{next(_keys)}")
    session.commit()
    return rnd.round.id


@pytest.fixture
def floor(engine: Engine, session: Session) -> Floor:
    audit.install(engine)
    ids = [make_user(session, name, role).id for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pavel", "pit_boss"),
        ("petra", "pit_boss"), ("maria", "shift_manager"))]
    table = make_table(session)
    shift = shifts.open_shift(session, table_id=table.id, user_id=ids[0])
    session.commit()
    return Floor(*ids, table.id, shift.id)


def file(session: Session, floor: Floor, round_id: int, **kw: Any) -> disputes.DisputeView:
    fields: dict[str, Any] = {"box": "2", "claim": "My straight beats the dealer",
                              "claimed_amount": 200, "croupier_note": "Player upset",
                              "actor_id": floor.croupier, "camera": "C4",
                              "camera_time": "21:14:05"}
    fields.update(kw)
    return disputes.file_dispute(session, round_id=round_id, **fields)


def test_a_dispute_on_a_settled_box_shows_a_matching_recomputation(session: Session,
                                                                   floor: Floor) -> None:
    rid = play(session, floor)
    dispute = file(session, floor, rid)
    review = disputes.review(session, dispute.id)
    assert dispute.status == "open" and dispute.camera == "C4"
    assert review.round.matches and review.round.differences == ()
    assert review.round.box("2")["net"] == 100 and floor.croupier in review.dealt_by
    assert [e.type for e in review.round.events][:2] == ["place", "deal_box"]


def test_a_tampered_settlement_is_reported_in_plain_words(session: Session,
                                                          floor: Floor) -> None:
    rid = play(session, floor)
    stored = json.loads(session.exec(text(  # type: ignore[call-overload]
        f"SELECT settlement FROM round_settlement WHERE round_id = {rid}")).scalar_one())
    stored["boxes"][1]["net"] = 150
    stored["boxes"][1]["wagers"]["bet"]["net"] = 250
    recomputed = round_review.replay_round(session, rid).recomputed
    words = round_review.differences(stored, recomputed)
    assert words[0] == ("Box 2: recorded PAY 150, the engine says PAY 100; the house is "
                        "owed 50.")
    assert "Box 2 bet: recorded stake 200, PAY 250, the engine says stake 200, RETURN." in words


def test_only_a_settled_round_and_a_box_that_played_can_be_disputed(session: Session,
                                                                    floor: Floor) -> None:
    rid = play(session, floor, pay=False)
    with pytest.raises(Conflict, match="only a settled round"):
        file(session, floor, rid)
    session.rollback()
    pay_round(session, round_id=rid, actor_id=floor.croupier, idempotency_key="pay")
    with pytest.raises(ValidationError, match="Box 5 did not play"):
        file(session, floor, rid, box="5")
    with pytest.raises(ValidationError, match="claims is required"):
        file(session, floor, rid, claim="  ")


def test_the_croupier_who_dealt_cannot_resolve_and_a_croupier_never_can(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor, dealer=floor.pit_boss)  # a pit boss dealt this one
    dispute = file(session, floor, rid, actor_id=floor.pit_boss)
    with pytest.raises(PermissionDenied, match="You dealt or recorded this round"):
        disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="fine",
                        actor_id=floor.pit_boss)
    with pytest.raises(PermissionDenied, match="may not decide"):
        disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="fine",
                        actor_id=floor.croupier2)
    with pytest.raises(ValidationError, match="note is required"):
        disputes.decide(session, dispute_id=dispute.id, outcome="denied", note=" ",
                        actor_id=floor.pit_boss2)
    assert disputes.get(session, dispute.id).status == "open"


def test_decisions_supersede_each_other_and_corrections_follow_the_latest(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    dispute = file(session, floor, rid)
    disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                    note="Camera shows a straight", actor_id=floor.pit_boss)
    disputes.decide(session, dispute_id=dispute.id, outcome="escalated",
                    note="Player disputes the amount", actor_id=floor.pit_boss2)
    with pytest.raises(PermissionDenied, match="shift manager decides"):
        disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="x",
                        actor_id=floor.pit_boss)
    final = disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=150,
                            note="Pay 150", actor_id=floor.manager)
    session.commit()
    assert [d.outcome for d in final.decisions] == ["upheld", "escalated", "upheld"]
    found = disputes.corrections(session, shift_id=floor.shift_id)
    assert [(c.amount, c.source) for c in found] == [(100, "dispute"), (-100, "reversal"),
                                                     (150, "dispute")]
    assert sum(c.amount for c in found) == 150
    assert [d.id for d in disputes.queue(session, status="upheld")] == [dispute.id]
    assert disputes.queue(session, status="open") == []


def test_a_void_needs_another_pit_boss_and_only_approval_voids_the_round(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    request = voids.request_change(session, round_id=rid, kind="void", reason="Misdeal: box 2 "
                                   "had six cards", actor_id=floor.pit_boss)
    assert session.get(Round, rid).status == "settled"  # type: ignore[union-attr]
    with pytest.raises(PermissionDenied, match="another pit boss"):
        voids.decide_change(session, request_id=request.id, approve=True, note="",
                            actor_id=floor.pit_boss)
    with pytest.raises(PermissionDenied, match="may not approve"):
        voids.decide_change(session, request_id=request.id, approve=True, note="",
                            actor_id=floor.croupier)
    done = voids.decide_change(session, request_id=request.id, approve=True, note="Seen",
                               actor_id=floor.pit_boss2)
    session.commit()
    assert done.status == "approved" and session.get(Round, rid).status == "voided"  # type: ignore[union-attr]
    with pytest.raises(Conflict, match="already approved"):
        voids.decide_change(session, request_id=request.id, approve=False, note="no",
                            actor_id=floor.manager)


def test_a_correction_is_written_only_when_approved(session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    with pytest.raises(ValidationError, match="non-zero amount"):
        voids.request_change(session, round_id=rid, kind="correction", reason="x",
                             actor_id=floor.croupier, amount=0)
    with pytest.raises(ValidationError, match="reason is required"):
        voids.request_change(session, round_id=rid, kind="correction", reason="",
                             actor_id=floor.croupier, amount=-50)
    first = voids.request_change(session, round_id=rid, kind="correction", box="1",
                                 reason="Bonus overpaid", actor_id=floor.croupier, amount=-50)
    rejected = voids.decide_change(session, request_id=first.id, approve=False,
                                   note="Bonus was right", actor_id=floor.pit_boss)
    second = voids.request_change(session, round_id=rid, kind="correction", box="1",
                                  reason="Bonus overpaid (recount)", actor_id=floor.croupier,
                                  amount=-50)
    voids.decide_change(session, request_id=second.id, approve=True, note="",
                        actor_id=floor.pit_boss)
    session.commit()
    assert rejected.status == "rejected"
    assert [(c.amount, c.request_id) for c in disputes.corrections(session, round_id=rid)] \
        == [(-50, second.id)]
    assert [c.status for c in voids.changes(session, round_id=rid)] == ["rejected", "approved"]


def test_every_step_is_in_the_audit_chain_with_its_actor(session: Session,
                                                         floor: Floor) -> None:
    with audit.acting_as(audit.Actor(floor.croupier, "carla", "croupier")):
        rid = play(session, floor)
        dispute = file(session, floor, rid)
    with audit.acting_as(audit.Actor(floor.pit_boss, "pavel", "pit_boss")):
        disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                        note="ok", actor_id=floor.pit_boss)
    session.commit()
    rows = session.exec(text("SELECT actor, action FROM audit_entry "  # type: ignore[call-overload]
                             "ORDER BY seq")).all()
    actions = [(a, b) for a, b in rows]
    assert ("carla", "round_event.deal_box") in actions
    assert ("carla", "round_settlement.created") in actions
    assert ("carla", "dispute.created") in actions
    assert ("pavel", "dispute_decision.created") in actions
    assert ("pavel", "round_correction.created") in actions
    assert audit.verify(session).ok
    assert session.exec(text("SELECT count(*) FROM round_settlement")).scalar_one() == 1  # type: ignore[call-overload]
    assert RoundSettlement.__tablename__ == "round_settlement"
