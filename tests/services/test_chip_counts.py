"""Defect 11, on SQLite and PostgreSQL: the opening count is taken when the shift
opens (chip by chip in the table's chip set, signed by the croupier and the pit boss), never
made up later; the closing count is chip by chip too."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from dealer_assist.services import reports
from dealer_assist.services.errors import Conflict, PermissionDenied, ValidationError
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import inventory
from dealer_assist.services.tables import chips
from tests.factories import SIGNED, make_table, make_user, start_round
from tests.services.conftest_reports import T0, Floor, make_floor

FLOAT = {"5": 100, "25": 80, "100": 40, "1000": 10}  # 500 + 2,000 + 4,000 + 10,000


def test_a_chip_set_is_data_with_a_standard_default() -> None:
    assert chips.DEFAULT_CHIP_SET == "standard"
    assert chips.denominations("standard") == (1, 5, 25, 100, 500, 1000, 5000)
    with pytest.raises(ValidationError) as err:
        chips.denominations("monopoly")
    assert err.value.field == "chip_set"


def test_a_count_is_the_exact_sum_of_its_chips_and_names_a_bad_denomination() -> None:
    counted = chips.count("standard", FLOAT)
    assert chips.total(counted) == 16_500 and counted[1] == 0
    with pytest.raises(ValidationError) as wrong:
        chips.count("standard", {"20": 3})
    assert wrong.value.field == "chips.20"
    with pytest.raises(ValidationError) as negative:
        chips.count("standard", {"25": -1})
    assert negative.value.field == "chips.25"
    assert chips.decode(chips.encode(counted)) == counted


def _people(session: Session) -> dict[str, int]:
    return {n: make_user(session, n, r).id for n, r in (
        ("carla", "croupier"), ("pavel", "pit_boss"), ("maria", "shift_manager"),
        ("dimitri", "croupier"))}


def test_opening_a_shift_records_its_opening_count_in_one_step(session: Session) -> None:
    people = _people(session)
    table = make_table(session, chip_set="standard")
    shift, count = inventory.open_shift_with_count(
        session, credential=SIGNED,
        table_id=table.id, actor_id=people["carla"], croupier_id=people["carla"],
        pit_boss_id=people["pavel"], chips=FLOAT, now=T0)
    session.commit()
    inv = inventory.inventory_of(session, shift.id)
    assert inv.opening is not None and inv.opening.amount == count.amount == 16_500
    assert inv.opening.chips[1000] == 10
    assert (inv.opening.signed.croupier, inv.opening.signed.pit_boss) == ("Carla", "Pavel")


def test_the_one_who_opens_must_be_one_of_the_two_signers(session: Session) -> None:
    people = _people(session)
    table = make_table(session)
    with pytest.raises(PermissionDenied):
        inventory.open_shift_with_count(
            session, credential=SIGNED, table_id=table.id, actor_id=people["dimitri"],
            croupier_id=people["carla"], pit_boss_id=people["pavel"], chips=FLOAT, now=T0)


def test_a_table_with_another_chip_set_counts_in_its_denominations(session: Session) -> None:
    people = _people(session)
    table = make_table(session, name="VIP", chip_set="high-limit")
    with pytest.raises(ValidationError) as err:
        inventory.open_shift_with_count(
            session, credential=SIGNED,
            table_id=table.id, actor_id=people["pavel"], croupier_id=people["carla"],
            pit_boss_id=people["pavel"], chips={"5": 1}, now=T0)
    assert err.value.field == "chips.5"


def test_an_opening_count_after_the_first_round_is_refused(session: Session) -> None:
    floor: Floor = make_floor(session)
    start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                boxes=[live.BoxStake("1", 100)], idempotency_key="first")
    with pytest.raises(Conflict, match="before its first round"):
        inventory.record_opening_count(session, credential=SIGNED,
                                       shift_id=floor.shift_id, chips=FLOAT,
                                       croupier_id=floor.croupier, pit_boss_id=floor.pit_boss,
                                       actor_id=floor.pit_boss)


def test_the_closing_count_is_chip_by_chip_and_shows_in_the_report(session: Session) -> None:
    people = _people(session)
    table = make_table(session)
    shift, _ = inventory.open_shift_with_count(
        session, credential=SIGNED,
        table_id=table.id, actor_id=people["pavel"], croupier_id=people["carla"],
        pit_boss_id=people["pavel"], chips=FLOAT, now=T0)
    closed = inventory.close_shift(session, credential=SIGNED,
                                   shift_id=shift.id, croupier_id=people["dimitri"],
                                   pit_boss_id=people["maria"], actor_id=people["maria"],
                                   chips={"100": 50, "5000": 1}, now=T0 + timedelta(hours=8))
    session.commit()
    assert closed.closing is not None and closed.closing.amount == 10_000
    assert closed.win == 10_000 - 16_500
    data = reports.build_shift_report(session, shift.id)
    assert data["inventory"]["closing"]["chips"] == [{"denomination": 100, "chips": 50},
                                                     {"denomination": 5000, "chips": 1}]
    assert data["inventory"]["opening"]["amount"] == 16_500


def test_a_closing_amount_that_disagrees_with_its_chips_is_refused(session: Session) -> None:
    people = _people(session)
    table = make_table(session)
    shift, _ = inventory.open_shift_with_count(
        session, credential=SIGNED,
        table_id=table.id, actor_id=people["pavel"], croupier_id=people["carla"],
        pit_boss_id=people["pavel"], chips=FLOAT, now=T0)
    with pytest.raises(ValidationError, match="worth 5,000, not 5,001"):
        inventory.close_shift(session, credential=SIGNED, shift_id=shift.id, closing_amount=5_001,
                              chips={"100": 50}, croupier_id=people["carla"],
                              pit_boss_id=people["pavel"], actor_id=people["pavel"],
                              now=T0 + timedelta(hours=1))
