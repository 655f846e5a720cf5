"""The tamper-evident audit log's chain: appending hash-chained entries and verifying them.

The chain: entry *n* stores ``prev_hash`` (entry *n-1*'s hash, or :data:`GENESIS`) and
``hash = sha256(prev_hash + content)`` where ``content`` is the canonical JSON (sorted keys, no
spaces, ``ensure_ascii=False``) of every other column. Appending reads the head and writes the
next ``seq``; SQLite's ``BEGIN IMMEDIATE`` already serialises writers, PostgreSQL takes a
transaction-scoped advisory lock first. :func:`verify` recomputes the chain (``flask audit
verify``) and names the first bad entry. Secrets never enter a payload: a password hash shows as
``"changed"``, a session token hash is left out.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, insert, select, text

from ..models import utcnow
from ..models.audit import AuditEntry

GENESIS = hashlib.sha256(b"dealer_assist audit log genesis").hexdigest()
#: serialises appends on PostgreSQL ("audt")
ADVISORY_LOCK_KEY = 0x61756474
SECRET_COLUMNS = frozenset({"password_hash", "pin_hash", "token_hash"})
#: secret columns the log fingerprints: column -> the payload key of its seal
SEALED = {"pin_hash": "pin_seal"}
NOISE_COLUMNS = frozenset({"last_seen_at"})
JSON_COLUMNS = frozenset({("round_event", "payload"), ("round_settlement", "settlement")})
#: short entity names for the action ("round.created"); others use the table name
SHORT = {"user_account": "user", "game_table": "table", "game_round": "round"}
#: the engine dialect attribute that holds the chain key (set by ``capture.install``)
KEY_ATTRIBUTE = "dealer_assist_audit_key"
UNKEYED, KEYED = 1, 2


@dataclass(frozen=True, slots=True)
class Actor:
    """Who a change is attributed to."""

    id: int | None
    name: str
    role: str

    @classmethod
    def system(cls) -> Actor:
        return cls(None, "system", "system")

    @classmethod
    def anonymous(cls) -> Actor:
        return cls(None, "anonymous", "anonymous")


current_actor: ContextVar[Actor | None] = ContextVar("dealer_assist_audit_actor", default=None)


@contextmanager
def acting_as(actor: Actor) -> Iterator[Actor]:
    """Attribute the changes made inside the block to ``actor`` (CLI commands, scripts, tests)."""
    token = current_actor.set(actor)
    try:
        yield actor
    finally:
        current_actor.reset(token)


def canonical(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 as is: the same content always has the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def format_time(moment: datetime) -> str:
    """UTC with microseconds and a ``Z``: round-trips through SQLite and PostgreSQL alike."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return format_time(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)


# --- the chain ------------------------------------------------------------------------------

def content_of(row: Mapping[str, Any]) -> str:
    """The canonical content an entry's hash covers: every column but ``hash`` (``chain`` only
    from version 2 on, so version 1 entries keep their bytes)."""
    content = {
        "seq": row["seq"], "at": plain(row["at"]), "actor_id": row["actor_id"],
        "actor": row["actor"], "role": row["role"], "table_id": row["table_id"],
        "action": row["action"], "entity": row["entity"], "entity_id": row["entity_id"],
        "payload": row["payload"], "prev_hash": row["prev_hash"]}
    if row.get("chain", UNKEYED) != UNKEYED:
        content["chain"] = row["chain"]
    return canonical(content)


def entry_hash(prev_hash: str, content: str, key: bytes | None = None) -> str:
    """Chain 1: SHA-256. Chain 2 (``key`` given): HMAC-SHA-256, so an entry cannot be forged
    (nor the chain rewritten) by someone who can write the database but not read the key."""
    data = (prev_hash + content).encode("utf-8")
    if key is None:
        return hashlib.sha256(data).hexdigest()
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def derive_key(secret: str | bytes) -> bytes:
    """The chain key from the instance secret (``SECRET_KEY``, kept in ``instance/``, never in
    the database), separated from its other uses by a label."""
    raw = secret.encode("utf-8") if isinstance(secret, str) else secret
    return hmac.new(raw, b"dealer_assist audit chain v2", hashlib.sha256).digest()


def sign_head(key: bytes, seq: int, digest: str) -> str:
    """The signature printed with a head (``audit head``, the shift report): proves the head
    was published by this installation."""
    return hmac.new(key, f"head|{seq}|{digest}".encode(), hashlib.sha256).hexdigest()


def key_of(session_or_conn: Any) -> bytes | None:
    """The chain key installed on the engine behind a session or connection (None: unkeyed)."""
    conn = _conn(session_or_conn)
    return getattr(conn.engine.dialect, KEY_ATTRIBUTE, None)


def _conn(session_or_conn: Any) -> Connection:
    if isinstance(session_or_conn, Connection):
        return session_or_conn
    conn: Connection = session_or_conn.connection()
    return conn


@dataclass(frozen=True, slots=True)
class ChainHead:
    """The newest entry: its sequence number and hash (``0`` and :data:`GENESIS` when empty)."""

    seq: int
    hash: str
    at: datetime | None = None

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


