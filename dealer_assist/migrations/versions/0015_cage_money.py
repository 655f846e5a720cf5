"""Issue 27: the table's money as the cage counts it -- buy-ins at the table, numbered slips
(fills, credits, opener, closer) with their voids, the drop box's soft count, and the shift
manager's notes on a hold outside its band.

All five record tables are append-only (triggers); ``slip_counter`` holds the last slip number
issued (its one row is created by the first slip, through the ORM, so the audit chain has it).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: kept here, not imported: a revision never imports the models it migrates
APPEND_ONLY = ("buy_in", "slip", "slip_void", "drop_count", "hold_note")
PG_FUNCTION = "dealer_assist_refuse_change"  # created by revision 0003
WHEN = sa.DateTime(timezone=True)
MONEY = sa.BigInteger()


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], [f"{target}.id"],
                                   name=f"fk_{table}_{column}_{target}")


def _create_triggers() -> None:
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


def _drop_triggers() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for table in APPEND_ONLY:
        if postgres:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        else:
            for verb in ("update", "delete"):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{verb}")


def _buy_in() -> None:
    op.create_table(
        "buy_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("gaming_date", sa.Date(), nullable=False),
        sa.Column("amount", MONEY, nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.String(length=8), nullable=True),
        sa.Column("player", sa.String(length=40), nullable=True),
        sa.Column("recorded_by", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=True),
        sa.CheckConstraint("amount > 0", name="ck_buy_in_amount"),
        sa.UniqueConstraint("shift_id", "key", name="uq_buy_in_shift_id_key"),
        _fk("buy_in", "recorded_by", "user_account"), _fk("buy_in", "round_id", "game_round"),
        _fk("buy_in", "shift_id", "shift"), _fk("buy_in", "table_id", "game_table"),
        sa.PrimaryKeyConstraint("id", name="pk_buy_in"),
    )
    for column in ("table_id", "shift_id", "gaming_date"):
        op.create_index(f"ix_buy_in_{column}", "buy_in", [column], unique=False)


def _slips() -> None:
    op.create_table(
        "slip_counter",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("last", MONEY, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_slip_counter"),
    )
    op.create_table(
        "slip",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", MONEY, nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("gaming_date", sa.Date(), nullable=False),
        sa.Column("issued_at", WHEN, nullable=False),
        sa.Column("amount", MONEY, nullable=False),
        sa.Column("chips", sa.Text(), nullable=True),
        sa.Column("croupier_id", sa.Integer(), nullable=False),
        sa.Column("pit_boss_id", sa.Integer(), nullable=False),
        sa.Column("transfer_id", sa.Integer(), nullable=True),
        sa.Column("count_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('fill', 'credit', 'opener', 'closer')",
                           name="ck_slip_kind"),
        sa.CheckConstraint("amount >= 0", name="ck_slip_amount"),
        sa.CheckConstraint("croupier_id <> pit_boss_id", name="ck_slip_two_signers"),
        _fk("slip", "count_id", "inventory_count"), _fk("slip", "croupier_id", "user_account"),
        _fk("slip", "pit_boss_id", "user_account"), _fk("slip", "shift_id", "shift"),
        _fk("slip", "table_id", "game_table"), _fk("slip", "transfer_id", "chip_transfer"),
        sa.PrimaryKeyConstraint("id", name="pk_slip"),
        sa.UniqueConstraint("number", name="uq_slip_number"),
    )
    op.create_index("ix_slip_table_id", "slip", ["table_id"], unique=False)
    op.create_index("ix_slip_shift_id", "slip", ["shift_id"], unique=False)
    op.create_table(
        "slip_void",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slip_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("requested_by", sa.Integer(), nullable=False),
        sa.Column("signed_by", sa.Integer(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.CheckConstraint("requested_by <> signed_by", name="ck_slip_void_two_signers"),
        _fk("slip_void", "requested_by", "user_account"),
        _fk("slip_void", "signed_by", "user_account"), _fk("slip_void", "slip_id", "slip"),
        sa.PrimaryKeyConstraint("id", name="pk_slip_void"),
        sa.UniqueConstraint("slip_id", name="uq_slip_void_slip_id"),
    )


def _counts() -> None:
    op.create_table(
        "drop_count",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("gaming_date", sa.Date(), nullable=False),
        sa.Column("amount", MONEY, nullable=False),
        sa.Column("cash", sa.Text(), nullable=False),
        sa.Column("recorded", MONEY, nullable=False),
        sa.Column("counted_at", WHEN, nullable=False),
        sa.Column("counter_a", sa.Integer(), nullable=False),
        sa.Column("counter_b", sa.Integer(), nullable=False),
        sa.Column("recorded_by", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.CheckConstraint("amount >= 0", name="ck_drop_count_amount"),
        sa.CheckConstraint("counter_a <> counter_b", name="ck_drop_count_two_counters"),
        _fk("drop_count", "counter_a", "user_account"),
        _fk("drop_count", "counter_b", "user_account"),
        _fk("drop_count", "recorded_by", "user_account"),
        _fk("drop_count", "table_id", "game_table"),
        sa.PrimaryKeyConstraint("id", name="pk_drop_count"),
        sa.UniqueConstraint("table_id", "gaming_date", name="uq_drop_count_table_id_gaming_date"),
    )
    op.create_index("ix_drop_count_table_id", "drop_count", ["table_id"], unique=False)
    op.create_table(
        "hold_note",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(length=6), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("note", sa.String(length=500), nullable=False),
        sa.Column("written_by", sa.Integer(), nullable=False),
        sa.Column("at", WHEN, nullable=False),
        sa.CheckConstraint("period IN ('day', 'month')", name="ck_hold_note_period"),
        _fk("hold_note", "table_id", "game_table"),
        _fk("hold_note", "written_by", "user_account"),
        sa.PrimaryKeyConstraint("id", name="pk_hold_note"),
    )
    op.create_index("ix_hold_note_table_id", "hold_note", ["table_id"], unique=False)


def upgrade() -> None:
    _buy_in()
    _slips()
    _counts()
    _create_triggers()


def downgrade() -> None:
    _drop_triggers()
    for table in ("hold_note", "drop_count", "slip_void", "slip", "slip_counter", "buy_in"):
        op.drop_table(table)
