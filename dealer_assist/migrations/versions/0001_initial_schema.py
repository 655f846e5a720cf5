"""Initial schema: accounts, login sessions and throttling, tables, shifts, rounds, append-only
round events and stored settlements.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("min_ante", sa.BigInteger(), nullable=False),
        sa.Column("max_ante", sa.BigInteger(), nullable=False),
        sa.Column("max_payout", sa.BigInteger(), nullable=False),
        sa.Column("boxes", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "game IN ('russian', 'caribbean', 'oasis', 'split')", name=op.f("ck_game_table_game")
        ),
        sa.CheckConstraint("boxes >= 1", name=op.f("ck_game_table_boxes")),
        sa.CheckConstraint("max_payout > 0", name=op.f("ck_game_table_max_payout")),
        sa.CheckConstraint(
            "min_ante > 0 AND max_ante >= min_ante", name=op.f("ck_game_table_ante_limits")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_table")),
        sa.UniqueConstraint("name", name=op.f("uq_game_table_name")),
    )
    op.create_table(
        "login_throttle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("ip", sa.String(length=64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_throttle")),
        sa.UniqueConstraint("username", "ip", name=op.f("uq_login_throttle_username_ip")),
    )
    op.create_table(
        "user_account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("must_change_password", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("password_changed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "role IN ('croupier', 'pit_boss', 'shift_manager', 'admin')",
            name=op.f("ck_user_account_role"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_account")),
        sa.UniqueConstraint("username", name=op.f("uq_user_account_username")),
    )
    op.create_table(
        "auth_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_auth_session_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_auth_session")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_auth_session_token_hash")),
    )
    op.create_index(op.f("ix_auth_session_user_id"), "auth_session", ["user_id"], unique=False)

    op.create_table(
        "shift",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("gaming_date", sa.Date(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("opened_by", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status IN ('open', 'closed')", name=op.f("ck_shift_status")),
        sa.ForeignKeyConstraint(
            ["closed_by"], ["user_account.id"], name=op.f("fk_shift_closed_by_user_account")
        ),
        sa.ForeignKeyConstraint(
            ["opened_by"], ["user_account.id"], name=op.f("fk_shift_opened_by_user_account")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_shift_table_id_game_table")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_shift")),
    )
    op.create_index(op.f("ix_shift_table_id"), "shift", ["table_id"], unique=False)
    op.create_index(
        "uq_shift_one_open_per_table",
        "shift",
        ["table_id"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )

    op.create_table(
        "game_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "status IN ('open', 'settled', 'voided')", name=op.f("ck_game_round_status")
        ),
        sa.ForeignKeyConstraint(
            ["shift_id"], ["shift.id"], name=op.f("fk_game_round_shift_id_shift")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_game_round_table_id_game_table")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_round")),
        sa.UniqueConstraint("shift_id", "number", name=op.f("uq_game_round_shift_id_number")),
    )
    op.create_index(op.f("ix_game_round_shift_id"), "game_round", ["shift_id"], unique=False)
    op.create_index(op.f("ix_game_round_table_id"), "game_round", ["table_id"], unique=False)

    op.create_table(
        "round_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["user_account.id"], name=op.f("fk_round_event_actor_id_user_account")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["game_round.id"], name=op.f("fk_round_event_round_id_game_round")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_event")),
        sa.UniqueConstraint(
            "round_id", "idempotency_key", name=op.f("uq_round_event_round_id_idempotency_key")
        ),
        sa.UniqueConstraint("round_id", "seq", name=op.f("uq_round_event_round_id_seq")),
    )
    op.create_table(
        "round_settlement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("through_seq", sa.Integer(), nullable=False),
        sa.Column("settlement", sa.Text(), nullable=False),
        sa.Column("engine_version", sa.String(length=40), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("profile_version", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"], ["game_round.id"], name=op.f("fk_round_settlement_round_id_game_round")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_settlement")),
        sa.UniqueConstraint(
            "round_id", "through_seq", name=op.f("uq_round_settlement_round_id_through_seq")
        ),
    )
    op.create_index(
        op.f("ix_round_settlement_round_id"), "round_settlement", ["round_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_round_settlement_round_id"), table_name="round_settlement")

    op.drop_table("round_settlement")
    op.drop_table("round_event")
    op.drop_index(op.f("ix_game_round_table_id"), table_name="game_round")
    op.drop_index(op.f("ix_game_round_shift_id"), table_name="game_round")

    op.drop_table("game_round")
    op.drop_index(
        "uq_shift_one_open_per_table",
        table_name="shift",
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.drop_index(op.f("ix_shift_table_id"), table_name="shift")

    op.drop_table("shift")
    op.drop_index(op.f("ix_auth_session_user_id"), table_name="auth_session")

    op.drop_table("auth_session")
    op.drop_table("user_account")
    op.drop_table("login_throttle")
    op.drop_table("game_table")