_TABLE = AuditEntry.__table__  # type: ignore[attr-defined]


#: the statements of an append, built once (every step appends an entry)
_HEAD = select(_TABLE.c.seq, _TABLE.c.hash, _TABLE.c.at).order_by(_TABLE.c.seq.desc()).limit(1)
_INSERT = insert(_TABLE)
_ADVISORY_LOCK = text("SELECT pg_advisory_xact_lock(:k)")


def _head(conn: Connection) -> ChainHead:
    row = conn.execute(_HEAD).first()
    return ChainHead(row.seq, row.hash, row.at) if row else ChainHead(0, GENESIS)


def chain_head(session: Any) -> ChainHead:
    """The current head of the chain, for the shift report and the admin page."""
    return _head(session.connection())


@dataclass(frozen=True, slots=True)
class Change:
    """One entry to append (the chain fields are added by :func:`append`)."""

    action: str
    entity: str
    entity_id: str | None
    payload: Mapping[str, Any]
    table_id: int | None = None
    actor: Actor | None = None


def append(conn: Connection, changes: list[Change], *, default_actor: Actor) -> ChainHead:
    """Append entries after the current head, on ``conn`` (inside the caller's transaction)."""
    if conn.dialect.name == "postgresql":
        conn.execute(_ADVISORY_LOCK, {"k": ADVISORY_LOCK_KEY})
    head = _head(conn)
    seq, prev = head.seq, head.hash
    key = key_of(conn)
    chain = UNKEYED if key is None else KEYED
    rows = []
    for change in changes:
        actor = change.actor or default_actor
        seq += 1
        row = {"seq": seq, "at": utcnow(), "actor_id": actor.id, "actor": actor.name[:64],
               "role": actor.role[:20], "table_id": change.table_id,
               "action": change.action[:40], "entity": change.entity[:40],
               "entity_id": change.entity_id, "payload": canonical(change.payload),
               "prev_hash": prev, "chain": chain}
        row["hash"] = prev = entry_hash(prev, content_of(row), key)
        rows.append(row)
    if rows:  # one row is one INSERT (a list would take the executemany path)
        conn.execute(_INSERT, rows[0] if len(rows) == 1 else rows)
    return ChainHead(seq, prev)


# --- verification ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Problem:
    """Where the chain breaks: ``seq`` is the bad entry (changed, forged, or missing)."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return f"entry {self.seq}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Verification:
    checked: int
    head: ChainHead
    problem: Problem | None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify(session_or_conn: Any, *, anchor: ChainHead | None = None,
           batch: int = 2000, key: bytes | None = None) -> Verification:
    """Recompute the whole chain; the first entry that was changed, deleted, inserted or moved.

    ``anchor`` is a head published earlier (printed on a shift report): the chain must still
    reach it with the same hash, which is what exposes a truncated tail. ``key`` checks the
    keyed (chain 2) entries; by default the key installed on the engine.
    """
    conn = _conn(session_or_conn)
    key = key if key is not None else key_of(conn)
    expected, prev, checked = 1, GENESIS, 0
    last_seq, keyed = None, False
    query = select(_TABLE).order_by(_TABLE.c.seq)
    for row in conn.execute(query.execution_options(yield_per=batch)).mappings():
        problem = _check(row, expected, prev, key, keyed)
        keyed = keyed or row["chain"] != UNKEYED
        if problem is not None:
            return Verification(checked, ChainHead(expected - 1, prev), problem)
        if anchor is not None and row["seq"] == anchor.seq and row["hash"] != anchor.hash:
            return Verification(checked, ChainHead(expected - 1, prev), Problem(
                row["seq"], "differs from the published head (the chain was rewritten)"))
        prev, last_seq, expected, checked = row["hash"], row["seq"], expected + 1, checked + 1
    head = ChainHead(last_seq or 0, prev)
    if anchor is not None and head.seq < anchor.seq:
        return Verification(checked, head, Problem(
            head.seq + 1, f"is missing: the chain ends at {head.seq} but a published head "
                          f"names entry {anchor.seq}"))
    return Verification(checked, head, None)


def _check(row: Mapping[Any, Any], expected: int, prev: str, key: bytes | None,
           keyed: bool) -> Problem | None:
    seq = row["seq"]
    if seq < expected:
        return Problem(seq, f"is out of sequence (expected entry {expected} here)")
    if seq > expected:
        missing = f"{expected}" if seq == expected + 1 else f"{expected}..{seq - 1}"
        return Problem(expected, f"is missing (entries {missing} absent before entry {seq})")
    if row["prev_hash"] != prev:
        return Problem(seq, "does not chain from the entry before it (prev_hash differs)")
    chain = row["chain"]
    if chain == UNKEYED and keyed:
        return Problem(seq, "is unkeyed after keyed entries (forged without the instance key)")
    if chain not in (UNKEYED, KEYED):
        return Problem(seq, f"has an unknown chain version {chain}")
    if chain == KEYED and key is None:
        return Problem(seq, "is keyed but no instance key was given to check it")
    if entry_hash(prev, content_of(row), key if chain == KEYED else None) != row["hash"]:
        return Problem(seq, "was changed (its content no longer matches its hash)")
    return None

