"""Table inventory: opening and closing chip counts per shift, fills and credits, each with two
signers (croupier and pit boss) and who recorded it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _signed_columns(table: str) -> list[Any]:
    """The columns and constraints both inventory tables share."""
    return [
        sa.Column("croupier_id", sa.Integer(), nullable=False),
        sa.Column("pit_boss_id", sa.Integer(), nullable=False),
        sa.Column("recorded_by", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.CheckConstraint("croupier_id <> pit_boss_id", name=op.f(f"ck_{table}_two_signers")),
        sa.ForeignKeyConstraint(["croupier_id"], ["user_account.id"],
                                name=op.f(f"fk_{table}_croupier_id_user_account")),
        sa.ForeignKeyConstraint(["pit_boss_id"], ["user_account.id"],
                                name=op.f(f"fk_{table}_pit_boss_id_user_account")),
        sa.ForeignKeyConstraint(["recorded_by"], ["user_account.id"],
                                name=op.f(f"fk_{table}_recorded_by_user_account")),
        sa.ForeignKeyConstraint(["shift_id"], ["shift.id"],
                                name=op.f(f"fk_{table}_shift_id_shift")),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
    ]


def upgrade() -> None:
    op.create_table(
        "chip_transfer",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        *_signed_columns("chip_transfer"),
        sa.CheckConstraint("kind IN ('fill', 'credit')", name=op.f("ck_chip_transfer_kind")),
        sa.CheckConstraint("amount > 0", name=op.f("ck_chip_transfer_amount")),
    )
    op.create_index(op.f("ix_chip_transfer_shift_id"), "chip_transfer", ["shift_id"])
    op.create_table(
        "inventory_count",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("counted_at", sa.DateTime(timezone=True), nullable=False),
        *_signed_columns("inventory_count"),
        sa.CheckConstraint("kind IN ('opening', 'closing')",
                           name=op.f("ck_inventory_count_kind")),
        sa.CheckConstraint("amount >= 0", name=op.f("ck_inventory_count_amount")),
        sa.UniqueConstraint("shift_id", "kind", name=op.f("uq_inventory_count_shift_id_kind")),
    )
    op.create_index(op.f("ix_inventory_count_shift_id"), "inventory_count", ["shift_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_inventory_count_shift_id"), table_name="inventory_count")
    op.drop_table("inventory_count")
    op.drop_index(op.f("ix_chip_transfer_shift_id"), table_name="chip_transfer")
    op.drop_table("chip_transfer")
