"""Languages and currencies: a user's language and a table's currency.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # both nullable: None means "the browser's language" and "the configured currency"
    with op.batch_alter_table("user_account") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))
    with op.batch_alter_table("game_table") as batch:
        batch.add_column(sa.Column("currency", sa.String(3), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_table") as batch:
        batch.drop_column("currency")
    with op.batch_alter_table("user_account") as batch:
        batch.drop_column("language")
