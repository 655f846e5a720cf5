"""A parlour evening remembers the idempotency key that created it; one key of one host creates
at most one evening (a unique index), so a double-tapped "new game" never creates two (its
start goes through the one start path, as a round's does).

Evenings created before this revision keep a NULL key (NULLs never collide). The column is
added in place (no table rebuild), so the append-only triggers of revision 0007 stay. This
revision imports no application code.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | Sequence[str] | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "uq_parlour_game_created_by_start_key"


def upgrade() -> None:
    op.add_column("parlour_game", sa.Column("start_key", sa.String(length=64), nullable=True))
    op.create_index(INDEX, "parlour_game", ["created_by", "start_key"], unique=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="parlour_game")
    op.execute("ALTER TABLE parlour_game DROP COLUMN start_key")  # in place: the triggers stay
