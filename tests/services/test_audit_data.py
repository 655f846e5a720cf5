"""The chain covers the data: "round events, settlements, dispute decisions (triggers
dropped), and game_round.status, user_account.role, round_settlement, inventory_count (no
triggers at all) can be changed and verify still passes". Now every audited table gets random
direct SQL edits (triggers dropped, foreign keys off), deletions and insertions, each made in a
savepoint and rolled back, and ``audit_data.verify_data`` names each one: table, row and
column. The chain itself is keyed (HMAC with the instance secret): a forged entry with a correct
unkeyed SHA-256 no longer passes, and a published head carries a signature.
Set ``AUDIT_DATA_SEED`` to replay a failing run.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, create_engine, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from dealer_assist import audit, create_app, db
from dealer_assist.audit import data as audit_data
from dealer_assist.services.cage import buyins, drop, notes, slips
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import AuthenticationFailed
from dealer_assist.services.people import auth, cosign, passwords, reliefs
from dealer_assist.services.players import cards as player_cards
from dealer_assist.services.rounds import live, offline, parlour, voids
from dealer_assist.services.shifts import inventory, shifts
from dealer_assist.services.tables import devices
from dealer_assist.services.tables import poker as poker_tables
from tests.conftest import FAST_ARGON2
from tests.factories import (
    PIN,
    SIGNED,
    cage_issue,
    make_table,
    make_user,
    pay_round,
    record_step,
    start_round,
)
from tests.services.test_disputes import STEPS
from tests.services.test_parlour import suited_hand

SEED = int(os.environ.get("AUDIT_DATA_SEED", "20261123"))
EDITS_PER_TABLE = 12
KEY = audit.derive_key("test-secret")


def _play(session: Session, table_id: int, dealer: int, n: int) -> int:
    rnd = start_round(session, table_id=table_id, actor_id=dealer,
                           boxes=[live.BoxStake("1", 100, 50), live.BoxStake("2", 100)],
                           idempotency_key=f"s{n}")
    for i, (type, payload) in enumerate(STEPS):
        record_step(session, round_id=rnd.round.id, actor_id=dealer, type=type,
                         payload=payload, idempotency_key=f"k{n}-{i}")
    pay_round(session, round_id=rnd.round.id, actor_id=dealer, idempotency_key=f"p{n}")
    session.commit()
    return rnd.round.id


def _populate(engine: Engine) -> None:
    """Real service calls that write a row into every audited table."""
    with Session(engine, expire_on_commit=False) as s:
        ids = [make_user(s, name, role).id for name, role in (
            ("carla", "croupier"), ("pavel", "pit_boss"), ("petra", "pit_boss"),
            ("maria", "shift_manager"), ("audrey", "auditor"), ("kira", "count_team"),
            ("kostya", "count_team"))]
        carla, pavel, petra, maria, _, kira, kostya = ids
        table = make_table(s)
        shift = shifts.open_shift(s, table_id=table.id, user_id=carla)
        inventory.record_opening_count(s, credential=SIGNED,
                                       shift_id=shift.id, amount=100_000, croupier_id=carla,
                                       pit_boss_id=pavel, actor_id=pavel)
        inventory.record_transfer(s, credential=SIGNED,
                                  issue_id=cage_issue(s, shift.id, "fill", 5_000),
                                  shift_id=shift.id, kind="fill", amount=5_000,
                                  croupier_id=carla, pit_boss_id=pavel, actor_id=pavel)
        s.commit()
        rounds = [_play(s, table.id, carla, n) for n in range(4)]
        dispute = disputes.file_dispute(s, round_id=rounds[0], box="2", claim="more",
                                        claimed_amount=200, croupier_note="", actor_id=carla)
        disputes.decide(s, dispute_id=dispute.id, outcome="upheld", adjustment=100,
                        note="camera", actor_id=pavel)
        fix = voids.request_change(s, round_id=rounds[1], kind="correction", reason="overpaid",
                                   actor_id=carla, amount=-50, box="1")
        voids.decide_change(s, request_id=fix.id, approve=True, note="", actor_id=petra)
        void = voids.request_change(s, round_id=rounds[2], kind="void", reason="misdeal",
                                    actor_id=carla)
        voids.decide_change(s, request_id=void.id, approve=True, note="", actor_id=maria)
        # a queued step of the voided round, refused on reconnect, seen by the pit
        refusal = offline.keep_refusal(s, offline.Refused(
            table_id=None, round_id=rounds[2], actor_id=carla, device_id=None, type="fold",
            payload={"box": "1"}, tap=offline.Tap(None, True), idempotency_key="q1",
            status=409, detail="Round 3 is voided; it takes no more steps."))
        assert refusal is not None
        offline.mark_seen(s, refusal_id=refusal, actor_id=pavel)
        s.commit()
        game = parlour.create_game(s, name="Friday", players=["Ann", "Bob", "Cy"],
                                   actor_id=carla)
        parlour.record_hand(s, game_id=game, actor_id=carla, hand=suited_hand(),
                            idempotency_key="h1")
        s.commit()
        poker = poker_tables.open_table(s, name="PK 1", profile="draw32-limit",
                                        stakes={"small_blind": 10}, seat_count=5)
        shifts.open_shift(s, table_id=poker.id, user_id=carla)
        for seat in "12":
            poker_tables.seat_player(s, poker.id, seat=seat, player=f"P{seat}", buy_in=500)
        s.commit()
        # a table device bound, a relief on it (stint, signature), then revoked
        device, _token = devices.bind(s, table_id=table.id, actor_id=pavel)
        reliefs.relieve(s, table_id=table.id, relief=reliefs.Relief(
            petra, cosign.Credential(pin=PIN, device_id=device.id)))
        devices.revoke(s, device_id=device.id, actor_id=pavel)
        s.commit()
        # a buy-in, the fill's slip voided by a second person, a soft count (of the
        # day before: a day's drop is counted once its shift is closed) and a hold note
        buyins.record_buy_in(s, table_id=table.id, amount=1_000, actor_id=petra, seat="1")
        fill = next(v for v in slips.of_shift(s, shift.id) if v.kind == "fill")
        slips.void_slip(s, number=fill.number, reason="never brought", actor_id=pavel,
                        signer_id=petra, credential=cosign.Credential(pin=PIN))
        drop.soft_count(s, table_id=table.id, gaming_date=date(2026, 1, 1), cash={500: 1},
                        counter_a=kira, counter_b=kostya,
                        credential_a=cosign.Credential(signed_in=kira),
                        credential_b=cosign.Credential(pin=PIN), actor_id=kira,
                        note="found in the box")
        notes.write_note(s, table_id=table.id, period="day", day=date(2026, 1, 1),
                         note="checked", actor_id=maria)
        s.commit()
        # a rated player's card (named by the pit boss) and his visit, then his leave
        player_cards.sit_down(s, table_id=table.id, card="C-1", name="Anna K", actor_id=pavel)
        player_cards.leave(s, table_id=table.id, card="C-1", actor_id=pavel)
        s.commit()
        auth.login(s, username="pavel", password="correct horse battery", ip="10.0.0.1")
        with pytest.raises(AuthenticationFailed):
            auth.login(s, username="maria", password="wrong", ip="10.0.0.2")
        s.commit()


@pytest.fixture(scope="module")
def data_db(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[str]:
    path = tmp_path_factory.mktemp("data") / "data.sqlite3"
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite:///{path}"
    engine = audit.install(db.make_engine(url), KEY)
    passwords.configure(time_cost=1, memory_kib=64)
    try:
        _populate(engine)
    finally:
        engine.dispose()
    yield url


@pytest.fixture
def raw(data_db: str) -> Iterator[Connection]:
    """A plain pysqlite connection: no BEGIN IMMEDIATE hook, foreign keys off (a tamperer's
    connection), the append-only triggers dropped, all inside a transaction rolled back."""
    engine = create_engine(data_db)
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA ignore_check_constraints=ON")
        conn.commit()
        outer = conn.begin()
        for name in conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger'"))\
                .scalars().all():
            conn.execute(text(f"DROP TRIGGER {name}"))
        yield conn
        outer.rollback()
    engine.dispose()


def _different(column: Any, value: Any, rng: random.Random) -> Any:
    """Another value of the same kind (what a tamperer would write)."""
    python = getattr(column.type, "python_type", str) if not hasattr(
        column.type, "impl") else datetime
    if value is None:
        return {int: 7, bool: True, datetime: "2030-01-01 00:00:00.000000"}.get(python, "x")
    if isinstance(value, bool) or python is bool:
        return 0 if value else 1
    if isinstance(value, int):
        return value + rng.choice([-1, 1, 1000])
    if python is date:
        return "2031-02-03"
    if python is datetime or column.name.endswith("_at") or column.name == "at":
        return "2030-01-01 00:00:00.000000"
    if value.startswith("{") or value.startswith("["):
        return '{"forged": 1}'
    return value + rng.choice(["!", "x"])


def _found(problems: list[audit_data.RowProblem], table: str, row_id: Any,
           column: str | None = None) -> bool:
    return any(p.table == table and p.row_id == str(row_id)
               and (column is None or p.column in (column, None)) for p in problems)


def test_the_untouched_data_matches_the_log_and_every_table_has_rows(raw: Connection) -> None:
    assert audit.verify(raw, key=KEY).ok
    assert audit_data.verify_data(raw) == []
    empty = [t.name for t in audit_data.audited_tables(raw)
             if not raw.execute(select(t)).first()]
    assert empty == []


def test_random_direct_sql_edits_of_every_audited_table_are_each_named(raw: Connection) -> None:
    rng = random.Random(SEED)
    missed, done = [], set()
    for table in audit_data.audited_tables(raw):
        rows = [dict(r._mapping) for r in raw.execute(select(table))]
        columns = [c for c in table.c if c.name != "id"
                   and c.name not in audit_data.SKIPPED_COLUMNS]
        edits = 0
        while edits < EDITS_PER_TABLE:
            row, column = rng.choice(rows), rng.choice(columns)
            new = _different(column, row[column.name], rng)
            savepoint = raw.begin_nested()
            try:
                raw.execute(text(f"UPDATE {table.name} SET {column.name} = :v WHERE id = :i"),
                            {"v": new, "i": row["id"]})
            except IntegrityError:  # a unique column: another edit
                savepoint.rollback()
                continue
            problems = audit_data.verify_data(raw)
            savepoint.rollback()
            edits += 1
            done.add(table.name)
            if not _found(problems, table.name, row["id"], column.name):
                missed.append(f"{table.name}.{column.name} of row {row['id']}: "
                              f"{row[column.name]!r} -> {new!r}")
    assert not missed, f"seed {SEED}: {missed}"
    assert done == {t.name for t in audit_data.audited_tables(raw)}
    assert {"round_settlement", "inventory_count", "game_round", "user_account",
            "round_event", "dispute_decision"} <= done


def test_a_row_deleted_or_inserted_behind_the_logs_back_is_named(raw: Connection) -> None:
    rng = random.Random(SEED + 1)
    for table in audit_data.audited_tables(raw):
        rows = [dict(r._mapping) for r in raw.execute(select(table))]
        victim = rng.choice(rows)
        savepoint = raw.begin_nested()
        raw.execute(text(f"DELETE FROM {table.name} WHERE id = :i"), {"i": victim["id"]})
        assert _found(audit_data.verify_data(raw), table.name, victim["id"]), table.name
        savepoint.rollback()
        savepoint = raw.begin_nested()
        copy = {**victim, "id": max(r["id"] for r in rows) + 100}
        for column in table.c:  # unique columns get a fresh value
            value = copy[column.name]
            if isinstance(value, str) and column.name != "id":
                copy[column.name] = value[:-1] + "Z"
            elif isinstance(value, int) and not isinstance(value, bool) \
                    and column.name != "id":  # foreign keys are off
                copy[column.name] = value + 100_000
        raw.execute(insert(table).values(**copy))
        assert _found(audit_data.verify_data(raw), table.name, copy["id"]), table.name
        savepoint.rollback()


def test_a_pin_hash_replaced_behind_the_logs_back_is_named(raw: Connection) -> None:
    """"A direct edit of user_account.pin_hash is not detected by audit
    verify". The log keeps each PIN hash's seal (its SHA-256, never the hash): another valid
    hash written by direct SQL (a PIN the tamperer knows) or a PIN cleared is named; the log
    holds no hash."""
    carla = raw.execute(text("SELECT id, pin_hash FROM user_account WHERE username = 'carla'"))\
        .one()
    assert carla.pin_hash and "pin_seal" in raw.execute(text(
        "SELECT payload FROM audit_entry WHERE entity = 'user_account' AND entity_id = :i "
        "ORDER BY seq DESC"), {"i": str(carla.id)}).scalars().first()
    logged = " ".join(raw.execute(text("SELECT payload FROM audit_entry")).scalars().all())
    assert carla.pin_hash not in logged
    for forged in (passwords.hash_password("1357"), None):
        savepoint = raw.begin_nested()
        raw.execute(text("UPDATE user_account SET pin_hash = :h WHERE id = :i"),
                    {"h": forged, "i": carla.id})
        problems = audit_data.verify_data(raw)
        savepoint.rollback()
        assert _found(problems, "user_account", carla.id, "pin_hash"), forged
        assert [p.column for p in problems] == ["pin_hash"], problems
    assert audit_data.verify_data(raw) == []


def test_a_forged_entry_with_a_correct_unkeyed_hash_is_detected(raw: Connection) -> None:
    """"The chain is an unkeyed SHA-256, so a forged entry with a correct hash passes"."""
    head = audit.chain_head(Session(bind=raw))
    row = {"seq": head.seq + 1, "at": datetime(2030, 1, 1).isoformat(), "actor_id": None,
           "actor": "mallory", "role": "admin", "table_id": None, "action": "user.updated",
           "entity": "user_account", "entity_id": "1", "payload": "{}",
           "prev_hash": head.hash, "chain": audit.UNKEYED}
    for chain, key in ((audit.UNKEYED, None), (audit.KEYED, audit.derive_key("guessed"))):
        row["chain"] = chain
        row["hash"] = audit.entry_hash(head.hash, audit.content_of(row), key)
        savepoint = raw.begin_nested()
        raw.execute(text("INSERT INTO audit_entry (seq, at, actor_id, actor, role, table_id, "
                         "action, entity, entity_id, payload, prev_hash, hash, chain) VALUES "
                         "(:seq, :at, :actor_id, :actor, :role, :table_id, :action, :entity, "
                         ":entity_id, :payload, :prev_hash, :hash, :chain)"), row)
        result = audit.verify(raw, key=KEY)
        savepoint.rollback()
        assert not result.ok and result.problem is not None
        assert result.problem.seq == head.seq + 1, result.problem


def test_audit_verify_names_a_changed_settlement_and_audit_head_is_signed(
        tmp_path: Path, data_db: str) -> None:
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(data_db.removeprefix("sqlite:///"), copy)
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                      "DATABASE_URL": f"sqlite:///{copy}", **FAST_ARGON2})
    runner = app.test_cli_runner()
    try:
        ok = runner.invoke(args=["audit", "verify"])
        head = runner.invoke(args=["audit", "head"]).output.strip()
        seq, digest, signature = head.split(":")
        forged = f"{seq}:{digest}:{'0' * 64}"
        refused = runner.invoke(args=["audit", "verify", "--expect-head", forged])
        anchored = runner.invoke(args=["audit", "verify", "--expect-head", head])
        with db.get_engine(app).begin() as conn:
            conn.execute(text("DROP TRIGGER IF EXISTS round_settlement_no_update"))
            conn.execute(text("UPDATE round_settlement SET settlement = "
                              "replace(settlement, '100', '900') WHERE id = 1"))
        broken = runner.invoke(args=["audit", "verify", "--expect-head", head])
    finally:
        db.dispose(app)
    assert ok.exit_code == 0 and "every audited row matches" in ok.output, ok.output
    assert signature == audit.sign_head(KEY, int(seq), digest)
    assert refused.exit_code == 1 and "NOT signed" in refused.output
    assert anchored.exit_code == 0, anchored.output
    assert broken.exit_code == 1 and "round_settlement row 1, column settlement" in \
        broken.output, broken.output
