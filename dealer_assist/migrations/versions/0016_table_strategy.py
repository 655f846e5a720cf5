"""issue 24: a table's theoretical strategy (basic or best) for its theoretical hold.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-26

SQLite adds the column with its CHECK in place and drops it with its own ``DROP COLUMN``: no
table rebuild (a rebuild of ``game_table`` is refused while shifts, rounds, stints and devices
point at its rows, and it would drop the append-only triggers).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "strategy IN ('basic', 'best')"


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.add_column("game_table", sa.Column("strategy", sa.String(8), nullable=False,
                                              server_default="basic"))
        op.create_check_constraint(op.f("ck_game_table_strategy"), "game_table", CHECK)
    else:
        op.execute("ALTER TABLE game_table ADD COLUMN strategy VARCHAR(8) DEFAULT 'basic' "
                   f"NOT NULL CONSTRAINT ck_game_table_strategy CHECK ({CHECK})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(op.f("ck_game_table_strategy"), "game_table", type_="check")
        op.drop_column("game_table", "strategy")
    else:
        op.execute("ALTER TABLE game_table DROP COLUMN strategy")
