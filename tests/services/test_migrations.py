"""Migrations apply cleanly on both databases, match the models, and init-db is idempotent;
SQLite runs with WAL, synchronous=FULL, a busy timeout, foreign keys and BEGIN IMMEDIATE."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, SQLModel

from dealer_assist import create_app, db
from dealer_assist.models import GameTable, User, utcnow
from dealer_assist.services.rounds.store import encode_payload
from tests.factories import insert_as_of_now

TABLES = {"user_account", "auth_session", "login_throttle", "game_table", "shift", "game_round",
          "round_event", "round_settlement", "alembic_version"}


def test_migrations_bring_an_empty_database_to_the_head_revision(empty_db_url: str) -> None:
    engine = db.make_engine(empty_db_url)
    try:
        assert db.current_revision(engine) is None
        db.upgrade(engine)
        assert db.current_revision(engine) == db.head_revision(engine)
        assert TABLES <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_the_migrated_schema_matches_the_models_exactly(db_url: str) -> None:
    engine = db.make_engine(db_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(context, SQLModel.metadata) == []
    finally:
        engine.dispose()


def test_downgrading_to_nothing_and_upgrading_again_works(empty_db_url: str) -> None:
    engine = db.make_engine(empty_db_url)
    try:
        db.upgrade(engine)
        command.downgrade(db.alembic_config(engine), "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        db.upgrade(engine)
        assert TABLES <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_init_db_migrates_once_and_then_reports_it_is_up_to_date(empty_db_url: str) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": empty_db_url})
    runner = app.test_cli_runner()
    try:
        first = runner.invoke(args=["init-db"])
        second = runner.invoke(args=["init-db"])
    finally:
        db.dispose(app)
    assert first.exit_code == 0, first.output
    assert "migrated from empty to revision" in first.output
    assert second.exit_code == 0, second.output
    assert "up to date" in second.output


def test_money_columns_hold_amounts_beyond_32_bits(session: Session) -> None:
    table = GameTable(name="High", game="russian", profile="p", min_ante=1,
                      max_ante=5_000_000_000, max_payout=9_000_000_000_000, boxes=6)
    session.add(table)
    session.commit()
    session.expire_all()
    stored = session.get(GameTable, table.id)
    assert stored is not None and stored.max_payout == 9_000_000_000_000
    assert isinstance(stored.max_payout, int)


def test_times_are_stored_and_read_back_as_aware_utc(session: Session) -> None:
    user = User(username="u", display_name="U", role="croupier", password_hash="x")
    session.add(user)
    session.commit()
    session.expire_all()
    stored = session.get(User, user.id)
    assert stored is not None and stored.created_at.utcoffset() is not None
    assert abs((utcnow() - stored.created_at).total_seconds()) < 60


def test_a_naive_datetime_is_refused(session: Session) -> None:
    session.add(User(username="u", display_name="U", role="croupier", password_hash="x",
                     created_at=datetime(2025, 1, 1)))
    with pytest.raises(Exception, match="naive datetime"):
        session.commit()


def test_check_constraints_refuse_an_unknown_role(session: Session) -> None:
    session.add(User(username="u", display_name="U", role="owner", password_hash="x"))
    with pytest.raises(IntegrityError):
        session.commit()


def _table(game: str) -> GameTable:
    return GameTable(name=f"T {game!r}", game=game, profile="p", min_ante=1, max_ante=2,
                     max_payout=3, boxes=1)


def test_the_database_admits_any_game_name_the_registry_may_hold_but_only_in_its_shape(
        session: Session) -> None:
    # which games a table may run is the registry's (services.tables checks it); the database
    # keeps the name's shape only, so a new house game needs no migration (revision 0020)
    session.add(_table("toy"))
    session.commit()
    for bad in ("", "Toy", " toy"):
        session.add(_table(bad))
        with pytest.raises(IntegrityError):
            session.commit()
        session.rollback()


# --- SQLite specifics ---------------------------------------------------------------------------

def test_sqlite_connections_use_wal_full_sync_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'p.sqlite3'}", busy_timeout_ms=1234)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 1234
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    finally:
        engine.dispose()


def test_sqlite_writes_begin_immediate_so_a_second_writer_waits_but_readers_do_not(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'lock.sqlite3'}"
    first = db.make_engine(url)
    second = db.make_engine(url, busy_timeout_ms=50)
    try:
        with first.begin() as conn:
            conn.execute(text("CREATE TABLE t (x INTEGER)"))
        with db.session_scope(first) as writer:
            writer.execute(text("SELECT 1"))  # BEGIN IMMEDIATE: holds the write lock from here
            with db.session_scope(second, write=False) as reader:
                assert reader.execute(text("SELECT count(*) FROM t")).scalar() == 0
            with pytest.raises(OperationalError, match="locked"):
                with db.session_scope(second) as other_writer:
                    other_writer.execute(text("SELECT 1"))
    finally:
        first.dispose()
        second.dispose()


def test_sqlite_ddl_is_transactional_so_a_failed_migration_leaves_nothing(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'ddl.sqlite3'}")
    try:
        with pytest.raises(OperationalError):
            with engine.begin() as conn:
                conn.execute(text("CREATE TABLE half (x INTEGER)"))
                conn.execute(text("CREATE TABLE broken (x INTEGER"))
        assert "half" not in inspect(engine).get_table_names()
    finally:
        engine.dispose()


def test_a_database_with_rows_older_than_the_audit_log_migrates_and_verifies(
        empty_db_url: str) -> None:
    """Revision 0005 gives every row the log never described a baseline entry, so
    an old database verifies (chain and data) and a later direct edit of such a row is named."""
    from dealer_assist import audit
    from dealer_assist.audit import data as audit_data

    engine = db.make_engine(empty_db_url)
    try:
        db.upgrade(engine, "0003")
        with engine.begin() as conn:  # written before the log, with the columns of 0003
            insert_as_of_now(conn, "user_account", username="old", display_name="Old Timer",
                             role="pit_boss", password_hash="x", active=True,
                             must_change_password=False, created_at=utcnow())
            insert_as_of_now(conn, "game_table", name="RP 9", game="russian", profile="p",
                             min_ante=10, max_ante=100, max_payout=5000, boxes=6, active=True,
                             created_at=utcnow())
        db.upgrade(engine)
        with engine.connect() as conn:
            assert audit.verify(conn).ok
            assert audit_data.verify_data(conn) == []
            actions = conn.execute(text("SELECT action FROM audit_entry")).scalars().all()
            assert sorted(actions) == ["table.baseline", "user.baseline"]
        with engine.begin() as conn:
            conn.execute(text("UPDATE user_account SET role = 'admin' WHERE username = 'old'"))
        with engine.connect() as conn:
            problems = audit_data.verify_data(conn)
        assert [(p.table, p.column) for p in problems] == [("user_account", "role")]
    finally:
        engine.dispose()


def test_parlour_events_made_at_the_previous_head_move_into_the_one_event_table(
        empty_db_url: str) -> None:
    """Revision 0012 copies every ``parlour_event`` row, in order and byte for byte,
    into ``round_event`` (``game_id``), describes each moved row in the audit log (the chain
    and the data still verify, keyed), drops ``parlour_event``; the evening replays as before.
    Downgrading moves the rows back."""
    from sqlmodel import Session

    from dealer_assist import audit
    from dealer_assist.audit import data as audit_data
    from dealer_assist.rules.games.parlour import settle_hand_request
    from dealer_assist.services.rounds import parlour
    from tests.rules.parlour_deals import SUITED, body

    key = audit.derive_key("test-secret")
    engine = audit.install(db.make_engine(empty_db_url), key)
    try:
        db.upgrade(engine, "0011")
        board = {"pool": 0, "sections": {s: 0 for s in ("ante", "8-9-10", "KQ-clubs", "Ah",
                                                         "Kh", "Qh", "Jh", "10h")}}
        first = body(SUITED, board=board)
        after = settle_hand_request(first).to_dict()
        second = {**body(SUITED, board=after["board_after"]), "players": ["Bob", "Cy", "Ann"],
                  "betting": [{"player": p, "type": "pass"} for p in ("Cy", "Ann", "Bob")]}
        payloads = [encode_payload(first), encode_payload(second)]
        with engine.begin() as conn:  # written by the code of revision 0011
            host = insert_as_of_now(conn, "user_account", username="hal", display_name="Hal",
                                    role="croupier", password_hash="x", active=True,
                                    must_change_password=False, created_at=utcnow())
            gid = insert_as_of_now(conn, "parlour_game", name="Friday",
                                   profile="parlour-americana", variant="basic",
                                   players=encode_payload({"players": ["Ann", "Bob", "Cy"]}),
                                   board=encode_payload(board), created_by=host,
                                   created_at=utcnow())
            for seq, payload in enumerate(payloads, start=1):
                insert_as_of_now(conn, "parlour_event", game_id=gid, seq=seq, type="hand",
                                 payload=payload, actor_id=host, created_at=utcnow(),
                                 idempotency_key=f"h{seq}")
            audit_data.baseline(conn)  # the rows as the log knew them
        db.upgrade(engine)
        with engine.connect() as conn:
            moved = conn.execute(text("SELECT game_id, seq, type, payload, idempotency_key, "
                                      "round_id FROM round_event ORDER BY id")).all()
            assert [tuple(r) for r in moved] == [(gid, 1, "hand", payloads[0], "h1", None),
                                                 (gid, 2, "hand", payloads[1], "h2", None)]
            assert "parlour_event" not in inspect(conn).get_table_names()
            actions = conn.execute(text("SELECT action FROM audit_entry WHERE entity = "
                                        "'round_event'")).scalars().all()
            assert actions == ["round_event.moved", "round_event.moved"]
            assert audit.verify(conn, key=key).ok
            assert audit_data.verify_data(conn) == []
        with Session(engine) as session:
            view = parlour.load(session, gid)
        assert [h.request for h in view.hands] == [json.loads(p) for p in payloads]
        assert view.hands[0].result == after and view.last_seq == 2
        command.downgrade(db.alembic_config(engine), "0011")
        with engine.connect() as conn:
            back = conn.execute(text("SELECT seq, payload FROM parlour_event ORDER BY id")).all()
            assert [tuple(r) for r in back] == [(1, payloads[0]), (2, payloads[1])]
            assert conn.execute(text("SELECT count(*) FROM round_event")).scalar() == 0
    finally:
        engine.dispose()


def test_rounds_from_before_stints_get_the_shifts_croupier_as_dealer_of_record(
        empty_db_url: str) -> None:
    """"Old data" (revision 0014): shifts and rounds from before keep working; their
    dealer of record is the shift's croupier (the one who signed its opening count, else its
    opener), each shift gets one ``migrated`` stint of his from its opening, and the audit log
    says so."""
    import json

    from sqlmodel import Session

    from dealer_assist import audit
    from dealer_assist.audit import data as audit_data
    from dealer_assist.services import reports
    from dealer_assist.services.people import stints

    engine = db.make_engine(empty_db_url)
    try:
        db.upgrade(engine, "0013")
        now = utcnow()
        with engine.begin() as conn:
            def user(name: str, role: str) -> int:
                return insert_as_of_now(conn, "user_account", username=name, display_name=name,
                                        role=role, password_hash="x", active=True,
                                        must_change_password=False, created_at=now)

            pia, carla, dima = user("pia", "pit_boss"), user("carla", "croupier"), user(
                "dima", "croupier")
            table = insert_as_of_now(conn, "game_table", name="RP 9", game="russian",
                                     profile="russian-classic", min_ante=10, max_ante=100,
                                     max_payout=5000, boxes=6, active=True, created_at=now)
            counted = insert_as_of_now(conn, "shift", table_id=table, gaming_date=now.date(),
                                       status="closed", opened_by=pia, opened_at=now,
                                       closed_by=pia, closed_at=now)
            insert_as_of_now(conn, "inventory_count", shift_id=counted, kind="opening",
                             amount=100, counted_at=now, croupier_id=carla, pit_boss_id=pia,
                             recorded_by=pia, note="")
            uncounted = insert_as_of_now(conn, "shift", table_id=table, gaming_date=now.date(),
                                         status="open", opened_by=dima, opened_at=now)
            rounds = {shift: [insert_as_of_now(conn, "game_round", table_id=table,
                                               shift_id=shift, number=n, status="voided",
                                               opened_at=now) for n in (1, 2)]
                      for shift in (counted, uncounted)}
        db.upgrade(engine)
        with engine.connect() as conn:
            dealers = dict(conn.execute(text("SELECT id, dealer_id FROM game_round")).all())
            assert {dealers[r] for r in rounds[counted]} == {carla}
            assert {dealers[r] for r in rounds[uncounted]} == {dima}
            migrated = conn.execute(text("SELECT shift_id, dealer_id, kind FROM dealer_stint "
                                         "ORDER BY shift_id")).all()
            assert [tuple(m) for m in migrated] == [(counted, carla, "migrated"),
                                                    (uncounted, dima, "migrated")]
            assert audit.verify(conn).ok
            entries = conn.execute(text("SELECT action, payload FROM audit_entry "
                                        "WHERE seq > 0 ORDER BY seq")).all()
            actions = [a for a, _p in entries]
            assert actions.count("round.dealer_of_record") == 4
            assert actions.count("stint.migrated") == 2
            summary = json.loads(next(p for a, p in entries
                                      if a == "dealer_of_record.migrated"))
            assert summary["issue"] == 28 and "shift's croupier" in summary["rule"]
            assert (summary["shifts"], summary["rounds"]) == (2, 4)
            problems = audit_data.verify_data(conn)
            # the rows written at 0011 without the log are named as such; nothing the
            # migration wrote is
            assert problems and all(p.reason.endswith("(inserted directly)") for p in problems), \
                [str(p) for p in problems if not p.reason.endswith("(inserted directly)")]
            assert not [p for p in problems if p.table == "dealer_stint"
                        or p.column == "dealer_id"]
        with Session(engine) as session:  # the old shifts keep working
            assert stints.current(session, uncounted).dealer_id == dima  # type: ignore[union-attr]
            report = reports.build_shift_report(session, counted)
            assert [(d["name"], d["rounds"], d["voided"]) for d in report["dealers"]] == [
                ("carla", 2, 2)]
        command.downgrade(db.alembic_config(engine), "0013")  # with rows: no table rebuilt
        assert "dealer_stint" not in inspect(engine).get_table_names()
        db.upgrade(engine)
        with engine.connect() as conn:
            again = dict(conn.execute(text("SELECT id, dealer_id FROM game_round")).all())
        assert again == dealers
    finally:
        engine.dispose()
