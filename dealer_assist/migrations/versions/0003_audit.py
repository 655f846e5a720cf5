"""Audit log (hash chain), disputes and their decisions, void/correction requests and approvals,
corrections; triggers that refuse UPDATE and DELETE on the audit log, on round events and on every
table added here (append-only).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: append-only tables (kept here, not imported: a revision never imports the models it migrates)
APPEND_ONLY = (
    "audit_entry",
    "round_event",
    "dispute",
    "dispute_decision",
    "round_change_request",
    "round_change_decision",
    "round_correction",
)
PG_FUNCTION = "dealer_assist_refuse_change"


def _create_triggers() -> None:
    """SQLite: one BEFORE UPDATE and one BEFORE DELETE trigger per table raising ABORT.
    PostgreSQL: one plpgsql function raising an exception, one BEFORE UPDATE OR DELETE row
    trigger per table (TRUNCATE, which fires no row trigger, stays possible for test set-up)."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"""
            CREATE OR REPLACE FUNCTION {PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
                    USING ERRCODE = 'integrity_constraint_violation';
            END;
            $$""")
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {PG_FUNCTION}()"
            )
        return
    for table in APPEND_ONLY:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
            )


def _drop_triggers() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in APPEND_ONLY:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS {PG_FUNCTION}()")
        return
    for table in APPEND_ONLY:
        for verb in ("update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_{verb}")


def upgrade() -> None:
    op.create_table(
        "audit_entry",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("entity", sa.String(length=40), nullable=False),
        sa.Column("entity_id", sa.String(length=40), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_audit_entry")),
        sa.UniqueConstraint("hash", name=op.f("uq_audit_entry_hash")),
    )
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_entry_table_id"), ["table_id"], unique=False)

    op.create_table(
        "dispute",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("box", sa.String(length=8), nullable=False),
        sa.Column("claim", sa.String(length=1000), nullable=False),
        sa.Column("claimed_amount", sa.BigInteger(), nullable=False),
        sa.Column("croupier_note", sa.String(length=1000), nullable=False),
        sa.Column("camera", sa.String(length=40), nullable=True),
        sa.Column("camera_time", sa.String(length=40), nullable=True),
        sa.Column("filed_by", sa.Integer(), nullable=False),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("claimed_amount >= 0", name=op.f("ck_dispute_claimed_amount")),
        sa.ForeignKeyConstraint(
            ["filed_by"], ["user_account.id"], name=op.f("fk_dispute_filed_by_user_account")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["game_round.id"], name=op.f("fk_dispute_round_id_game_round")
        ),
        sa.ForeignKeyConstraint(["shift_id"], ["shift.id"], name=op.f("fk_dispute_shift_id_shift")),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_dispute_table_id_game_table")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dispute")),
    )
    with op.batch_alter_table("dispute", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_dispute_round_id"), ["round_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_dispute_shift_id"), ["shift_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_dispute_table_id"), ["table_id"], unique=False)

    op.create_table(
        "round_change_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("box", sa.String(length=8), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=False),
        sa.Column("requested_by", sa.Integer(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind = 'correction' OR amount = 0", name=op.f("ck_round_change_request_amount")
        ),
        sa.CheckConstraint(
            "kind IN ('void', 'correction')", name=op.f("ck_round_change_request_kind")
        ),
        sa.ForeignKeyConstraint(
            ["requested_by"],
            ["user_account.id"],
            name=op.f("fk_round_change_request_requested_by_user_account"),
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["game_round.id"],
            name=op.f("fk_round_change_request_round_id_game_round"),
        ),
        sa.ForeignKeyConstraint(
            ["shift_id"], ["shift.id"], name=op.f("fk_round_change_request_shift_id_shift")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["game_table.id"],
            name=op.f("fk_round_change_request_table_id_game_table"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_change_request")),
    )
    with op.batch_alter_table("round_change_request", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_round_change_request_round_id"), ["round_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_round_change_request_shift_id"), ["shift_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_round_change_request_table_id"), ["table_id"], unique=False
        )

    op.create_table(
        "dispute_decision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dispute_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=False),
        sa.Column("adjustment", sa.BigInteger(), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "outcome = 'upheld' OR adjustment = 0", name=op.f("ck_dispute_decision_adjustment")
        ),
        sa.CheckConstraint(
            "outcome IN ('upheld', 'denied', 'escalated')", name=op.f("ck_dispute_decision_outcome")
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["user_account.id"],
            name=op.f("fk_dispute_decision_decided_by_user_account"),
        ),
        sa.ForeignKeyConstraint(
            ["dispute_id"], ["dispute.id"], name=op.f("fk_dispute_decision_dispute_id_dispute")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dispute_decision")),
        sa.UniqueConstraint(
            "dispute_id", "number", name=op.f("uq_dispute_decision_dispute_id_number")
        ),
    )
    with op.batch_alter_table("dispute_decision", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_dispute_decision_dispute_id"), ["dispute_id"], unique=False
        )

    op.create_table(
        "round_change_decision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.Integer(), nullable=False),
        sa.Column("approved", sa.Boolean(), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("decided_by", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["decided_by"],
            ["user_account.id"],
            name=op.f("fk_round_change_decision_decided_by_user_account"),
        ),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["round_change_request.id"],
            name=op.f("fk_round_change_decision_request_id_round_change_request"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_change_decision")),
        sa.UniqueConstraint("request_id", name=op.f("uq_round_change_decision_request_id")),
    )
    op.create_table(
        "round_correction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("shift_id", sa.Integer(), nullable=False),
        sa.Column("box", sa.String(length=8), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("source", sa.String(length=12), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=False),
        sa.Column("dispute_decision_id", sa.Integer(), nullable=True),
        sa.Column("request_id", sa.Integer(), nullable=True),
        sa.Column("approved_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "source IN ('dispute', 'correction', 'reversal')",
            name=op.f("ck_round_correction_source"),
        ),
        sa.ForeignKeyConstraint(
            ["approved_by"],
            ["user_account.id"],
            name=op.f("fk_round_correction_approved_by_user_account"),
        ),
        sa.ForeignKeyConstraint(
            ["dispute_decision_id"],
            ["dispute_decision.id"],
            name=op.f("fk_round_correction_dispute_decision_id_dispute_decision"),
        ),
        sa.ForeignKeyConstraint(
            ["request_id"],
            ["round_change_request.id"],
            name=op.f("fk_round_correction_request_id_round_change_request"),
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["game_round.id"], name=op.f("fk_round_correction_round_id_game_round")
        ),
        sa.ForeignKeyConstraint(
            ["shift_id"], ["shift.id"], name=op.f("fk_round_correction_shift_id_shift")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_round_correction_table_id_game_table")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round_correction")),
    )
    with op.batch_alter_table("round_correction", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_round_correction_round_id"), ["round_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_round_correction_shift_id"), ["shift_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_round_correction_table_id"), ["table_id"], unique=False
        )

    _create_triggers()


def downgrade() -> None:
    _drop_triggers()
    with op.batch_alter_table("round_correction", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_correction_table_id"))
        batch_op.drop_index(batch_op.f("ix_round_correction_shift_id"))
        batch_op.drop_index(batch_op.f("ix_round_correction_round_id"))

    op.drop_table("round_correction")
    op.drop_table("round_change_decision")
    with op.batch_alter_table("dispute_decision", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_dispute_decision_dispute_id"))

    op.drop_table("dispute_decision")
    with op.batch_alter_table("round_change_request", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_change_request_table_id"))
        batch_op.drop_index(batch_op.f("ix_round_change_request_shift_id"))
        batch_op.drop_index(batch_op.f("ix_round_change_request_round_id"))

    op.drop_table("round_change_request")
    with op.batch_alter_table("dispute", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_dispute_table_id"))
        batch_op.drop_index(batch_op.f("ix_dispute_shift_id"))
        batch_op.drop_index(batch_op.f("ix_dispute_round_id"))

    op.drop_table("dispute")
    with op.batch_alter_table("audit_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_entry_table_id"))

    op.drop_table("audit_entry")
