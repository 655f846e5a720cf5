"""The audit chain covers the data (issue 12): a keyed chain version, append-only triggers on
every table whose rows must not change, a baseline entry for every row the log has never
described, and the ``auditor`` role.

* ``audit_entry.chain``: 1 for the unkeyed SHA-256 entries written so far (they keep
  verifying), 2 for HMAC-SHA-256 entries keyed with the instance secret (``audit.py``).
* Triggers: settlements, chip counts and chip transfers are never updated nor deleted either.
* Baseline: rows older than the log (databases created before revision 0003) get one
  ``<entity>.baseline`` entry with their content, so ``audit verify`` can compare every row of
  every table with what the log says.
* ``user_account.role`` may be ``auditor`` (PostgreSQL: the CHECK constraint is replaced;
  SQLite cannot alter a constraint and a table rebuild would trip the foreign keys of every
  table that names a user, so the constraint's text is rewritten in the schema, the documented
  ``writable_schema`` procedure, and ``integrity_check`` is run after it).

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-23
"""

import hashlib
import hmac
import json
from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_APPEND_ONLY = ("round_settlement", "inventory_count", "chip_transfer")
PG_FUNCTION = "dealer_assist_refuse_change"  # created by revision 0003
OLD_ROLES = "role IN ('croupier', 'pit_boss', 'shift_manager', 'admin')"
NEW_ROLES = "role IN ('croupier', 'pit_boss', 'shift_manager', 'admin', 'auditor')"


def _triggers(create: bool) -> None:
    pg = op.get_bind().dialect.name == "postgresql"
    for table in NEW_APPEND_ONLY:
        if pg and create:
            op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()")
        elif pg:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        for verb in () if pg else ("UPDATE", "DELETE"):
            name = f"{table}_no_{verb.lower()}"
            op.execute(f"CREATE TRIGGER {name} BEFORE {verb} ON {table} BEGIN SELECT "
                       f"RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
                       if create else f"DROP TRIGGER IF EXISTS {name}")


def _roles(old: str, new: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("ALTER TABLE user_account DROP CONSTRAINT ck_user_account_role")
        op.execute(f"ALTER TABLE user_account ADD CONSTRAINT ck_user_account_role CHECK ({new})")
        return
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar()
    bind.exec_driver_sql("PRAGMA writable_schema=ON")
    bind.execute(sa.text("UPDATE sqlite_master SET sql = replace(sql, :old, :new) "
                         "WHERE type = 'table' AND name = 'user_account'"),
                 {"old": old, "new": new})
    bind.exec_driver_sql(f"PRAGMA schema_version={int(version or 0) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema=OFF")
    result = bind.exec_driver_sql("PRAGMA integrity_check").scalar()
    if result != "ok":
        raise RuntimeError(f"integrity_check after the role change: {result}")


def upgrade() -> None:
    op.add_column("audit_entry", sa.Column("chain", sa.SmallInteger(), nullable=False,
                                           server_default="1"))
    _triggers(create=True)
    _roles(OLD_ROLES, NEW_ROLES)
    _baseline(op.get_bind())


#: the tables the log does not describe row by row
NOT_AUDITED = frozenset({"audit_entry", "alembic_version"})
#: short entity names for the action ("round.baseline"); others use the table name
SHORT = {"user_account": "user", "game_table": "table", "game_round": "round"}


def _baseline(conn: sa.Connection) -> None:
    """One ``<entity>.baseline`` entry per row the log has no snapshot of (rows older than the
    log), so every row can be compared (``audit.data``). Reflects the tables as they are."""
    described = set()
    for entity, entity_id, raw in conn.execute(sa.text(
            "SELECT entity, entity_id, payload FROM audit_entry "
            "WHERE entity_id IS NOT NULL ORDER BY seq")):
        try:
            payload = json.loads(raw)
        except ValueError:
            continue
        if not (isinstance(payload, dict) and set(payload) == {"id", "changes"}):
            described.add((entity, entity_id))  # a snapshot: created, baseline or deleted
    meta = sa.MetaData()
    meta.reflect(bind=conn)
    changes: list[Change] = []
    for table in meta.sorted_tables:
        if table.name in NOT_AUDITED or "id" not in table.c:
            continue
        for row in conn.execute(sa.select(table).order_by(table.c.id)).mappings():
            if (table.name, str(row["id"])) not in described:
                changes.append((f"{SHORT.get(table.name, table.name)}.baseline", table.name,
                                str(row["id"]), _snapshot(table.name, dict(row)), None))
    _append(conn, changes)


def downgrade() -> None:
    _roles(NEW_ROLES, OLD_ROLES)
    _triggers(create=False)
    with op.batch_alter_table("audit_entry") as batch:
        batch.drop_column("chain")


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
