"""Poker tables (issue 15): ``game_table.game`` admits americana and draw32; ``poker_table``
(profile, stakes, seat count, button), ``poker_seat`` (stacks carried hand to hand) and
``poker_chip_move`` (buy-ins, rebuys and cash-outs in the shift they were made).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HOUSE = "'russian', 'caribbean', 'oasis', 'split'"
POKER = "'americana', 'draw32'"


def _game_check(games: str, before: str) -> None:
    """Widen (or narrow back) the CHECK on ``game_table.game``.

    PostgreSQL alters the constraint. SQLite cannot, and recreating ``game_table`` (Alembic's
    batch mode) fails once shifts and rounds reference it (DROP TABLE under foreign keys); the
    SQLite documentation's procedure for changing a CHECK constraint in place is used instead:
    rewrite the table's SQL in ``sqlite_master`` and bump ``schema_version``. Every stored row
    satisfies both lists (upgrade widens; downgrade first deletes the poker tables' rows).
    """
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        with op.batch_alter_table("game_table") as batch:
            batch.drop_constraint(op.f("ck_game_table_game"), type_="check")
            batch.create_check_constraint(op.f("ck_game_table_game"), f"game IN ({games})")
        return
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.execute(sa.text("UPDATE sqlite_master SET sql = replace(sql, :old, :new) "
                         "WHERE type = 'table' AND name = 'game_table'"),
                 {"old": f"game IN ({before})", "new": f"game IN ({games})"})
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    _game_check(f"{HOUSE}, {POKER}", HOUSE)
    op.create_table(
        "poker_table",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("stakes", sa.Text(), nullable=False),
        sa.Column("seat_count", sa.Integer(), nullable=False),
        sa.Column("button", sa.String(length=16), nullable=True),
        sa.Column("hands_dealt", sa.Integer(), nullable=False),
        sa.CheckConstraint("seat_count >= 2 AND seat_count <= 6",
                           name=op.f("ck_poker_table_seats")),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name=op.f("fk_poker_table_table_id_game_table")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_poker_table")),
    )
    op.create_table(
        "poker_seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=16), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("stack", sa.BigInteger(), nullable=False),
        sa.Column("bought_in", sa.BigInteger(), nullable=False),
        sa.Column("cashed_out", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("missed", sa.String(length=32), nullable=False),
        sa.Column("seated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("stack >= 0 AND bought_in >= 0 AND cashed_out >= 0",
                           name=op.f("ck_poker_seat_chips")),
        sa.CheckConstraint("status IN ('playing', 'sitting_out', 'left')",
                           name=op.f("ck_poker_seat_status")),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name=op.f("fk_poker_seat_table_id_game_table")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_poker_seat")),
    )
    op.create_index(op.f("ix_poker_seat_table_id"), "poker_seat", ["table_id"])
    op.create_table(
        "poker_chip_move",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.String(length=16), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_poker_chip_move_amount")),
        sa.CheckConstraint("kind IN ('buy_in', 'rebuy', 'cash_out')",
                           name=op.f("ck_poker_chip_move_kind")),
        sa.ForeignKeyConstraint(["table_id"], ["game_table.id"],
                                name=op.f("fk_poker_chip_move_table_id_game_table")),
        sa.ForeignKeyConstraint(["shift_id"], ["shift.id"],
                                name=op.f("fk_poker_chip_move_shift_id_shift")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_poker_chip_move")),
    )
    op.create_index(op.f("ix_poker_chip_move_shift_id"), "poker_chip_move", ["shift_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_poker_chip_move_shift_id"), table_name="poker_chip_move")
    op.drop_table("poker_chip_move")
    op.drop_index(op.f("ix_poker_seat_table_id"), table_name="poker_seat")
    op.drop_table("poker_seat")
    op.drop_table("poker_table")
    op.execute(sa.text("DELETE FROM game_table WHERE game IN (" + POKER + ")"))
    _game_check(HOUSE, f"{HOUSE}, {POKER}")
