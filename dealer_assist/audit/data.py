"""The chain covers the data: every audited row, as it is now, against what its audit
entries say it should be.

``audit.verify`` proves the log was not changed; this proves the *tables* were not changed
behind the log's back. The log describes each row by entity (table name) and id: a snapshot when
it was created (or a ``baseline`` snapshot for rows older than the log, written by revision
0005), ``{"id", "changes": {column: {"from", "to"}}}`` for each update, and a snapshot when it
was deleted. Replaying them gives each row's expected content; :func:`verify_data` compares it
with the row, column by column, and names the table, the id and the column of every difference,
a row the log never saw (inserted directly) and a row the log still has (deleted directly).

Not compared: secrets the log never holds (``password_hash``, ``token_hash``), and
``last_seen_at`` (a login session's idle clock, written without an entry by design). A PIN hash
(``pin_hash``) is compared by its seal (``capture.seal``): the log keeps the SHA-256 of
each hash it saw, never the hash; a row whose PIN was last set before the seal existed has none
and is not compared until its next change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, MetaData, Table, select
from sqlmodel import SQLModel

from ..models.audit import AuditEntry
from . import capture, chain

SKIPPED_COLUMNS = chain.SECRET_COLUMNS | chain.NOISE_COLUMNS
NOT_AUDITED = frozenset({"audit_entry", "alembic_version"})
DELETED_ACTIONS = frozenset({"login.throttle_cleared", "pin.throttle_cleared"})


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One row whose content is not what the log says (``column`` None: the whole row)."""

    table: str
    row_id: str
    reason: str
    column: str | None = None

    def __str__(self) -> str:
        where = f"{self.table} row {self.row_id}"
        return f"{where}, column {self.column}: {self.reason}" if self.column else \
            f"{where}: {self.reason}"


def _op(action: str, payload: Any) -> str:
    """What an entry did to its row: ``updated`` (a ``changes`` payload), ``deleted`` or
    ``created`` (a snapshot; ``baseline`` counts as created)."""
    if isinstance(payload, dict) and set(payload) == {"id", "changes"}:
        return "updated"
    if action.endswith(".deleted") or action in DELETED_ACTIONS:
        return "deleted"
    return "created"


def expected_rows(conn: Connection, described: set[tuple[str, str]] | None = None,
                  ) -> dict[tuple[str, str], dict[str, Any] | None]:
    """``(table, id)`` -> the row's content according to the log (None: deleted). Rows with a
    snapshot (created, baseline or deleted) are added to ``described``."""
    table = AuditEntry.__table__  # type: ignore[attr-defined]
    query = (select(table.c.action, table.c.entity, table.c.entity_id, table.c.payload)
             .where(table.c.entity_id.is_not(None)).order_by(table.c.seq))
    state: dict[tuple[str, str], dict[str, Any] | None] = {}
    for action, entity, entity_id, raw in conn.execute(query.execution_options(yield_per=2000)):
        try:
            payload = json.loads(raw)
        except ValueError:
            continue  # a changed payload is the chain's finding, not this one's
        key, op = (entity, entity_id), _op(action, payload)
        if described is not None and op != "updated":
            described.add(key)
        if op == "created":
            state[key] = dict(payload)
        elif op == "deleted":
            state[key] = None
        else:
            row = state.setdefault(key, {})
            if row is not None:
                for column, change in (payload.get("changes") or {}).items():
                    if isinstance(change, dict) and "to" in change:
                        row[column] = change["to"]
    return state


def audited_tables(conn: Connection) -> list[Table]:
    """Every table with an ``id`` column except the log itself."""
    return [t for t in SQLModel.metadata.sorted_tables
            if t.name not in NOT_AUDITED and "id" in t.c]


def verify_data(conn: Connection, *, limit: int = 100) -> list[RowProblem]:
    """Every difference between the tables and the log (at most ``limit``), oldest table
    first."""
    expected = expected_rows(conn)
    problems: list[RowProblem] = []
    for table in audited_tables(conn):
        problems.extend(_check_table(conn, table, expected))
        if len(problems) >= limit:
            break
    return problems[:limit]


def _check_table(conn: Connection, table: Table,
                 expected: Mapping[tuple[str, str], dict[str, Any] | None]) -> Iterator[RowProblem]:
    seen: set[str] = set()
    for row in conn.execute(select(table).execution_options(yield_per=2000)).mappings():
        row_id = str(row["id"])
        seen.add(row_id)
        key = (table.name, row_id)
        if key not in expected:
            yield RowProblem(table.name, row_id, "is not in the audit log (inserted directly)")
            continue
        want = expected[key]
        if want is None:
            yield RowProblem(table.name, row_id, "was deleted according to the audit log")
            continue
        for column in table.c.keys():
            if column in SKIPPED_COLUMNS or column not in want:
                continue
            have = capture.shown(table.name, column, row[column])
            if have != want[column]:
                yield RowProblem(table.name, row_id, f"is {have!r}, the audit log says "
                                 f"{want[column]!r}", column)
        for sealed, seal_key in chain.SEALED.items():
            if sealed in table.c and seal_key in want \
                    and capture.seal(row[sealed]) != want[seal_key]:
                yield RowProblem(table.name, row_id, "is not the hash the audit log saw (its "
                                 "seal differs)", sealed)
    for (name, row_id), want in expected.items():
        if name == table.name and want is not None and row_id not in seen:
            yield RowProblem(table.name, row_id, "is missing (deleted without an entry)")


def baseline(conn: Connection) -> int:
    """Revision 0005: one ``<entity>.baseline`` entry per row the log has no snapshot of (rows
    older than the log), so every row can be compared. Reflects the tables as they are."""
    described: set[tuple[str, str]] = set()
    expected_rows(conn, described)
    meta = MetaData()
    meta.reflect(bind=conn)
    changes = []
    for table in meta.sorted_tables:
        if table.name in NOT_AUDITED or "id" not in table.c:
            continue
        for row in conn.execute(select(table).order_by(table.c.id)).mappings():
            if (table.name, str(row["id"])) in described:
                continue
            entity = chain.SHORT.get(table.name, table.name)
            changes.append(chain.Change(f"{entity}.baseline", table.name, str(row["id"]),
                                        capture.snapshot(table.name, dict(row))))
    if changes:
        chain.append(conn, changes, default_actor=chain.Actor.system())
    return len(changes)
