"""The audit chain catches tampering: hundreds of random direct SQL mutations (edit a field,
delete a row, swap two rows, insert a forged row), each made with the triggers dropped, are each
detected by ``audit.verify`` -- the function ``flask audit verify`` calls -- naming the right
entry. Every mutation is made inside a savepoint and rolled back, so one database serves all.

The published head (``anchor``) is what a shift report prints: without it, deleting the newest
entry would leave a valid shorter chain. Set ``AUDIT_TAMPER_SEED`` to replay a failing run.
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, text
from sqlmodel import Session

from dealer_assist import audit, create_app, db
from dealer_assist.services.people import passwords
from dealer_assist.services.shifts import shifts
from tests.conftest import FAST_ARGON2
from tests.factories import make_table, make_user, short_round

SEED = int(os.environ.get("AUDIT_TAMPER_SEED", "20261122"))
MUTATIONS_PER_KIND = 130  # x 4 kinds = 520
COLUMNS = ("at", "actor_id", "actor", "role", "table_id", "action", "entity", "entity_id",
           "payload", "prev_hash", "hash", "seq")


@pytest.fixture(scope="module")
def audited_db(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[str]:
    """A SQLite file with a few hundred audit entries made by real service calls."""
    path = tmp_path_factory.mktemp("tamper") / "audited.sqlite3"
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite:///{path}"
    engine = audit.install(db.make_engine(url))
    passwords.configure(time_cost=1, memory_kib=64)
    try:
        with audit.acting_as(audit.Actor(None, "seeder", "system")):
            with Session(engine) as session:
                people = [make_user(session, f"user{n}", role) for n, role in
                          enumerate(("croupier", "croupier", "pit_boss", "shift_manager"))]
                table_ids = [make_table(session, name=f"RP {n}").id for n in range(1, 4)]
                session.commit()
                for n, table_id in enumerate(table_ids):
                    croupier = people[n % 2].id
                    shifts.open_shift(session, table_id=table_id, user_id=croupier)
                    session.commit()
                    for r in range(12):  # through the one record path, "pâte ♠" in the keys
                        short_round(session, table_id=table_id, actor_id=croupier,
                                    key=f"pâte ♠ {table_id}-{r}")
        with engine.connect() as conn:
            count = conn.execute(text("SELECT count(*) FROM audit_entry")).scalar_one()
        assert count >= 250, count
    finally:
        engine.dispose()  # the last connection closing checkpoints the WAL into the file
    yield url


@dataclass(frozen=True)
class Expect:
    kind: str
    seq: int
    what: str


def _rows(conn: Connection) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in conn.execute(text("SELECT * FROM audit_entry ORDER BY seq"))]


def _different(rng: random.Random, column: str, value: Any) -> Any:
    """A plausible but different value for ``column``."""
    if value is None:
        return "1" if column == "entity_id" else 1
    if column in ("actor_id", "table_id"):
        return (value or 0) + rng.randint(1, 5)
    if column == "at":
        return value + "x" if isinstance(value, str) else value
    if column in ("prev_hash", "hash"):
        return f"{rng.getrandbits(256):064x}"
    if column == "payload":
        choices = [value.replace(",", ", ", 1), value[:-1] + ',"forged":1}',
                   value.replace("1", "2", 1)]
        return rng.choice([c for c in choices if c != value] or [value + " "])
    return value + rng.choice(["!", "x", " "])


def _edit(conn: Connection, rng: random.Random, rows: list[dict[str, Any]]) -> Expect:
    row = rng.choice(rows)
    column = rng.choice(COLUMNS)
    seq = row["seq"]
    if column == "seq":
        new = rng.choice([len(rows) + rng.randint(1, 50), 0, -rng.randint(1, 9)])
        conn.execute(text("UPDATE audit_entry SET seq = :v WHERE seq = :s"), {"v": new, "s": seq})
        return Expect("edit", new if new < 1 else seq, f"seq {seq} -> {new}")
    if column == "at":
        conn.execute(text("UPDATE audit_entry SET at = datetime(at, '+1 second') "
                          "WHERE seq = :s"), {"s": seq})
        return Expect("edit", seq, f"at of {seq}")
    new = _different(rng, column, row[column])
    conn.execute(text(f"UPDATE audit_entry SET {column} = :v WHERE seq = :s"),
                 {"v": new, "s": seq})
    return Expect("edit", seq, f"{column} of {seq}")


def _delete(conn: Connection, rng: random.Random, rows: list[dict[str, Any]]) -> Expect:
    seq = rng.choice(rows)["seq"] if rng.random() < 0.9 else rows[-1]["seq"]
    conn.execute(text("DELETE FROM audit_entry WHERE seq = :s"), {"s": seq})
    return Expect("delete", seq, f"delete {seq}")


def _swap(conn: Connection, rng: random.Random, rows: list[dict[str, Any]]) -> Expect:
    first, second = sorted(rng.sample(range(len(rows)), 2))
    a, b = rows[first], rows[second]
    columns = [c for c in COLUMNS if c != "seq"]
    sets = ", ".join(f"{c} = :{c}" for c in columns)
    conn.execute(text("UPDATE audit_entry SET hash = 'tmp' WHERE seq = :s"), {"s": b["seq"]})
    conn.execute(text(f"UPDATE audit_entry SET {sets} WHERE seq = :s"),
                 {**{c: b[c] for c in columns}, "s": a["seq"]})
    conn.execute(text(f"UPDATE audit_entry SET {sets} WHERE seq = :s"),
                 {**{c: a[c] for c in columns}, "s": b["seq"]})
    return Expect("swap", a["seq"], f"swap {a['seq']} and {b['seq']}")


def _forge(conn: Connection, rng: random.Random, rows: list[dict[str, Any]]) -> Expect:
    """A made-up entry copied from a real one: after the head (chained from it or leaving a
    gap) or before the first entry."""
    model = dict(rng.choice(rows))
    head = rows[-1]["seq"]
    where = rng.choice(["next", "gap", "before"])
    model["seq"] = {"next": head + 1, "gap": head + rng.randint(2, 9),
                    "before": -rng.randint(0, 5)}[where]
    model["prev_hash"] = rows[-1]["hash"] if where == "next" else model["prev_hash"]
    model["payload"] = '{"forged":true}'
    model["hash"] = f"{rng.getrandbits(256):064x}"
    names = ", ".join(model)
    conn.execute(text(f"INSERT INTO audit_entry ({names}) VALUES "
                      f"({', '.join(':' + k for k in model)})"), model)
    expected = head + 1 if where in ("next", "gap") else model["seq"]
    return Expect("forge", expected, f"forged {where} at {model['seq']}")


MUTATORS = {"edit": _edit, "delete": _delete, "swap": _swap, "forge": _forge}


def _drop_triggers(conn: Connection) -> None:
    names = conn.execute(text("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                              "AND tbl_name = 'audit_entry'")).scalars().all()
    assert names, "the migration should have created triggers on audit_entry"
    for name in names:
        conn.execute(text(f"DROP TRIGGER {name}"))


@pytest.fixture
def engine(audited_db: str) -> Iterator[Engine]:
    engine = db.make_engine(audited_db)
    yield engine
    engine.dispose()


def test_the_untouched_chain_verifies(engine: Engine) -> None:
    with engine.connect() as conn:
        result = audit.verify(conn)
        head = audit.chain_head(Session(bind=conn))
    assert result.ok and result.checked >= 250 and result.head.seq == head.seq
    assert result.head.hash == head.hash


def test_every_random_mutation_is_detected_and_names_the_right_entry(engine: Engine) -> None:
    rng = random.Random(SEED)
    plan = [kind for kind in MUTATORS for _ in range(MUTATIONS_PER_KIND)]
    rng.shuffle(plan)
    missed: list[str] = []
    with engine.connect() as conn, conn.begin() as outer:
        rows = _rows(conn)
        anchor = audit.ChainHead(rows[-1]["seq"], rows[-1]["hash"])
        _drop_triggers(conn)
        for n, kind in enumerate(plan):
            savepoint = conn.begin_nested()
            expect = MUTATORS[kind](conn, rng, rows)
            result = audit.verify(conn, anchor=anchor)
            savepoint.rollback()
            if result.problem is None or result.problem.seq != expect.seq:
                missed.append(f"#{n} {expect.what}: expected entry {expect.seq}, got "
                              f"{result.problem}")
        assert audit.verify(conn, anchor=anchor).ok  # every mutation was rolled back
        outer.rollback()
    assert len(plan) >= 500
    assert not missed, f"seed {SEED}: {len(missed)} missed, e.g. {missed[:5]}"


def test_the_cli_reports_a_tampered_chain_with_a_non_zero_exit(
        tmp_path: Path, audited_db: str) -> None:
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(audited_db.removeprefix("sqlite:///"), copy)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{copy}",
                      **FAST_ARGON2})
    runner = app.test_cli_runner()
    try:
        ok = runner.invoke(args=["audit", "verify"])
        head = runner.invoke(args=["audit", "head"]).output.strip()
        with db.get_engine(app).begin() as conn:
            _drop_triggers(conn)
            conn.execute(text("UPDATE audit_entry SET actor = 'mallory' WHERE seq = 17"))
        broken = runner.invoke(args=["audit", "verify", "--expect-head", head])
    finally:
        db.dispose(app)
    assert ok.exit_code == 0 and "Audit chain OK" in ok.output, ok.output
    assert broken.exit_code == 1, (head, broken.output)
    assert "BROKEN at entry 17" in broken.output and "was changed" in broken.output
