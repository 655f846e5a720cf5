"""Issue 22: one event table. The parlour evenings' events move into ``round_event``.

``round_event`` gains ``game_id`` (the parlour evening an event belongs to) and its ``round_id``
may be NULL; every event belongs to exactly one stream (CHECK ``one_stream``), and a parlour
evening's sequence numbers and idempotency keys are unique like a round's. Every
``parlour_event`` row is copied, in order and byte for byte (type, payload, actor, time, key),
into ``round_event``; the audit log gets one ``round_event.moved`` entry per moved row (its
snapshot, and the ``parlour_event`` row it came from), so ``audit verify`` still covers every
row; then ``parlour_event`` and its triggers are dropped.

SQLite cannot alter a column's NULL constraint: ``round_event`` is rebuilt (Alembic's batch
mode) and its append-only triggers are dropped before and created again after.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

import hashlib
import hmac
import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the plpgsql function that refuses a change, created by revision 0003
PG_FUNCTION = "dealer_assist_refuse_change"
COLUMNS = "seq, type, payload, actor_id, created_at, idempotency_key"


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def _triggers(table: str, create: bool) -> None:
    """The append-only triggers of revision 0003 (SQLite ABORT; PostgreSQL row trigger)."""
    if _postgres():
        op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                   f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()" if create
                   else f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        return
    for verb in ("UPDATE", "DELETE"):
        name = f"{table}_no_{verb.lower()}"
        op.execute(f"CREATE TRIGGER {name} BEFORE {verb} ON {table} BEGIN SELECT "
                   f"RAISE(ABORT, '{table} is append-only: {verb} refused'); END" if create
                   else f"DROP TRIGGER IF EXISTS {name}")


def _alter_round_event(upgrade: bool) -> None:
    sqlite = not _postgres()
    if sqlite:
        _triggers("round_event", create=False)
    with op.batch_alter_table("round_event", recreate="always" if sqlite else "auto") as batch:
        if upgrade:
            batch.add_column(sa.Column("game_id", sa.Integer(), nullable=True))
            batch.alter_column("round_id", existing_type=sa.Integer(), nullable=True)
            batch.create_foreign_key(op.f("fk_round_event_game_id_parlour_game"),
                                     "parlour_game", ["game_id"], ["id"])
            batch.create_unique_constraint(op.f("uq_round_event_game_id_seq"),
                                           ["game_id", "seq"])
            batch.create_unique_constraint(op.f("uq_round_event_game_id_idempotency_key"),
                                           ["game_id", "idempotency_key"])
            batch.create_check_constraint(op.f("ck_round_event_one_stream"),
                                          "(round_id IS NULL) <> (game_id IS NULL)")
        else:
            batch.drop_constraint(op.f("ck_round_event_one_stream"), type_="check")
            batch.drop_constraint(op.f("uq_round_event_game_id_idempotency_key"),
                                  type_="unique")
            batch.drop_constraint(op.f("uq_round_event_game_id_seq"), type_="unique")
            batch.drop_constraint(op.f("fk_round_event_game_id_parlour_game"),
                                  type_="foreignkey")
            batch.drop_column("game_id")
            batch.alter_column("round_id", existing_type=sa.Integer(), nullable=False)
    if sqlite:
        _triggers("round_event", create=True)


def _audit_moved(bind: sa.Connection, moved: list[tuple[int, int]]) -> None:
    """One ``round_event.moved`` entry per moved row: its snapshot and where it came from."""
    if not moved:
        return
    events = sa.Table("round_event", sa.MetaData(), autoload_with=bind)  # typed, as the log
    changes: list[Change] = []
    for old_id, new_id in moved:
        row = bind.execute(sa.select(events).where(events.c.id == new_id)).mappings().one()
        snapshot = _snapshot("round_event", dict(row))
        snapshot["moved_from"] = f"parlour_event {old_id}"
        changes.append(("round_event.moved", "round_event", str(new_id), snapshot, None))
    _append(bind, changes)


def upgrade() -> None:
    _alter_round_event(upgrade=True)
    bind = op.get_bind()
    moved: list[tuple[int, int]] = []
    old = bind.execute(sa.text(f"SELECT id, game_id, {COLUMNS} FROM parlour_event "
                               "ORDER BY id")).mappings().all()
    for row in old:
        values = {k: row[k] for k in ("game_id", *COLUMNS.split(", "))}
        new_id = bind.execute(sa.text(
            f"INSERT INTO round_event (game_id, {COLUMNS}) VALUES (:game_id, :seq, :type, "
            ":payload, :actor_id, :created_at, :idempotency_key) RETURNING id"),
            values).scalar_one()
        moved.append((row["id"], new_id))
    _audit_moved(bind, moved)
    _triggers("parlour_event", create=False)
    op.drop_table("parlour_event")


def downgrade() -> None:
    op.create_table(
        "parlour_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["user_account.id"],
                                name=op.f("fk_parlour_event_actor_id_user_account")),
        sa.ForeignKeyConstraint(["game_id"], ["parlour_game.id"],
                                name=op.f("fk_parlour_event_game_id_parlour_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parlour_event")),
        sa.UniqueConstraint("game_id", "idempotency_key",
                            name=op.f("uq_parlour_event_game_id_idempotency_key")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_parlour_event_game_id_seq")),
    )
    op.execute(f"INSERT INTO parlour_event (game_id, {COLUMNS}) SELECT game_id, {COLUMNS} "
               "FROM round_event WHERE game_id IS NOT NULL ORDER BY id")
    _triggers("round_event", create=False)
    op.execute("DELETE FROM round_event WHERE game_id IS NOT NULL")
    if _postgres():
        _triggers("round_event", create=True)
    _alter_round_event(upgrade=False)
    _triggers("parlour_event", create=True)


# --- the audit chain as this revision writes it (frozen from audit/chain.py and
# audit/capture.py: a migration depends on nothing of the application that can change after
# it; ``audit verify`` reads these entries like any other) ---------------------------------

GENESIS = hashlib.sha256(b"dealer_assist audit log genesis").hexdigest()
ADVISORY_LOCK_KEY = 0x61756474  # serialises appends on PostgreSQL ("audt")
KEY_ATTRIBUTE = "dealer_assist_audit_key"  # the engine dialect's chain key (capture.install)
UNKEYED, KEYED = 1, 2
SECRET_COLUMNS = frozenset({"password_hash", "pin_hash", "token_hash"})
SEALED = {"pin_hash": "pin_seal"}
JSON_COLUMNS = frozenset({("round_event", "payload"), ("round_settlement", "settlement")})
#: (action, entity, entity_id, payload, table_id): one entry, attributed to the system
Change = tuple[str, str, str | None, Any, int | None]
AUDIT_ENTRY = sa.table(
    "audit_entry", *(sa.column(c) for c in (
        "seq", "actor_id", "actor", "role", "table_id", "action", "entity", "entity_id",
        "payload", "prev_hash", "hash", "chain")), sa.column("at", sa.DateTime(timezone=True)))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    if isinstance(value, date):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


def _shown(tablename: str, column: str, value: Any) -> Any:
    if (tablename, column) in JSON_COLUMNS and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return _plain(value)


def _snapshot(tablename: str, values: dict[str, Any]) -> dict[str, Any]:
    out = {k: _shown(tablename, k, v) for k, v in values.items() if k not in SECRET_COLUMNS}
    if "password_hash" in values:
        out["password"] = "set"
    out.update({SEALED[k]: None if v is None else hashlib.sha256(str(v).encode()).hexdigest()
                for k, v in values.items() if k in SEALED})
    return out


def _append(conn: sa.Connection, changes: list[Change]) -> None:
    """Each change as the next entry of the chain (SHA-256, or HMAC-SHA-256 with the key)."""
    if not changes:
        return
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_LOCK_KEY})
    head = conn.execute(sa.text("SELECT seq, hash FROM audit_entry ORDER BY seq DESC "
                                "LIMIT 1")).first()
    seq, prev = (head[0], head[1]) if head else (0, GENESIS)
    key = getattr(conn.engine.dialect, KEY_ATTRIBUTE, None)
    version = UNKEYED if key is None else KEYED
    now = datetime.now(UTC)
    rows = []
    for action, entity, entity_id, payload, table_id in changes:
        seq += 1
        row = {"seq": seq, "at": now, "actor_id": None, "actor": "system", "role": "system",
               "table_id": table_id, "action": action[:40], "entity": entity[:40],
               "entity_id": entity_id, "payload": _canonical(payload), "prev_hash": prev,
               "chain": version}
        content = {k: _plain(v) if k == "at" else v for k, v in row.items() if k != "chain"}
        if version != UNKEYED:
            content["chain"] = version
        data = (prev + _canonical(content)).encode("utf-8")
        row["hash"] = prev = hashlib.sha256(data).hexdigest() if key is None else \
            hmac.new(key, data, hashlib.sha256).hexdigest()
        if conn.dialect.name == "sqlite":  # stored as naive UTC there (models.UTCDateTime)
            row["at"] = now.replace(tzinfo=None)
        rows.append(row)
    conn.execute(AUDIT_ENTRY.insert(), rows)
