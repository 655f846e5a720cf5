"""Issue 23: rated players. ``player_card`` (a card number and an optional name),
``player_visit`` (a rated player's sit-down at a table and his leave when tapped) and
``poker_seat.left_at`` (a poker player's leave, for the time he played).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_card",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card", sa.String(20), nullable=False),
        sa.Column("name", sa.String(100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["user_account.id"],
                                name=op.f("fk_player_card_created_by_user_account")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_card")),
        sa.UniqueConstraint("card", name=op.f("uq_player_card_card")),
    )
    op.create_table(
        "player_visit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("sat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sat_by", sa.Integer(), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("left_by", sa.Integer(), nullable=True),
        sa.CheckConstraint("left_at IS NULL OR left_at >= sat_at",
                           name=op.f("ck_player_visit_times")),
        sa.ForeignKeyConstraint(["player_id"], ["player_card.id"],
                                name=op.f("fk_player_visit_player_id_player_card")),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name=op.f("fk_player_visit_table_id_game_table")),
        sa.ForeignKeyConstraint(["sat_by"], ["user_account.id"],
                                name=op.f("fk_player_visit_sat_by_user_account")),
        sa.ForeignKeyConstraint(["left_by"], ["user_account.id"],
                                name=op.f("fk_player_visit_left_by_user_account")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_visit")),
    )
    op.create_index(op.f("ix_player_visit_player_id"), "player_visit", ["player_id"])
    op.create_index(op.f("ix_player_visit_table_id"), "player_visit", ["table_id"])
    with op.batch_alter_table("poker_seat") as batch:
        batch.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("poker_seat") as batch:
        batch.drop_column("left_at")
    op.drop_index(op.f("ix_player_visit_table_id"), table_name="player_visit")
    op.drop_index(op.f("ix_player_visit_player_id"), table_name="player_visit")
    op.drop_table("player_visit")
    op.drop_table("player_card")
