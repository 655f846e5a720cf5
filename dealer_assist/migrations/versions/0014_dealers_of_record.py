"""Issue 28: dealers rotate. A shift is the table's, a stint is the dealer's.

* ``dealer_stint`` (append-only): who dealt at which table, from when (a stint ends when the next
  one of the same table and shift starts, or when the shift closes); also a host's stint at a
  parlour game.
* ``table_device``: a tablet bound to one table; ``act_signature`` (append-only): one person
  authenticated for one act (PIN or own session).
* ``user_account.pin_hash``/``pin_set_at``/``badge``; ``game_table.pit``/``rotation_minutes``;
  ``game_round.dealer_id``, the dealer of record.

Old data (issue 28, "Old data"): every round from before this revision gets as its dealer of
record the shift's croupier (the croupier who signed the shift's opening count; the shift's
opener when it has none), and every shift one ``migrated`` stint of that croupier from its
opening. The audit log says so: one entry per stint and per round changed, and one
``dealer_of_record.migrated`` entry naming the rule and the counts.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

import hashlib
import hmac
import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: kept here, not imported: a revision never imports the models it migrates
APPEND_ONLY = ("dealer_stint", "act_signature")
PG_FUNCTION = "dealer_assist_refuse_change"  # created by revision 0003
RULE = ("issue 28: the dealer of record of a round dealt before dealers' stints were recorded "
        "is the shift's croupier (the croupier who signed the opening count, else the shift's "
        "opener); each such shift gets one 'migrated' stint of that croupier from its opening")


def _create_triggers() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()")
            continue
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
            )


def _drop_triggers() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        else:
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{verb}")


def _columns() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    op.add_column("user_account", sa.Column("pin_hash", sa.String(length=255), nullable=True))
    op.add_column("user_account", sa.Column("pin_set_at", sa.DateTime(timezone=True),
                                            nullable=True))
    op.add_column("user_account", sa.Column("badge", sa.String(length=40), nullable=True))
    op.create_index("uq_user_account_badge", "user_account", ["badge"], unique=True)
    op.add_column("game_table", sa.Column("pit", sa.String(length=40), nullable=True))
    op.add_column("game_table", sa.Column("rotation_minutes", sa.Integer(), nullable=False,
                                          server_default="40"))
    # SQLite adds a column with its REFERENCES clause in place (no table rebuild: other tables
    # and triggers point at game_round); PostgreSQL adds the named constraint
    if postgres:
        op.add_column("game_round", sa.Column("dealer_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_game_round_dealer_id_user_account", "game_round",
                              "user_account", ["dealer_id"], ["id"])
    elif "dealer_id" not in {c["name"] for c in sa.inspect(op.get_bind())
                             .get_columns("game_round")}:  # left by a SQLite downgrade
        op.execute("ALTER TABLE game_round ADD COLUMN dealer_id INTEGER CONSTRAINT "
                   "fk_game_round_dealer_id_user_account REFERENCES user_account (id)")
    op.create_index("ix_game_round_dealer_id", "game_round", ["dealer_id"], unique=False)


def _tables() -> None:
    op.create_table(
        "table_device",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=False),
        sa.Column("bound_by", sa.Integer(), nullable=False),
        sa.Column("bound_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["bound_by"], ["user_account.id"],
                                name="fk_table_device_bound_by_user_account"),
        sa.ForeignKeyConstraint(["revoked_by"], ["user_account.id"],
                                name="fk_table_device_revoked_by_user_account"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name="fk_table_device_table_id_game_table"),
        sa.PrimaryKeyConstraint("id", name="pk_table_device"),
        sa.UniqueConstraint("token_hash", name="uq_table_device_token_hash"),
    )
    op.create_index("ix_table_device_table_id", "table_device", ["table_id"], unique=False)
    op.create_table(
        "dealer_stint",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("shift_id", sa.Integer(), nullable=True),
        sa.Column("parlour_game_id", sa.Integer(), nullable=True),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("authorized_by", sa.Integer(), nullable=True),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('opening', 'relief', 'mid_round', 'start', 'migrated')",
                           name="ck_dealer_stint_kind"),
        sa.CheckConstraint("(shift_id IS NOT NULL AND table_id IS NOT NULL "
                           "AND parlour_game_id IS NULL) OR (shift_id IS NULL AND table_id IS "
                           "NULL AND parlour_game_id IS NOT NULL)", name="ck_dealer_stint_place"),
        sa.ForeignKeyConstraint(["authorized_by"], ["user_account.id"],
                                name="fk_dealer_stint_authorized_by_user_account"),
        sa.ForeignKeyConstraint(["dealer_id"], ["user_account.id"],
                                name="fk_dealer_stint_dealer_id_user_account"),
        sa.ForeignKeyConstraint(["device_id"], ["table_device.id"],
                                name="fk_dealer_stint_device_id_table_device"),
        sa.ForeignKeyConstraint(["parlour_game_id"], ["parlour_game.id"],
                                name="fk_dealer_stint_parlour_game_id_parlour_game"),
        sa.ForeignKeyConstraint(["round_id"], ["game_round.id"],
                                name="fk_dealer_stint_round_id_game_round"),
        sa.ForeignKeyConstraint(["shift_id"], ["shift.id"],
                                name="fk_dealer_stint_shift_id_shift"),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name="fk_dealer_stint_table_id_game_table"),
        sa.PrimaryKeyConstraint("id", name="pk_dealer_stint"),
    )
    for column in ("table_id", "shift_id", "parlour_game_id"):
        op.create_index(f"ix_dealer_stint_{column}", "dealer_stint", [column], unique=False)
    op.create_index("ix_dealer_stint_dealer_id_started_at", "dealer_stint",
                    ["dealer_id", "started_at"], unique=False)
    op.create_table(
        "act_signature",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("act", sa.String(length=20), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("entity", sa.String(length=40), nullable=False),
        sa.Column("entity_id", sa.String(length=40), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("method IN ('pin', 'session')", name="ck_act_signature_method"),
        sa.ForeignKeyConstraint(["device_id"], ["table_device.id"],
                                name="fk_act_signature_device_id_table_device"),
        sa.ForeignKeyConstraint(["user_id"], ["user_account.id"],
                                name="fk_act_signature_user_id_user_account"),
        sa.PrimaryKeyConstraint("id", name="pk_act_signature"),
    )
    op.create_index("ix_act_signature_user_id", "act_signature", ["user_id"], unique=False)


def _backfill() -> None:
    """The shift's croupier becomes the dealer of record of its rounds and deals one stint from
    its opening; the audit log gets an entry for each row written and one naming the rule."""
    bind = op.get_bind()
    shift = sa.table("shift", sa.column("id", sa.Integer()), sa.column("table_id", sa.Integer()),
                     sa.column("opened_at", sa.DateTime(timezone=True)),
                     sa.column("opened_by", sa.Integer()))
    count = sa.table("inventory_count", sa.column("shift_id", sa.Integer()),
                     sa.column("kind", sa.String()), sa.column("croupier_id", sa.Integer()))
    counted = (sa.select(count.c.croupier_id)
               .where(count.c.shift_id == shift.c.id, count.c.kind == "opening")
               .scalar_subquery())
    shifts = bind.execute(sa.select(shift.c.id, shift.c.table_id, shift.c.opened_at,
                                    sa.func.coalesce(counted, shift.c.opened_by))
                          .order_by(shift.c.id)).all()
    if not shifts:
        return
    stints = sa.table("dealer_stint", sa.column("id", sa.Integer()),
                      sa.column("table_id", sa.Integer()), sa.column("shift_id", sa.Integer()),
                      sa.column("dealer_id", sa.Integer()),
                      sa.column("started_at", sa.DateTime(timezone=True)),
                      sa.column("kind", sa.String()))
    changes: list[Change] = []
    rounds = 0
    for shift_id, table_id, opened_at, croupier in shifts:
        values = {"table_id": table_id, "shift_id": shift_id, "dealer_id": croupier,
                  "started_at": opened_at, "kind": "migrated"}
        new_id = bind.execute(stints.insert().values(**values)
                              .returning(stints.c.id)).scalar_one()
        row = {"id": new_id, **values, "parlour_game_id": None, "authorized_by": None,
               "round_id": None, "device_id": None}
        changes.append(("stint.migrated", "dealer_stint", str(new_id),
                        _snapshot("dealer_stint", row), table_id))
        ids = bind.execute(sa.text("SELECT id FROM game_round WHERE shift_id = :s "
                                   "AND dealer_id IS NULL ORDER BY id"), {"s": shift_id})
        for (round_id,) in ids.all():
            changes.append((
                "round.dealer_of_record", "game_round", str(round_id),
                {"id": round_id, "changes": {"dealer_id": {"from": None, "to": croupier}}},
                table_id))
            rounds += 1
        bind.execute(sa.text("UPDATE game_round SET dealer_id = :d WHERE shift_id = :s "
                             "AND dealer_id IS NULL"), {"d": croupier, "s": shift_id})
    changes.append(("dealer_of_record.migrated", "migration", "0014",
                    {"issue": 28, "rule": RULE, "shifts": len(shifts), "rounds": rounds}, None))
    _append(bind, changes)


def upgrade() -> None:
    _columns()
    _tables()
    _create_triggers()
    _backfill()


def downgrade() -> None:
    """Everything back, except on SQLite ``game_round.dealer_id``: SQLite drops no column that
    references another table, and rebuilding ``game_round`` (or ``user_account``) is refused
    while other tables point at its rows. The column is emptied and left (nullable, unused by
    the older code); :func:`_columns` reuses it on the next upgrade. The other columns go with
    SQLite's own ``DROP COLUMN`` (no rebuild)."""
    _drop_triggers()
    op.drop_table("act_signature")
    op.drop_table("dealer_stint")
    op.drop_table("table_device")
    op.drop_index("ix_game_round_dealer_id", table_name="game_round")
    op.drop_index("uq_user_account_badge", table_name="user_account")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("fk_game_round_dealer_id_user_account", "game_round",
                           type_="foreignkey")
        op.drop_column("game_round", "dealer_id")
    else:
        op.execute("UPDATE game_round SET dealer_id = NULL")
    for table, column in (("game_table", "rotation_minutes"), ("game_table", "pit"),
                          ("user_account", "badge"), ("user_account", "pin_set_at"),
                          ("user_account", "pin_hash")):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")


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
