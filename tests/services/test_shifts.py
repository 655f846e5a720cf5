"""Shifts: the gaming date, who may open one, and at most one open shift per table."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from dealer_assist.models import GameTable, Shift
from dealer_assist.services.errors import Conflict, NotFound, PermissionDenied, ValidationError
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user

PRAGUE = ZoneInfo("Europe/Prague")


def test_a_round_at_four_in_the_morning_belongs_to_the_previous_gaming_date() -> None:
    four_am = datetime(2025, 3, 8, 4, 0, tzinfo=PRAGUE)
    assert shifts.gaming_date_at(four_am, PRAGUE, 6) == date(2025, 3, 7)


def test_the_gaming_date_turns_over_at_the_configured_hour_in_the_floors_zone() -> None:
    seven_am_prague = datetime(2025, 3, 8, 6, 0, tzinfo=UTC)
    assert shifts.gaming_date_at(seven_am_prague, PRAGUE, 6) == date(2025, 3, 8)
    assert shifts.gaming_date_at(seven_am_prague, UTC, 7) == date(2025, 3, 7)


def test_a_croupier_opens_a_shift_for_todays_gaming_date(session: Session) -> None:
    table = make_table(session)
    carla = make_user(session)
    now = datetime(2025, 3, 8, 19, 30, tzinfo=UTC)
    shift = shifts.open_shift(session, table_id=table.id, user_id=carla.id, zone=UTC, now=now)
    assert (shift.status, shift.gaming_date, shift.opened_by_name) == \
        ("open", date(2025, 3, 8), "Carla")
    assert shift.opened_at == now
    assert shifts.open_shift_of(session, table.id) == shift


def test_a_pit_boss_may_open_a_shift_for_yesterdays_gaming_date(session: Session) -> None:
    table = make_table(session)
    boss = make_user(session, "pete", "pit_boss")
    now = datetime(2025, 3, 8, 19, 30, tzinfo=UTC)
    shift = shifts.open_shift(session, table_id=table.id, user_id=boss.id,
                              gaming_date=date(2025, 3, 7), zone=UTC, now=now)
    assert shift.gaming_date == date(2025, 3, 7)


def test_a_gaming_date_more_than_a_day_away_is_refused(session: Session) -> None:
    table = make_table(session)
    carla = make_user(session)
    with pytest.raises(ValidationError) as err:
        shifts.open_shift(session, table_id=table.id, user_id=carla.id,
                          gaming_date=date.today() + timedelta(days=30))
    assert err.value.field == "gaming_date"


def test_a_table_has_at_most_one_open_shift(session: Session) -> None:
    table = make_table(session)
    other = make_table(session, name="RP 2")
    carla = make_user(session)
    shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    with pytest.raises(Conflict, match="already has an open shift"):
        shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    assert shifts.open_shift(session, table_id=other.id, user_id=carla.id).status == "open"


def test_the_database_itself_refuses_a_second_open_shift(session: Session) -> None:
    table = make_table(session)
    carla = make_user(session)
    first = shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    session.add(Shift(table_id=table.id, gaming_date=first.gaming_date, opened_by=carla.id))
    with pytest.raises(IntegrityError):
        session.flush()


def test_a_closed_shift_does_not_block_a_new_one(session: Session) -> None:
    table = make_table(session)
    carla = make_user(session)
    first = shifts.open_shift(session, table_id=table.id, user_id=carla.id)
    row = session.get(Shift, first.id)
    assert row is not None
    row.status, row.closed_by, row.closed_at = "closed", carla.id, first.opened_at
    session.flush()
    assert shifts.open_shift(session, table_id=table.id, user_id=carla.id).id != first.id


def test_an_administrator_account_does_not_open_shifts(session: Session) -> None:
    table = make_table(session)
    admin = make_user(session, "root", "admin")
    with pytest.raises(PermissionDenied):
        shifts.open_shift(session, table_id=table.id, user_id=admin.id)


def test_a_shift_on_an_unknown_or_retired_table_is_refused(session: Session) -> None:
    carla = make_user(session)
    with pytest.raises(NotFound):
        shifts.open_shift(session, table_id=999, user_id=carla.id)
    table = make_table(session)
    row = session.get(GameTable, table.id)
    assert row is not None
    row.active = False
    session.flush()
    with pytest.raises(Conflict, match="out of service"):
        shifts.open_shift(session, table_id=table.id, user_id=carla.id)


def test_the_dashboard_lists_each_table_with_its_open_shift(session: Session) -> None:
    rp1 = make_table(session, name="RP 1")
    make_table(session, name="RP 2")
    carla = make_user(session)
    shift = shifts.open_shift(session, table_id=rp1.id, user_id=carla.id)
    lines = shifts.dashboard(session)
    assert [(line.table.name, line.open_shift) for line in lines] == \
        [("RP 1", shift), ("RP 2", None)]
