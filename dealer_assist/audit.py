"""The tamper-evident audit log: every state change, hash-chained, captured without the services
knowing about it.

How changes are captured: :func:`install` registers SQLAlchemy session events for one engine.
``after_flush`` walks the flushed rows of every mapped table (users, login sessions, login
throttling, tables, shifts, rounds, round events, settlements, inventory, disputes...) and
appends one :class:`AuditEntry` per inserted, changed or deleted row, on the same connection
and in the same transaction, so an entry exists exactly when its change was committed (a rolled
back savepoint takes its entries with it). ``do_orm_execute`` does the same for ORM bulk
``update()``/``delete()`` statements (logout and revocation are bulk updates in
``services/auth.py``). Updates that only touch :data:`NOISE_COLUMNS` (``last_seen_at``) are not
state changes worth a line. A refused login that changes no row (throttled, disabled account) is
recorded by an ``after_request`` hook on the login view.

Who did it: :data:`current_actor`, a ``ContextVar`` set by a ``before_request`` hook from the
signed-in user (``web/security.py`` puts it on ``g.user``) and by :func:`acting_as` (CLI
commands, scripts, tests). Without one, a request is ``anonymous`` and anything else is
``system``. A login is attributed to the account that logged in.

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

from flask import Flask, g, has_request_context, request
from sqlalchemy import Connection, Engine, event, insert, inspect, select, text
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import UOWTransaction

from .models import Round, Shift, User, utcnow
from .models.audit import AuditEntry

GENESIS = hashlib.sha256(b"dealer_assist audit log genesis").hexdigest()
#: serialises appends on PostgreSQL ("audt")
ADVISORY_LOCK_KEY = 0x61756474
SECRET_COLUMNS = frozenset({"password_hash", "token_hash"})
NOISE_COLUMNS = frozenset({"last_seen_at"})
JSON_COLUMNS = frozenset({("round_event", "payload"), ("round_settlement", "settlement")})
#: short entity names for the action ("round.created"); others use the table name
SHORT = {"user_account": "user", "game_table": "table", "game_round": "round"}
_SKIP = frozenset({AuditEntry.__tablename__})
_INSTALLED = "dealer_assist_audit"
_KEY = "dealer_assist_audit_key"
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


def _plain(value: Any) -> Any:
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
        "seq": row["seq"], "at": _plain(row["at"]), "actor_id": row["actor_id"],
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
    return getattr(conn.engine.pool, _KEY, None)


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


def _head(conn: Connection) -> ChainHead:
    row = conn.execute(select(_TABLE.c.seq, _TABLE.c.hash, _TABLE.c.at)
                       .order_by(_TABLE.c.seq.desc()).limit(1)).first()
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
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_LOCK_KEY})
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
    if rows:
        conn.execute(insert(_TABLE), rows)
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


# --- capturing changes ----------------------------------------------------------------------

def _actor_now() -> Actor:
    actor = current_actor.get()
    if actor is not None:
        return actor
    if has_request_context():
        user = g.get("user")
        return Actor(user.id, user.username, user.role) if user else Actor.anonymous()
    return Actor.system()


def _user_actor(conn: Connection, user_id: int | None) -> Actor | None:
    if user_id is None:
        return None
    users = User.__table__  # type: ignore[attr-defined]
    row = conn.execute(select(users.c.username, users.c.role)
                       .where(users.c.id == user_id)).first()
    return Actor(user_id, row.username, row.role) if row else None


class _Tables:
    """The table a row belongs to (a round's or a shift's table looked up once per flush)."""

    def __init__(self, conn: Connection) -> None:
        self.conn, self.cache = conn, {}  # type: ignore[var-annotated]

    def _lookup(self, model: Any, key: int | None) -> int | None:
        if key is None:
            return None
        if (model, key) not in self.cache:
            t = model.__table__
            self.cache[(model, key)] = self.conn.execute(
                select(t.c.table_id).where(t.c.id == key)).scalar()
        return self.cache[(model, key)]  # type: ignore[no-any-return]

    def of(self, tablename: str, values: Mapping[str, Any]) -> int | None:
        if tablename == "game_table":
            return values.get("id")
        if values.get("table_id") is not None:
            return values["table_id"]  # type: ignore[no-any-return]
        if values.get("round_id") is not None:
            return self._lookup(Round, values["round_id"])
        if values.get("shift_id") is not None:
            return self._lookup(Shift, values["shift_id"])
        return None


def _shown(tablename: str, column: str, value: Any) -> Any:
    if column in SECRET_COLUMNS:
        return None
    if (tablename, column) in JSON_COLUMNS and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return _plain(value)


def _row_values(obj: Any) -> dict[str, Any]:
    state = inspect(obj)
    return {attr.key: state.dict.get(attr.key) for attr in state.mapper.column_attrs}


def _snapshot(tablename: str, values: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: _shown(tablename, k, v) for k, v in values.items() if k not in SECRET_COLUMNS}
    if "password_hash" in values:
        out["password"] = "set"
    return out


def _changes(tablename: str, diff: Mapping[str, tuple[Any, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for column, (old, new) in diff.items():
        if column == "password_hash":
            out["password"] = "changed"
        elif column not in SECRET_COLUMNS:
            out[column] = {"from": _shown(tablename, column, old),
                           "to": _shown(tablename, column, new)}
    return out


def _action(tablename: str, op: str, values: Mapping[str, Any],
            diff: Mapping[str, Any] | None = None) -> str:
    """A readable verb for the common cases; ``<entity>.<created|updated|deleted>`` otherwise."""
    if tablename == "auth_session":
        if op == "created":
            return "login"
        if diff and "revoked_at" in diff:
            return "logout"
    if tablename == "login_throttle":
        return "login.throttle_cleared" if op == "deleted" else "login.failed"
    if tablename == "shift":
        if op == "created":
            return "shift.opened"
        if diff and diff.get("status", (None, None))[1] == "closed":
            return "shift.closed"
    if tablename == "game_round" and diff and "status" in diff:
        return f"round.{diff['status'][1]}"
    if tablename == "round_event" and op == "created":
        return f"round_event.{values.get('type')}"[:40]
    if tablename == "user_account" and diff and set(diff) == {"password_hash"}:
        return "user.password_rehashed"
    if tablename == "user_account" and diff and set(diff) <= {"password_hash",
                                                             "must_change_password",
                                                             "password_changed_at"}:
        return "user.password_changed"
    return f"{SHORT.get(tablename, tablename)}.{op}"


def _entity_id(values: Mapping[str, Any]) -> str | None:
    key = values.get("id")
    return None if key is None else str(key)


def _flushed_changes(session: OrmSession, conn: Connection) -> list[Change]:
    tables = _Tables(conn)
    out: list[Change] = []
    for obj in list(session.new):
        tablename = getattr(obj, "__tablename__", None)
        if tablename is None or tablename in _SKIP:
            continue
        values = _row_values(obj)
        actor = None
        if tablename == "auth_session":
            actor = _user_actor(conn, values.get("user_id"))
        out.append(Change(_action(tablename, "created", values), tablename, _entity_id(values),
                          _snapshot(tablename, values), tables.of(tablename, values), actor))
    for obj in list(session.dirty):
        tablename = getattr(obj, "__tablename__", None)
        if tablename is None or tablename in _SKIP or obj in session.deleted:
            continue
        diff = _diff(obj)
        if not diff or set(diff) <= NOISE_COLUMNS:
            continue
        values = _row_values(obj)
        payload = {"id": values.get("id"), "changes": _changes(tablename, diff)}
        out.append(Change(_action(tablename, "updated", values, diff), tablename,
                          _entity_id(values), payload, tables.of(tablename, values)))
    for obj in list(session.deleted):
        tablename = getattr(obj, "__tablename__", None)
        if tablename is None or tablename in _SKIP:
            continue
        values = _row_values(obj)
        out.append(Change(_action(tablename, "deleted", values), tablename, _entity_id(values),
                          _snapshot(tablename, values), tables.of(tablename, values)))
    return out


def _diff(obj: Any) -> dict[str, tuple[Any, Any]]:
    state = inspect(obj)
    out: dict[str, tuple[Any, Any]] = {}
    for attr in state.mapper.column_attrs:
        hist = state.attrs[attr.key].history
        if hist.added and (not hist.deleted or hist.added[0] != hist.deleted[0]):
            out[attr.key] = (hist.deleted[0] if hist.deleted else None, hist.added[0])
    return out


def _after_flush(session: OrmSession, _ctx: UOWTransaction) -> None:
    if not _audited(session):
        return
    conn = session.connection()
    changes = _flushed_changes(session, conn)
    if changes:
        append(conn, changes, default_actor=_actor_now())
        _note_action(changes)


def _bulk(state: Any) -> Any:
    """ORM bulk UPDATE/DELETE (``session.exec(update(AuthSession)...)``): one entry per row."""
    if not (state.is_update or state.is_delete) or not _audited(state.session):
        return None
    desc = state.statement.entity_description
    table = desc.get("table")
    if table is None or table.name in _SKIP or "id" not in table.c:
        return None
    values = {getattr(k, "key", getattr(k, "name", str(k))): v
              for k, v in (getattr(state.statement, "_values", None) or {}).items()}
    if state.is_update and set(values) <= NOISE_COLUMNS:
        return None
    conn = state.session.connection()
    where = state.statement.whereclause
    query = select(table) if where is None else select(table).where(where)
    before = [dict(r._mapping) for r in conn.execute(query)]
    result = state.invoke_statement()
    if before:
        tables = _Tables(conn)
        changes = []
        for row in before:
            op = "updated" if state.is_update else "deleted"
            new = {k: _literal(v) for k, v in values.items()}
            diff = {k: (row.get(k), new[k]) for k in new if row.get(k) != new[k]}
            if state.is_update and not diff:
                continue
            payload = ({"id": row["id"], "changes": _changes(table.name, diff)}
                       if state.is_update else _snapshot(table.name, row))
            actor = _user_actor(conn, row.get("user_id")) if table.name == "auth_session" \
                and _actor_now().id is None else None
            changes.append(Change(_action(table.name, op, row, diff), table.name,
                                  _entity_id(row), payload, tables.of(table.name, row), actor))
        if changes:
            append(conn, changes, default_actor=_actor_now())
            _note_action(changes)
    return result


def _literal(value: Any) -> Any:
    return getattr(value, "value", value)  # a bound parameter from .values(x=...)


def _audited(session: OrmSession) -> bool:
    try:
        bind = session.get_bind()
    except Exception:  # an unbound session is none of ours
        return False
    engine = getattr(bind, "engine", bind)
    return bool(getattr(getattr(engine, "pool", None), _INSTALLED, False))


def install(engine: Engine, key: bytes | None = None) -> Engine:
    """Audit every session bound to ``engine`` (and to its ``execution_options`` copies);
    with ``key``, new entries are HMAC-keyed (chain 2)."""
    setattr(engine.pool, _INSTALLED, True)
    setattr(engine.pool, _KEY, key)
    if not event.contains(OrmSession, "after_flush", _after_flush):
        event.listen(OrmSession, "after_flush", _after_flush)
        event.listen(OrmSession, "do_orm_execute", _bulk)
    return engine


# --- Flask wiring ---------------------------------------------------------------------------

LOGIN_ENDPOINT = "auth.login"


def _note_action(changes: list[Change]) -> None:
    if has_request_context():
        g.setdefault("audit_actions", set()).update(c.action for c in changes)


def _before_request() -> None:
    user = g.get("user")
    current_actor.set(Actor(user.id, user.username, user.role) if user else None)


def _after_request(response: Any) -> Any:
    """A refused login that changed no row (throttled, disabled account) still gets a line.

    Only a login the view actually ran (``g.login_username``): a request refused before it
    (no CSRF token, a body too large) is not logged, so forged posts cannot flood the log. The
    entry goes through the request's own session: a second writer here would wait for the
    request's write transaction (SQLite) until the busy timeout and answer 500."""
    username = g.get("login_username")
    if request.endpoint == LOGIN_ENDPOINT and username is not None \
            and response.status_code >= 400 and "login.failed" not in g.get("audit_actions", ()):
        from . import db

        dbs = db.get_session()
        dbs.rollback()  # whatever the view left uncommitted is discarded anyway
        append(dbs.connection(), [Change(
            "login.refused", "login_throttle", None,
            {"username": username.strip().lower()[:64],
             "ip": (request.remote_addr or "unknown")[:64],
             "status": response.status_code})], default_actor=Actor.anonymous())
        dbs.commit()
    return response


def _teardown(_exc: BaseException | None) -> None:
    current_actor.set(None)


def app_key(app: Flask) -> bytes:
    """``AUDIT_KEY`` if configured, else derived from ``SECRET_KEY`` (``instance/secret_key``)."""
    return derive_key(app.config.get("AUDIT_KEY") or app.config["SECRET_KEY"])


def init_app(app: Flask) -> None:
    """Audit the app's engine; attribute request changes to the signed-in user. Register after
    ``web.security`` so ``g.user`` is known when the hook runs."""
    from . import db

    install(db.get_engine(app), app_key(app))
    app.before_request(_before_request)
    app.after_request(_after_request)
    app.teardown_request(_teardown)
