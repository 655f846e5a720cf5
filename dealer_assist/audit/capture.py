"""Capturing every state change into the audit chain, without the services knowing about it.

How changes are captured: :func:`install` registers SQLAlchemy session events for one engine.
``after_flush`` walks the flushed rows of every mapped table (users, login sessions, login
throttling, tables, shifts, rounds, round events, settlements, inventory, disputes...) and appends
one :class:`AuditEntry` per inserted, changed or deleted row, on the same connection and in the same
transaction, so an entry exists exactly when its change was committed (a rolled back savepoint takes
its entries with it). ``do_orm_execute`` does the same for ORM bulk ``update()``/``delete()``
statements (logout and revocation are bulk updates in ``services/people/auth.py``). Updates that
only touch :data:`NOISE_COLUMNS` (``last_seen_at``) are not state changes worth a line. A refused
login that changes no row (throttled, disabled account) is recorded by an ``after_request`` hook on
the login view.

Who did it: the service says so. A service that acts for someone (``actor_id``) names them on
its session for the call (:func:`acting`); the record path's Core writes pass the session to
:func:`append_rows`, the flush hook reads the same ``session.info``. A service that names no
one is attributed to :data:`current_actor`, a ``ContextVar`` the edge sets per request from the
signed-in user (``audit/app.py``; ``anonymous`` when no one is signed in) and :func:`acting_as`
sets for CLI commands, scripts and tests; else ``system``. A login is attributed to the account
that logged in. This module imports no Flask: services reach it (``tests/test_layers.py``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import Connection, Engine, event, inspect, select
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import UOWTransaction

from ..models import Round, Shift, User
from ..models.audit import AuditEntry
from .chain import (
    JSON_COLUMNS,
    KEY_ATTRIBUTE,
    NOISE_COLUMNS,
    SEALED,
    SECRET_COLUMNS,
    SHORT,
    Actor,
    Change,
    append,
    current_actor,
    plain,
)

_SKIP = frozenset({AuditEntry.__tablename__})
_INSTALLED = "dealer_assist_audit"
#: ``session.info`` key: the id of the account the session's service call acts for
ACTOR_ID = "dealer_assist_actor_id"
#: ``session.info`` key: that account as the log names it, once looked up
_ACTOR = "dealer_assist_actor"
#: the actions this context wrote (``None``: nobody asked); the refused-login hook reads them
noted_actions: ContextVar[set[str] | None] = ContextVar("dealer_assist_audit_actions",
                                                        default=None)


@contextmanager
def acting(session: OrmSession, actor_id: int | None) -> Iterator[OrmSession]:
    """Attribute what ``session`` writes inside the block to the account ``actor_id`` (the
    service call's actor), whoever is signed in; ``None`` leaves the attribution as it was."""
    before = session.info.get(ACTOR_ID), session.info.get(_ACTOR)
    if actor_id is not None and actor_id != before[0]:
        session.info[ACTOR_ID] = actor_id
        session.info.pop(_ACTOR, None)
    try:
        yield session
    finally:
        session.info[ACTOR_ID], session.info[_ACTOR] = before


def _actor_now(session: OrmSession | None = None, conn: Connection | None = None) -> Actor:
    """The service call's actor (:func:`acting`), else the context's (:data:`current_actor`:
    the signed-in user, a CLI command's), else ``system``."""
    context = current_actor.get()
    actor_id = session.info.get(ACTOR_ID) if session is not None else None
    if actor_id is None:
        return context or Actor.system()
    if context is not None and context.id == actor_id:
        return context  # the signed-in user acts: already known, no read
    known: Actor | None = session.info.get(_ACTOR) if session is not None else None
    if known is None or known.id != actor_id:
        found = _user_actor(conn, actor_id) if conn is not None else None
        known = found or Actor(actor_id, f"user {actor_id}", "unknown")
        if session is not None:
            session.info[_ACTOR] = known
    return known


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


def shown(tablename: str, column: str, value: Any) -> Any:
    if column in SECRET_COLUMNS:
        return None
    if (tablename, column) in JSON_COLUMNS and isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return plain(value)


def _row_values(obj: Any) -> dict[str, Any]:
    state = inspect(obj)
    return {attr.key: state.dict.get(attr.key) for attr in state.mapper.column_attrs}


def seal(value: Any) -> str | None:
    """What the log keeps of a sealed secret column (:data:`SEALED`): the SHA-256 of
    the stored hash, never the hash. It tells which hash the log saw, so ``audit verify`` names
    a hash replaced behind its back; it helps nobody guess the PIN (the salt is not in it)."""
    return None if value is None else hashlib.sha256(str(value).encode("utf-8")).hexdigest()


def snapshot(tablename: str, values: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: shown(tablename, k, v) for k, v in values.items() if k not in SECRET_COLUMNS}
    if "password_hash" in values:
        out["password"] = "set"
    out.update({SEALED[k]: seal(v) for k, v in values.items() if k in SEALED})
    return out


def _changes(tablename: str, diff: Mapping[str, tuple[Any, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for column, (old, new) in diff.items():
        if column == "password_hash":
            out["password"] = "changed"
        elif column == "pin_hash":  # that the PIN changed, never the hash
            out["pin"] = "changed" if new else "cleared"
            out[SEALED[column]] = {"from": seal(old), "to": seal(new)}
        elif column not in SECRET_COLUMNS:
            out[column] = {"from": shown(tablename, column, old),
                           "to": shown(tablename, column, new)}
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
        what = "pin" if str(values.get("username", "")).startswith("pin:") else "login"
        return f"{what}.throttle_cleared" if op == "deleted" else f"{what}.failed"
    if tablename == "dealer_stint" and op == "created":  # who deals where
        return f"stint.{values.get('kind')}"[:40]
    if tablename == "act_signature" and op == "created":
        return f"signature.{values.get('act')}"[:40]
    if tablename == "table_device":
        return "device.revoked" if diff and "revoked_at" in diff else f"device.{op}"
    if tablename == "user_account" and diff and set(diff) <= {"pin_hash", "pin_set_at"}:
        return "user.pin_set"
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


def created(tablename: str, values: Mapping[str, Any], table_id: int | None,
            actor: Actor | None = None) -> Change:
    """The entry of an inserted row: a snapshot of every column (the flush hook's, and the
    record path's for the rows it inserts with a Core statement)."""
    return Change(_action(tablename, "created", values), tablename, _entity_id(values),
                  snapshot(tablename, values), table_id, actor)


def updated(tablename: str, values: Mapping[str, Any], diff: Mapping[str, tuple[Any, Any]],
            table_id: int | None) -> Change:
    """The entry of a changed row: its id and each changed column ``{"from", "to"}``."""
    payload = {"id": values.get("id"), "changes": _changes(tablename, diff)}
    return Change(_action(tablename, "updated", values, diff), tablename, _entity_id(values),
                  payload, table_id)


def append_rows(session: OrmSession, changes: list[Change]) -> None:
    """Append the entries of rows written by Core statements on ``session``'s connection (the
    record path's hot path), attributed as the flush hook attributes them; nothing when the
    engine is not audited."""
    conn = session.connection()
    if changes and _audited_engine(conn.engine):
        append(conn, changes, default_actor=_actor_now(session, conn))
        note_action(changes)


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
        out.append(created(tablename, values, tables.of(tablename, values), actor))
    for obj in list(session.dirty):
        tablename = getattr(obj, "__tablename__", None)
        if tablename is None or tablename in _SKIP or obj in session.deleted:
            continue
        diff = _diff(obj)
        if not diff or set(diff) <= NOISE_COLUMNS:
            continue
        values = _row_values(obj)
        out.append(updated(tablename, values, diff, tables.of(tablename, values)))
    for obj in list(session.deleted):
        tablename = getattr(obj, "__tablename__", None)
        if tablename is None or tablename in _SKIP:
            continue
        values = _row_values(obj)
        out.append(Change(_action(tablename, "deleted", values), tablename, _entity_id(values),
                          snapshot(tablename, values), tables.of(tablename, values)))
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
        append(conn, changes, default_actor=_actor_now(session, conn))
        note_action(changes)


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
                       if state.is_update else snapshot(table.name, row))
            actor = _user_actor(conn, row.get("user_id")) if table.name == "auth_session" \
                and _actor_now(state.session, conn).id is None else None
            changes.append(Change(_action(table.name, op, row, diff), table.name,
                                  _entity_id(row), payload, tables.of(table.name, row), actor))
        if changes:
            append(conn, changes, default_actor=_actor_now(state.session, conn))
            note_action(changes)
    return result


def _literal(value: Any) -> Any:
    return getattr(value, "value", value)  # a bound parameter from .values(x=...)


def _audited(session: OrmSession) -> bool:
    try:
        bind = session.get_bind()
    except Exception:  # an unbound session is none of ours
        return False
    return _audited_engine(getattr(bind, "engine", bind))


def _audited_engine(engine: Any) -> bool:
    return bool(getattr(getattr(engine, "dialect", None), _INSTALLED, False))


def install(engine: Engine, key: bytes | None = None) -> Engine:
    """Audit every session bound to ``engine`` (and to its ``execution_options`` copies);
    with ``key``, new entries are HMAC-keyed (chain 2)."""
    # on the dialect: one per engine, shared by its ``execution_options`` copies, and kept when
    # the pool is recreated (``engine.dispose()``, a gunicorn worker after the fork)
    setattr(engine.dialect, _INSTALLED, True)
    setattr(engine.dialect, KEY_ATTRIBUTE, key)
    if not event.contains(OrmSession, "after_flush", _after_flush):
        event.listen(OrmSession, "after_flush", _after_flush)
        event.listen(OrmSession, "do_orm_execute", _bulk)
    return engine


def note_action(changes: list[Change]) -> None:
    """What this context changed, for the refused-login hook (``app._after_request``), when it
    asked (:data:`noted_actions` set)."""
    actions = noted_actions.get()
    if actions is not None:
        actions.update(c.action for c in changes)
