"""Issue 34: the table keeps dealing when the network drops.

``round_event`` gains ``tapped_at`` (when the croupier tapped, by the tablet's clock; the
existing ``created_at`` is when the server received it) and ``offline`` (the step waited in the
tablet's queue). ``table_device`` gains when it was last heard from and its last ping's queue
figures. ``offline_refusal`` keeps each queued step the server refused on reconnect.

Columns are added with ``ALTER TABLE ... ADD COLUMN`` (no table rebuild: ``round_event``'s
append-only triggers stay). Everything is frozen here: it imports no application code.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def upgrade() -> None:
    op.add_column("round_event", sa.Column("tapped_at", sa.DateTime(timezone=True),
                                           nullable=True))
    op.add_column("round_event", sa.Column("offline", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("table_device", sa.Column("heard_at", sa.DateTime(timezone=True),
                                            nullable=True))
    op.add_column("table_device", sa.Column("queued_steps", sa.Integer(), nullable=False,
                                            server_default="0"))
    op.add_column("table_device", sa.Column("queued_rounds", sa.Integer(), nullable=False,
                                            server_default="0"))
    op.add_column("table_device", sa.Column("offline_since", sa.DateTime(timezone=True),
                                            nullable=True))
    op.create_table(
        "offline_refusal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=True),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("device_id", sa.Integer(), nullable=True),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("tapped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("detail", sa.String(length=500), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seen_by", sa.Integer(), nullable=True),
        _fk("offline_refusal", "table_id", "game_table"),
        _fk("offline_refusal", "shift_id", "shift"),
        _fk("offline_refusal", "round_id", "game_round"),
        _fk("offline_refusal", "actor_id", "user_account"),
        _fk("offline_refusal", "device_id", "table_device"),
        _fk("offline_refusal", "seen_by", "user_account"),
        sa.PrimaryKeyConstraint("id", name="pk_offline_refusal"),
        sa.UniqueConstraint("table_id", "idempotency_key",
                            name="uq_offline_refusal_table_id_idempotency_key"),
    )
    op.create_index("ix_offline_refusal_table_id", "offline_refusal", ["table_id"])
    op.create_index("ix_offline_refusal_shift_id", "offline_refusal", ["shift_id"])


def downgrade() -> None:
    op.drop_index("ix_offline_refusal_shift_id", table_name="offline_refusal")
    op.drop_index("ix_offline_refusal_table_id", table_name="offline_refusal")
    op.drop_table("offline_refusal")
    with op.batch_alter_table("table_device") as batch:
        for column in ("offline_since", "queued_rounds", "queued_steps", "heard_at"):
            batch.drop_column(column)
    op.execute("ALTER TABLE round_event DROP COLUMN offline")
    op.execute("ALTER TABLE round_event DROP COLUMN tapped_at")
