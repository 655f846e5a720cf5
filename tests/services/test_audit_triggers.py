"""UPDATE and DELETE on the audit log and on round events are refused by the database itself
(triggers from the migration), on SQLite and on PostgreSQL; inserting still works."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from dealer_assist import audit
from dealer_assist.models.audit import APPEND_ONLY
from dealer_assist.services.rounds import live
from dealer_assist.services.shifts import shifts
from tests.factories import make_table, make_user, record_step, start_round

STATEMENTS = {
    ("audit_entry", "UPDATE"): "UPDATE audit_entry SET actor = 'mallory'",
    ("audit_entry", "DELETE"): "DELETE FROM audit_entry",
    ("round_event", "UPDATE"): "UPDATE round_event SET payload = '{}'",
    ("round_event", "DELETE"): "DELETE FROM round_event",
}


@pytest.fixture
def recorded(engine: Engine) -> Engine:
    """One round event and the audit entries its making left behind."""
    audit.install(engine)
    with Session(engine) as session, audit.acting_as(audit.Actor(None, "test", "system")):
        croupier = make_user(session, "carla", "croupier")
        table = make_table(session)
        shifts.open_shift(session, table_id=table.id, user_id=croupier.id)
        session.commit()
        start_round(session, table_id=table.id, actor_id=croupier.id,
                    boxes=[live.BoxStake("1", 100)], idempotency_key="k1")
    return engine


def _count(engine: Engine, table: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())


@pytest.mark.parametrize(("table", "verb"), list(STATEMENTS))
def test_update_and_delete_on_append_only_tables_raise(recorded: Engine, table: str,
                                                       verb: str) -> None:
    before = _count(recorded, table)
    assert before > 0
    with pytest.raises(DBAPIError, match="append-only"):
        with recorded.begin() as conn:
            conn.execute(text(STATEMENTS[(table, verb)]))
    assert _count(recorded, table) == before
    with recorded.connect() as conn:
        assert audit.verify(conn).ok


def test_every_append_only_table_is_guarded_by_a_trigger(recorded: Engine) -> None:
    with recorded.connect() as conn:
        if conn.dialect.name == "sqlite":
            names = set(conn.execute(text(
                "SELECT name FROM sqlite_master WHERE type = 'trigger'")).scalars())
            expected = {f"{t}_no_{v}" for t in APPEND_ONLY for v in ("update", "delete")}
        else:
            names = set(conn.execute(text(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")).scalars())
            expected = {f"{t}_append_only" for t in APPEND_ONLY}
    assert expected <= names


def _append_one(engine: Engine, key: str) -> tuple[int, int]:
    """One more event in the recorded round: the chain's length before and after."""
    with Session(engine) as session:
        before = audit.chain_head(session).seq
        rnd_id = session.exec(text("SELECT id FROM game_round")).scalar_one()  # type: ignore[call-overload]
        actor = session.exec(text("SELECT id FROM user_account")).scalar_one()  # type: ignore[call-overload]
        record_step(session, round_id=rnd_id, actor_id=actor, type="deal_box",
                    payload={"box": "1", "cards": "as ad ah 2c 3d"}, idempotency_key=key)
        return before, audit.chain_head(session).seq


def test_inserting_an_event_still_works_and_is_audited(recorded: Engine) -> None:
    before, after = _append_one(recorded, "k2")
    assert after == before + 1


def test_an_engine_stays_audited_when_its_pool_is_recreated(recorded: Engine) -> None:
    """A gunicorn worker recreates its pool after the fork (``engine.dispose``);
    its writes must still be chained, with the same key (they were not: the flag and the key
    sat on the pool)."""
    with recorded.connect() as conn:
        key = audit.key_of(conn)
    recorded.dispose(close=False)
    before, after = _append_one(recorded, "k3")
    assert after == before + 1
    with recorded.connect() as conn:
        assert audit.key_of(conn) == key
