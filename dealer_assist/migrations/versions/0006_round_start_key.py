"""A round remembers the idempotency key that started it; one key starts at most one round per
shift (a unique index), so a double-tapped "new round" can never open two rounds (issue 11).

Rounds started before this revision keep a NULL key (NULLs never collide); their first event
still carries the key and the service looks there too.

Revision ID: 0006
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "uq_game_round_shift_id_start_key"


def upgrade() -> None:
    op.add_column("game_round", sa.Column("start_key", sa.String(length=64), nullable=True))
    op.create_index(INDEX, "game_round", ["shift_id", "start_key"], unique=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="game_round")
    with op.batch_alter_table("game_round") as batch:
        batch.drop_column("start_key")
