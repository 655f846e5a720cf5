"""The game a table runs is one of the registry's, checked where tables are made: the CHECK on
``game_table.game`` no longer lists the games (a list here was a second registry that every new
house game had to extend with a migration); it keeps the name's shape (not empty, lower case,
no surrounding blanks), and ``services.tables`` admits only a registered game
(``rules.games.registry``).

The CHECK is replaced as revisions 0005 and 0018 did it (PostgreSQL: drop and add; SQLite: the
constraint's text rewritten under ``writable_schema``, then ``integrity_check``). Everything
this revision needs is frozen here: it imports no application code. The downgrade restores the
list of revision 0010 (a table of a game outside it must be deleted first).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | Sequence[str] | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LISTED = "game IN ('russian', 'caribbean', 'oasis', 'split', 'americana', 'draw32')"
SHAPED = "length(game) > 0 AND game = lower(trim(game))"


def _game_check(old: str, new: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("ALTER TABLE game_table DROP CONSTRAINT ck_game_table_game")
        op.execute(f"ALTER TABLE game_table ADD CONSTRAINT ck_game_table_game CHECK ({new})")
        return
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar()
    bind.exec_driver_sql("PRAGMA writable_schema=ON")
    bind.execute(sa.text("UPDATE sqlite_master SET sql = replace(sql, :old, :new) "
                         "WHERE type = 'table' AND name = 'game_table'"),
                 {"old": old, "new": new})
    bind.exec_driver_sql(f"PRAGMA schema_version={int(version or 0) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema=OFF")
    result = bind.exec_driver_sql("PRAGMA integrity_check").scalar()
    if result != "ok":
        raise RuntimeError(f"integrity_check after the game check's change: {result}")


def upgrade() -> None:
    _game_check(LISTED, SHAPED)


def downgrade() -> None:
    _game_check(SHAPED, LISTED)
