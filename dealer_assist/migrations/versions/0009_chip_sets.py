"""Chip sets: a table's chip set, and opening/closing counts recorded chip by chip.

Revision ID: 0009
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("chip_set", sa.String(40), nullable=False,
                                   server_default="standard"))
    with op.batch_alter_table("inventory_count") as batch:
        batch.add_column(sa.Column("chips", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inventory_count") as batch:
        batch.drop_column("chips")
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("chip_set")
