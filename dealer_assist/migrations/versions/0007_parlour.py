"""The parlour board game (issue 16): ``parlour_game`` and its append-only ``parlour_event``.

Revision ID: 0007
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: kept here, not imported: a revision never imports the models it migrates
APPEND_ONLY = ("parlour_game", "parlour_event")
#: the plpgsql function that refuses a change, created by revision 0003
PG_FUNCTION = "dealer_assist_refuse_change"


def _create_triggers() -> None:
    """The same triggers as 0003's append-only tables (SQLite ABORT; PostgreSQL row trigger)."""
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                       f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()")
            continue
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
            )


def upgrade() -> None:
    op.create_table(
        "parlour_game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("profile", sa.String(length=64), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("board", sa.Text(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["user_account.id"],
                                name=op.f("fk_parlour_game_created_by_user_account")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parlour_game")),
    )
    op.create_table(
        "parlour_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=40), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("idempotency_key", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["user_account.id"],
                                name=op.f("fk_parlour_event_actor_id_user_account")),
        sa.ForeignKeyConstraint(["game_id"], ["parlour_game.id"],
                                name=op.f("fk_parlour_event_game_id_parlour_game")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_parlour_event")),
        sa.UniqueConstraint("game_id", "idempotency_key",
                            name=op.f("uq_parlour_event_game_id_idempotency_key")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_parlour_event_game_id_seq")),
    )
    _create_triggers()


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        else:
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{verb}")
    op.drop_table("parlour_event")
    op.drop_table("parlour_game")
