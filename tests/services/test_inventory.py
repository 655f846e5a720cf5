"""Table inventory and closing a shift, on SQLite and PostgreSQL: two distinct signers, the
pit boss records under their own name, closing needs the opening count and no open round, and a
closed shift takes no more rounds, events, counts or transfers."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from dealer_assist.models import Shift
from dealer_assist.models.inventory import ChipTransfer
from dealer_assist.services.errors import Conflict, PermissionDenied, ValidationError
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import inventory
from tests.factories import SIGNED, cage_issue, record_step, start_round
from tests.services.conftest_reports import T0, Floor, make_floor, open_inventory, play_shift

LATER = T0 + timedelta(hours=12)


@pytest.fixture
def floor(session: Session) -> Floor:
    made = make_floor(session)
    session.commit()
    return made


def _close(session: Session, floor: Floor, amount: int = 190_000, **kw: int) -> inventory.Inventory:
    args = {"croupier_id": floor.croupier, "pit_boss_id": floor.pit_boss,
            "actor_id": floor.pit_boss}
    args.update(kw)
    return inventory.close_shift(session, credential=SIGNED,
                                 shift_id=floor.shift_id, closing_amount=amount,
                                 now=LATER, **args)


def test_the_inventory_win_is_closing_minus_opening_plus_credits_minus_fills(
        session: Session, floor: Floor) -> None:
    open_inventory(session, floor, opening=200_000, fills=(50_000, 10_000), credits=(20_000,))
    closed = _close(session, floor, 215_000)
    session.commit()
    assert (closed.fills, closed.credits) == (60_000, 20_000)
    assert closed.win == 215_000 - 200_000 + 20_000 - 60_000
    stored = session.get(Shift, floor.shift_id)
    assert stored is not None and stored.status == "closed"
    assert stored.closed_by == floor.pit_boss and stored.closed_at == LATER


def test_a_pit_boss_cannot_sign_as_both_croupier_and_pit_boss(session: Session,
                                                              floor: Floor) -> None:
    with pytest.raises(ValidationError, match="two different people"):
        inventory.record_opening_count(session, credential=SIGNED,
                                       shift_id=floor.shift_id, amount=1000,
                                       croupier_id=floor.pit_boss, pit_boss_id=floor.pit_boss,
                                       actor_id=floor.pit_boss)


def test_the_croupier_signer_must_be_a_croupier_account(session: Session, floor: Floor) -> None:
    with pytest.raises(ValidationError, match="croupier"):
        inventory.record_opening_count(session, credential=SIGNED,
                                       shift_id=floor.shift_id, amount=1000,
                                       croupier_id=floor.manager, pit_boss_id=floor.pit_boss,
                                       actor_id=floor.pit_boss)


def test_a_croupier_cannot_record_a_fill_in_a_pit_boss_name(session: Session,
                                                            floor: Floor) -> None:
    issued = cage_issue(session, floor.shift_id, "fill", 5000)
    with pytest.raises(PermissionDenied):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=issued,
                                  shift_id=floor.shift_id, kind="fill", amount=5000,
                                  croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.croupier)


def test_a_pit_boss_records_under_their_own_name_only(session: Session, floor: Floor) -> None:
    issued = cage_issue(session, floor.shift_id, "credit", 5000)
    with pytest.raises(PermissionDenied, match="your own name"):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=issued,
                                  shift_id=floor.shift_id, kind="credit", amount=5000,
                                  croupier_id=floor.croupier, pit_boss_id=floor.manager,
                                  actor_id=floor.pit_boss)


@pytest.mark.parametrize("amount", [0, -5, 10**13])
def test_a_fill_must_be_a_positive_plausible_amount(session: Session, floor: Floor,
                                                    amount: int) -> None:
    issued = cage_issue(session, floor.shift_id, "fill", 5000)
    with pytest.raises(ValidationError):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=issued,
                                  shift_id=floor.shift_id, kind="fill", amount=amount,
                                  croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.pit_boss)


def test_the_database_refuses_a_transfer_signed_twice_by_one_account(session: Session,
                                                                     floor: Floor) -> None:
    session.add(ChipTransfer(shift_id=floor.shift_id, kind="fill", amount=10,
                             croupier_id=floor.pit_boss, pit_boss_id=floor.pit_boss,
                             recorded_by=floor.pit_boss))
    with pytest.raises(IntegrityError):
        session.commit()


def test_the_opening_count_is_recorded_once(session: Session, floor: Floor) -> None:
    open_inventory(session, floor, fills=(), credits=())
    with pytest.raises(Conflict, match="already recorded"):
        open_inventory(session, floor, fills=(), credits=())


def test_a_shift_cannot_close_without_its_opening_count(session: Session, floor: Floor) -> None:
    with pytest.raises(Conflict, match="opening count"):
        _close(session, floor)


def test_closing_is_refused_while_a_round_is_open(session: Session, floor: Floor) -> None:
    open_inventory(session, floor)
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                      boxes=[live.BoxStake("1", 100)], idempotency_key="open").round
    with pytest.raises(Conflict, match=f"Round {rnd.number} still open"):
        _close(session, floor)
    stored = session.get(Shift, floor.shift_id)
    assert stored is not None and stored.status == "open"


def test_a_closed_shift_takes_no_new_round_no_event_and_no_inventory(session: Session,
                                                                     floor: Floor) -> None:
    open_inventory(session, floor)
    play_shift(session, floor, 3, hours=1)
    issued = cage_issue(session, floor.shift_id, "fill", 5)  # issued, never signed for
    _close(session, floor)
    session.commit()
    with pytest.raises(Conflict, match="no open shift"):
        start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                    boxes=[live.BoxStake("1", 100)], idempotency_key="late-start")
    with pytest.raises(Conflict, match="closed"):
        record_step(session, round_id=1, actor_id=floor.croupier, type="reveal", payload={},
                    idempotency_key="late")
    with pytest.raises(Conflict, match="closed"):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=issued,
                                  shift_id=floor.shift_id, kind="fill", amount=5,
                                  croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.pit_boss)
    with pytest.raises(Conflict, match="closed"):
        _close(session, floor)


def test_a_transfer_time_must_fall_within_the_shift(session: Session, floor: Floor) -> None:
    issued = cage_issue(session, floor.shift_id, "fill", 5)
    with pytest.raises(ValidationError, match="between"):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=issued,
                                  shift_id=floor.shift_id, kind="fill", amount=5,
                                  croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.pit_boss, at=T0 - timedelta(minutes=1),
                                  now=LATER)


def test_transfers_come_back_in_time_order_with_the_signers_names(session: Session,
                                                                  floor: Floor) -> None:
    for hours, kind in ((5, "credit"), (1, "fill"), (3, "fill")):
        inventory.record_transfer(session, credential=SIGNED,
                                  issue_id=cage_issue(session, floor.shift_id, kind, hours),
                                  shift_id=floor.shift_id, kind=kind, amount=hours,
                                  croupier_id=floor.croupier2, pit_boss_id=floor.pit_boss,
                                  actor_id=floor.pit_boss, at=T0 + timedelta(hours=hours),
                                  now=LATER)
    session.commit()
    inv = inventory.inventory_of(session, floor.shift_id)
    assert [t.amount for t in inv.transfers] == [1, 3, 5]
    assert {(t.signed.croupier, t.signed.pit_boss) for t in inv.transfers} == {
        ("Dimitri", "Pavel")}
    assert inv.win is None  # no counts yet


def test_a_round_started_while_the_shift_is_being_closed_is_refused_once_it_closes(
        engine: Engine, session: Session, floor: Floor) -> None:
    """Two tablets: the pit boss is closing the shift while a croupier starts a round. The round
    must wait for the close and then be refused, never slip into a closed shift (SQLite: BEGIN
    IMMEDIATE serializes the writers; PostgreSQL: the start's compare reads the shift FOR
    SHARE, which waits for the closing FOR UPDATE and then sees the closed status)."""
    open_inventory(session, floor, opening=200_000)
    session.commit()
    outcome: list[object] = []

    def start() -> None:
        with Session(engine) as starter:
            try:
                outcome.append(start_round(starter, table_id=floor.table_id,
                                           actor_id=floor.croupier,
                                           boxes=[live.BoxStake("1", 100)],
                                           idempotency_key="while-closing"))
            except Exception as err:  # the thread reports whatever happened
                outcome.append(err)

    with Session(engine) as closer:
        _close(closer, floor)  # not committed yet: the shift row is locked
        tablet = threading.Thread(target=start)
        tablet.start()
        tablet.join(0.5)
        assert tablet.is_alive(), "starting a round must wait for the closing transaction"
        closer.commit()
    tablet.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], Conflict), outcome
