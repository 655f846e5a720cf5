"""Separation of duties, as a matrix over the policy of ``services/people/duties.py``:
each finding of the security probe is a row that was accepted before the policy and is refused now,
next to the row that shows the same action by the right person still works."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from dealer_assist import audit
from dealer_assist.models import GameTable, Round
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import Conflict, PermissionDenied, ValidationError
from dealer_assist.services.people import reliefs
from dealer_assist.services.reports import changes as report_changes
from dealer_assist.services.rounds import live, voids
from dealer_assist.services.shifts import inventory, shifts
from tests.factories import SIGNED, cage_issue, make_table, make_user, record_step, start_round
from tests.services.test_disputes import Floor, file, play

LATER = datetime(2099, 1, 1, tzinfo=UTC)


@pytest.fixture
def floor(engine: Engine, session: Session) -> Floor:
    """Two croupiers, two pit bosses, a shift manager; a table whose shift carla opened."""
    audit.install(engine)
    ids = [make_user(session, name, role).id for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pavel", "pit_boss"),
        ("petra", "pit_boss"), ("maria", "shift_manager"))]
    table = make_table(session)
    shift = shifts.open_shift(session, table_id=table.id, user_id=ids[0])
    # the opening float is counted when the shift opens, before its first round
    inventory.record_opening_count(session, credential=SIGNED, shift_id=shift.id, amount=100_000,
                                   croupier_id=ids[0], pit_boss_id=ids[2], actor_id=ids[2])
    session.commit()
    return Floor(*ids, table.id, shift.id)


def _close(session: Session, floor: Floor) -> None:
    inventory.close_shift(session, credential=SIGNED,
                          shift_id=floor.shift_id, closing_amount=100_000,
                          croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                          actor_id=floor.pit_boss, now=LATER)
    session.commit()


def test_a_pit_boss_cannot_uphold_a_dispute_he_filed_himself(session: Session,
                                                            floor: Floor) -> None:
    """High: "A pit boss can uphold a dispute he filed himself and write the money correction
    under his own name"."""
    rid = play(session, floor)
    dispute = file(session, floor, rid, actor_id=floor.pit_boss)
    session.commit()
    with pytest.raises(PermissionDenied, match="You filed this dispute"):
        disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                        note="mine", actor_id=floor.pit_boss)
    session.rollback()
    assert disputes.corrections(session, round_id=rid) == []
    done = disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                           note="checked on camera", actor_id=floor.pit_boss2)
    assert done.status == "upheld"


def test_a_pit_boss_cannot_override_a_shift_managers_decision_on_an_escalated_dispute(
        session: Session, floor: Floor) -> None:
    """Medium: "after a shift manager denies an escalated dispute, a pit boss posts 'upheld
    300' and it stands"."""
    rid = play(session, floor)
    dispute = file(session, floor, rid)
    disputes.decide(session, dispute_id=dispute.id, outcome="escalated", note="big one",
                    actor_id=floor.pit_boss)
    disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="camera says no",
                    actor_id=floor.manager)
    session.commit()
    for pit_boss in (floor.pit_boss, floor.pit_boss2):
        with pytest.raises(PermissionDenied, match="shift manager"):
            disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=300,
                            note="overriding", actor_id=pit_boss)
        session.rollback()
    assert disputes.get(session, dispute.id).status == "denied"


def test_a_shift_managers_decision_on_a_plain_dispute_is_not_overridden_by_a_pit_boss(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    dispute = file(session, floor, rid)
    disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="no",
                    actor_id=floor.manager)
    with pytest.raises(PermissionDenied, match="only a shift manager"):
        disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                        note="yes", actor_id=floor.pit_boss)


def test_a_pit_boss_who_dealt_a_round_cannot_approve_its_void_asked_by_the_croupier(
        session: Session, floor: Floor) -> None:
    """Low: "a pit boss who dealt a round can approve its void when the croupier asked"."""
    rid = play(session, floor, dealer=floor.pit_boss)
    req = voids.request_change(session, round_id=rid, kind="void", reason="misdeal",
                               actor_id=floor.croupier)
    session.commit()
    with pytest.raises(PermissionDenied, match="You dealt or recorded this round"):
        voids.decide_change(session, request_id=req.id, approve=True, note="",
                            actor_id=floor.pit_boss)
    session.rollback()
    assert voids.decide_change(session, request_id=req.id, approve=True, note="",
                               actor_id=floor.pit_boss2).status == "approved"


