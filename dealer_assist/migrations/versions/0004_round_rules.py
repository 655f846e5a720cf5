"""Every round carries its own rules: ``game_round.rules`` (JSON: game, the full house-rules
profile as data with its hash, the table limits in force).

Rounds that exist when this runs get the rules their table has at that moment (the game and
limits of their table row, the profile as the engine defines it now): the best record there is,
since before this revision a round was always replayed with its table's current settings.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _backfill() -> None:
    """Write each existing round's rules from its table (the engine's pure rules package is the
    one project import: a round's rules are the engine's profile data)."""
    from dealer_assist.rules.games import GAMES  # noqa: F401  (registers every profile)
    from dealer_assist.rules.registry import round_rules

    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT r.id, t.game, t.profile, t.min_ante, t.max_ante, t.max_payout "
        "FROM game_round r JOIN game_table t ON t.id = r.table_id WHERE r.rules IS NULL"
    )).all()
    cache: dict[tuple[object, ...], str] = {}
    for row in rows:
        key = tuple(row[1:])
        if key not in cache:
            rules = round_rules(row[1], row[2], row[3], row[4], row[5])
            cache[key] = json.dumps(rules, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False)
        bind.execute(sa.text("UPDATE game_round SET rules = :rules WHERE id = :id"),
                     {"rules": cache[key], "id": row[0]})


def upgrade() -> None:
    with op.batch_alter_table("game_round") as batch:
        batch.add_column(sa.Column("rules", sa.Text(), nullable=True))
    _backfill()


def downgrade() -> None:
    with op.batch_alter_table("game_round") as batch:
        batch.drop_column("rules")
