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

from collections.abc import Sequence

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
    from dealer_assist.audit.data import baseline

    baseline(op.get_bind())


def downgrade() -> None:
    _roles(NEW_ROLES, OLD_ROLES)
    _triggers(create=False)
    with op.batch_alter_table("audit_entry") as batch:
        batch.drop_column("chain")
