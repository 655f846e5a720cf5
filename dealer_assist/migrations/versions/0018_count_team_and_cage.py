"""Issue 35: the count team and the cage. ``user_account.role`` may be ``count_team`` (the soft
count, independent of the pit) or ``cage_cashier`` (issues fill and credit slips);
``cage_issue`` is a fill or credit the cage issued for a table's open shift and
``cage_receipt`` links it to the transfer the table signed for. Both are append-only.

The role CHECK is replaced as revision 0005 did it (PostgreSQL: drop and add; SQLite: the
constraint's text rewritten under ``writable_schema``, then ``integrity_check``). Everything
this revision needs is frozen here: it imports no application code.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_ROLES = "role IN ('croupier', 'pit_boss', 'shift_manager', 'admin', 'auditor')"
NEW_ROLES = ("role IN ('croupier', 'pit_boss', 'shift_manager', 'admin', 'auditor', "
             "'count_team', 'cage_cashier')")
APPEND_ONLY = ("cage_issue", "cage_receipt")
PG_FUNCTION = "dealer_assist_refuse_change"  # created by revision 0003


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


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


def _triggers(create: bool) -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres and create:
            op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()")
        elif postgres:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        for verb in () if postgres else ("UPDATE", "DELETE"):
            name = f"{table}_no_{verb.lower()}"
            op.execute(f"CREATE TRIGGER {name} BEFORE {verb} ON {table} BEGIN SELECT "
                       f"RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
                       if create else f"DROP TRIGGER IF EXISTS {name}")


def upgrade() -> None:
    _roles(OLD_ROLES, NEW_ROLES)
    op.create_table(
        "cage_issue",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("issued_by", sa.Integer(), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.CheckConstraint("kind IN ('fill', 'credit')", name="ck_cage_issue_kind"),
        sa.CheckConstraint("amount > 0", name="ck_cage_issue_amount"),
        _fk("cage_issue", "table_id", "game_table"), _fk("cage_issue", "shift_id", "shift"),
        _fk("cage_issue", "issued_by", "user_account"),
        sa.PrimaryKeyConstraint("id", name="pk_cage_issue"),
    )
    op.create_index("ix_cage_issue_table_id", "cage_issue", ["table_id"], unique=False)
    op.create_index("ix_cage_issue_shift_id", "cage_issue", ["shift_id"], unique=False)
    op.create_table(
        "cage_receipt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("issue_id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=False),
        _fk("cage_receipt", "issue_id", "cage_issue"),
        _fk("cage_receipt", "transfer_id", "chip_transfer"),
        sa.PrimaryKeyConstraint("id", name="pk_cage_receipt"),
        sa.UniqueConstraint("issue_id", name="uq_cage_receipt_issue_id"),
        sa.UniqueConstraint("transfer_id", name="uq_cage_receipt_transfer_id"),
    )
    _triggers(create=True)


def downgrade() -> None:
    _triggers(create=False)
    op.drop_table("cage_receipt")
    op.drop_index("ix_cage_issue_shift_id", table_name="cage_issue")
    op.drop_index("ix_cage_issue_table_id", table_name="cage_issue")
    op.drop_table("cage_issue")
    _roles(NEW_ROLES, OLD_ROLES)