def test_nobody_approves_a_correction_they_asked_for(session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    req = voids.request_change(session, round_id=rid, kind="correction", reason="overpaid",
                               actor_id=floor.pit_boss, amount=-50, box="1")
    with pytest.raises(PermissionDenied, match="You asked for this"):
        voids.decide_change(session, request_id=req.id, approve=True, note="",
                            actor_id=floor.pit_boss)


@pytest.mark.parametrize("amount", [-999_999_999_999_999, 50_501, -50_501])
def test_a_correction_beyond_the_tables_limits_is_refused(session: Session, floor: Floor,
                                                          amount: int) -> None:
    """Low: "a correction of -999,999,999,999,999 was approved on a table whose maximum
    payout is 50,000". The limit is 50,000 + the 500 maximum stake."""
    rid = play(session, floor)
    with pytest.raises(ValidationError, match="beyond this table's limit of 50,500") as err:
        voids.request_change(session, round_id=rid, kind="correction", reason="typo",
                             actor_id=floor.croupier, amount=amount, box="1")
    assert err.value.field == "amount"
    ok = voids.request_change(session, round_id=rid, kind="correction", reason="real",
                              actor_id=floor.croupier, amount=-50_500, box="1")
    assert ok.amount == -50_500


def test_a_dispute_adjustment_and_claim_beyond_the_tables_limits_are_refused(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    with pytest.raises(ValidationError, match="beyond this table's limit"):
        file(session, floor, rid, claimed_amount=10**12)
    session.rollback()
    dispute = file(session, floor, rid)
    with pytest.raises(ValidationError, match="beyond this table's limit"):
        disputes.decide(session, dispute_id=dispute.id, outcome="upheld", note="x",
                        adjustment=-999_999_999_999_999, actor_id=floor.pit_boss)


def test_a_croupier_cannot_record_steps_in_another_croupiers_round_at_another_table(
        session: Session, floor: Floor) -> None:
    """Low: "a croupier can record steps in another croupier's open round at another
    table"."""
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                           boxes=[live.BoxStake("1", 100)], idempotency_key="mine")
    session.commit()
    with pytest.raises(PermissionDenied, match="Carla deals at this table now"):
        record_step(session, round_id=rnd.round.id, actor_id=floor.croupier2,
                         type="deal_box", payload={"box": "1", "cards": "as ad ah 2c 3d"},
                         idempotency_key="theirs")
    session.rollback()
    other = make_table(session, name="RP 2")
    shifts.open_shift(session, table_id=other.id, user_id=floor.croupier2)
    with pytest.raises(PermissionDenied, match="Carla deals at this table now"):
        start_round(session, table_id=floor.table_id, actor_id=floor.croupier2,
                         boxes=[live.BoxStake("1", 100)], idempotency_key="k2")
    # a pit boss supervises every table and may step in
    record_step(session, round_id=rnd.round.id, actor_id=floor.pit_boss,
                     type="deal_box", payload={"box": "1", "cards": "as ad ah 2c 3d"},
                     idempotency_key="boss")


def test_a_relief_croupier_deals_after_his_relief_not_after_signing_a_fill(
        session: Session, floor: Floor) -> None:
    """The dealer at a table is whoever was tapped in last, with his PIN ("Relieve
    dealer"); co-signing a fill (the way of assigning a relief croupier) no longer makes
    him the dealer while Carla deals."""
    inventory.record_transfer(session, credential=SIGNED,
                              issue_id=cage_issue(session, floor.shift_id, "fill", 5_000),
                              shift_id=floor.shift_id, kind="fill", amount=5_000,
                              croupier_id=floor.croupier2, pit_boss_id=floor.pit_boss,
                              actor_id=floor.pit_boss)
    with pytest.raises(PermissionDenied, match="Carla deals at this table now"):
        start_round(session, table_id=floor.table_id, actor_id=floor.croupier2,
                         boxes=[live.BoxStake("1", 100)], idempotency_key="too-early")
    session.rollback()
    reliefs.relieve(session, table_id=floor.table_id,
                    relief=reliefs.Relief(floor.croupier2, SIGNED))
    session.commit()
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier2,
                           boxes=[live.BoxStake("1", 100)], idempotency_key="relief")
    assert rnd.round.dealer_id == floor.croupier2
    with pytest.raises(PermissionDenied, match="Dimitri deals at this table now"):
        start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                         boxes=[live.BoxStake("1", 100)], idempotency_key="carla-again")


