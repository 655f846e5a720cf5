"""issue 24: a table's theoretical strategy (basic or best) for its theoretical hold.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("strategy", sa.String(8), nullable=False,
                                   server_default="basic"))
        batch.create_check_constraint("strategy", "strategy IN ('basic', 'best')")


def downgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.drop_constraint("strategy", type_="check")
        batch.drop_column("strategy")
