"""When a table's tablet was last heard from, written without a write per request,
and the tapped time a queued step carries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select

from dealer_assist.models import TableDevice
from dealer_assist.services.errors import ServiceError, ValidationError
from dealer_assist.services.rounds import offline
from dealer_assist.services.tables import devices, heard
from tests.factories import make_table, make_user

NOW = datetime(2026, 11, 29, 7, 0, 0, tzinfo=UTC)


@pytest.fixture
def device(session: Session) -> int:
    heard._LAST.clear()
    table = make_table(session, name="RP 1")
    olga = make_user(session, "olga", "pit_boss")
    found, _token = devices.bind(session, table_id=table.id, actor_id=olga.id, now=NOW)
    session.commit()
    return found.id


def _heard_at(session: Session) -> datetime | None:
    session.expire_all()
    return session.exec(select(TableDevice)).one().heard_at


def test_the_heard_from_time_is_written_at_most_every_few_seconds(
        session: Session, device: int) -> None:
    """A write per request would put the one writer's lock in front of every tap; the floor
    needs seconds (offline after 10 s), so a device is written at most every 2.5 s."""
    conn = session.connection()
    assert heard.heard(conn, device, NOW) is True
    assert heard.heard(conn, device, NOW + timedelta(seconds=1)) is False
    assert heard.due(str(conn.engine.url), device, NOW + timedelta(seconds=2)) is False
    session.commit()
    assert _heard_at(session) == NOW
    assert heard.heard(session.connection(), device, NOW + timedelta(seconds=3)) is True
    session.commit()
    assert _heard_at(session) == NOW + timedelta(seconds=3)


def test_another_process_does_not_write_the_same_seconds_again(
        session: Session, device: int) -> None:
    assert heard.heard(session.connection(), device, NOW) is True
    session.commit()
    heard._LAST.clear()  # another process: it remembers nothing, the UPDATE compares
    assert heard.heard(session.connection(), device, NOW + timedelta(seconds=1)) is False
    session.commit()
    assert _heard_at(session) == NOW


def test_a_ping_with_other_queue_figures_is_written_at_once(
        session: Session, device: int) -> None:
    conn = session.connection()
    assert heard.heard(conn, device, NOW, heard.Queue(0, 0)) is True
    assert heard.heard(conn, device, NOW + timedelta(seconds=1), heard.Queue(0, 0)) is False
    assert heard.heard(conn, device, NOW + timedelta(seconds=1), heard.Queue(5, 2, NOW)) is True
    session.commit()
    session.expire_all()
    row = session.exec(select(TableDevice)).one()
    assert (row.queued_steps, row.queued_rounds, row.offline_since) == (5, 2, NOW)


def test_a_table_is_offline_after_10_s_of_silence_since_it_was_last_heard_from(
        session: Session, device: int) -> None:
    heard.heard(session.connection(), device, NOW)
    table_id = session.exec(select(TableDevice.table_id)).one()
    fresh = heard.of_tables(session.connection(), [table_id], NOW + timedelta(seconds=9))
    assert fresh[table_id].offline is False
    silent = heard.of_tables(session.connection(), [table_id], NOW + timedelta(seconds=10))
    assert silent[table_id].offline is True and silent[table_id].heard_at == NOW


def test_a_tapped_time_is_read_with_its_zone_and_at_most_5_minutes_ahead() -> None:
    tap = offline.read_tap("2026-11-29T07:01:02.345Z", True, NOW)
    assert tap == offline.Tap(datetime(2026, 11, 29, 7, 1, 2, 345000, tzinfo=UTC), True)
    assert offline.read_tap("2026-11-29T10:00:00+03:00", "false", NOW).tapped_at == NOW
    assert offline.read_tap(None, None, NOW) == offline.NO_TAP
    for bad in ("2026-11-29T07:01:02", "soon", 5, "2026-13-01T00:00:00Z"):
        with pytest.raises(offline.Malformed):
            offline.read_tap(bad, True, NOW)
    with pytest.raises(offline.Malformed):
        offline.read_tap(None, "perhaps", NOW)
    with pytest.raises(ValidationError) as ahead:
        offline.read_tap("2026-11-29T07:05:01Z", True, NOW)
    assert ahead.value.field == "tapped_at"
    assert not isinstance(offline.Malformed("x"), ValidationError)
    assert isinstance(offline.Malformed("x"), ServiceError)