def test_a_closed_shift_refuses_a_void_asked_for_or_approved_after_close(
        session: Session, floor: Floor) -> None:
    """Medium: "a void requested and approved after close is accepted, the round becomes
    voided and the report's SHA-256 changes"."""
    before_close = play(session, floor)
    after_close = play(session, floor)
    pending = voids.request_change(session, round_id=before_close, kind="void",
                                   reason="misdeal", actor_id=floor.croupier)
    session.commit()
    _close(session, floor)
    with pytest.raises(Conflict, match="The shift was closed"):
        voids.request_change(session, round_id=after_close, kind="void", reason="late",
                             actor_id=floor.croupier)
    session.rollback()
    with pytest.raises(Conflict, match="The shift was closed"):
        voids.decide_change(session, request_id=pending.id, approve=True, note="",
                            actor_id=floor.pit_boss2)
    session.rollback()
    assert {session.get(Round, r).status for r in (before_close, after_close)} == {"settled"}


def test_a_post_close_correction_is_approved_and_the_report_marks_it_after_close(
        session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    _close(session, floor)
    req = voids.request_change(session, round_id=rid, kind="correction", reason="overpaid 50",
                               actor_id=floor.croupier, amount=-50, box="1", now=LATER)
    voids.decide_change(session, request_id=req.id, approve=True, note="ok",
                        actor_id=floor.pit_boss2, now=LATER.replace(year=2100))
    fixes = report_changes.corrections(session, floor.shift_id, lambda t: None)
    assert [(i["house"], i["after_close"]) for i in fixes["items"]] == [(50, True)]
    assert session.get(GameTable, floor.table_id) is not None


def test_a_croupier_asks_for_voids_corrections_and_disputes_only_at_the_table_he_deals(
        session: Session, floor: Floor) -> None:
    """(rule 5): "a void request that freezes another table's open round,
    disputes on other tables' rounds". Dimitri deals nowhere here: refused while the shift is
    open and, after close, on a round he did not deal; Carla (its croupier and dealer of
    record) and the pit are not."""
    rid, late = play(session, floor), play(session, floor)
    open_round = play(session, floor, pay=False)
    asks = {
        "void": lambda who: voids.request_change(session, round_id=open_round, kind="void",
                                                 reason="misdeal", actor_id=who),
        "correction": lambda who: voids.request_change(
            session, round_id=rid, kind="correction", reason="overpaid", actor_id=who,
            amount=-50, box="1"),
        "dispute": lambda who: file(session, floor, rid, actor_id=who)}
    made = {}
    for name, ask in asks.items():
        with pytest.raises(PermissionDenied, match="Carla deals at this table now"):
            ask(floor.croupier2)
        session.rollback()
        made[name] = ask(floor.croupier if name != "dispute" else floor.pit_boss)
        session.commit()
    voids.decide_change(session, request_id=made["void"].id, approve=True, note="ok",
                        actor_id=floor.pit_boss2)
    session.commit()
    _close(session, floor)
    with pytest.raises(PermissionDenied, match="You do not deal at this table"):
        voids.request_change(session, round_id=late, kind="correction", reason="late",
                             actor_id=floor.croupier2, amount=-50, box="1", now=LATER)
    session.rollback()
    voids.request_change(session, round_id=late, kind="correction", reason="late",
                         actor_id=floor.croupier, amount=-50, box="1", now=LATER)
