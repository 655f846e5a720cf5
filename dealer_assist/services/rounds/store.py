"""Event streams in the one event table: the storage primitives the record path builds on.

A stream is a round (a house round or a poker hand: ``round_id``) or a parlour evening
(``game_id``); its events are ``round_event`` rows, only ever inserted, numbered within it.
:func:`events` reads a stream; :func:`insert_event` is the append of the record path's
compare-and-append (``record.py``: every game's start and steps go through it, and it is the
only writer of events). Events are never updated or deleted; a correction is a new event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam
from sqlalchemy import insert as core_insert
from sqlalchemy import select as core_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from ...audit import capture
from ...models import Round, RoundEvent, utcnow
from ...rules.games.registry import get_game, round_rules
from ..errors import Conflict, ValidationError
from ..tables import tables
from .txn import Stale

KEY_MAX = 64


@dataclass(frozen=True, slots=True)
class RoundView:
    id: int
    table_id: int
    shift_id: int
    number: int
    status: str
    opened_at: datetime
    #: the dealer of record (None only for a round stored without one)
    dealer_id: int | None = None


@dataclass(frozen=True, slots=True)
class EventView:
    """One stored event; ``round_id`` (a round or a poker hand) or ``game_id`` (a parlour
    evening) names its stream."""

    id: int
    round_id: int | None
    seq: int
    type: str
    payload: dict[str, Any]
    actor_id: int
    created_at: datetime
    idempotency_key: str
    game_id: int | None = None
    #: the payload as stored (canonical JSON: :func:`encode_payload`), for the replay memo's key
    payload_text: str | None = field(default=None, compare=False, repr=False)
    #: when the croupier tapped it (the tablet's clock; ``created_at``: received)
    tapped_at: datetime | None = None
    #: it waited in the tablet's offline queue
    offline: bool = False


def encode_payload(payload: Mapping[str, Any]) -> str:
    """Canonical JSON (sorted keys, no spaces): the same event always has the same bytes."""
    try:
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                          allow_nan=False)
    except (TypeError, ValueError) as err:
        raise ValidationError("The event payload is not plain JSON: %(err)s", err=err) from None


_EVENT = RoundEvent.__table__  # type: ignore[attr-defined]
#: a stream's events in order, one statement built once per stream column (Core, no
#: ORM objects: the hot path reads rows, not entities)
_EVENTS = {column: core_select(_EVENT).where(_EVENT.c[column] == bindparam("sid"))
           .order_by(_EVENT.c.seq) for column in ("round_id", "game_id")}


def events(session: Session, round_id: int | None = None, *,
           game_id: int | None = None) -> list[EventView]:
    """A stream's events in order: a round's (``round_id``) or a parlour evening's."""
    column, sid = ("game_id", game_id) if round_id is None else ("round_id", round_id)
    rows = session.connection().execute(_EVENTS[column], {"sid": sid})
    return [EventView(r.id, r.round_id, r.seq, r.type, json.loads(r.payload), r.actor_id,
                      r.created_at, r.idempotency_key, r.game_id, r.payload, r.tapped_at,
                      bool(r.offline)) for r in rows]


#: a stream's last sequence number (the compare of compare-and-append)
_LAST_SEQ = {column: core_select(func.max(_EVENT.c.seq)).where(_EVENT.c[column]
                                                                 == bindparam("sid"))
             for column in ("round_id", "game_id")}


def last_seq(session: Session, column: str, stream_id: int) -> int:
    """The stream's last sequence number as the database has it now (0: no event yet)."""
    found = session.connection().execute(_LAST_SEQ[column], {"sid": stream_id}).scalar()
    return int(found or 0)


_INSERT_EVENT = core_insert(_EVENT)


def insert_event(session: Session, column: str, stream_id: int, seq: int, type: str,
                 payload: Mapping[str, Any], actor_id: int, key: str, *,
                 table_id: int | None = None, tapped_at: datetime | None = None,
                 offline: bool = False) -> EventView:
    """Append one event to a stream (``column``: ``round_id`` or ``game_id``) with the sequence
    number the caller folded to; a unique violation means a twin took the sequence number or
    the key first (:class:`~.txn.Stale`: the record path reads again).

    One Core INSERT and its audit entry (``table_id``: the round's table, which the entry
    names), in the caller's transaction: what the ORM's flush and the audit hook did in five
    statements. ``tapped_at``/``offline``: when the croupier tapped it and whether
    it waited in the tablet's offline queue."""
    body = encode_payload(payload)
    values: dict[str, Any] = {"round_id": None, "game_id": None, "seq": seq, "type": type,
                              "payload": body, "actor_id": actor_id, "created_at": utcnow(),
                              "idempotency_key": key, "tapped_at": tapped_at,
                              "offline": offline, column: stream_id}
    conn = session.connection()
    try:  # no savepoint: a failed attempt is rolled back whole (``txn.run``)
        found = conn.execute(_INSERT_EVENT, values)
    except IntegrityError:
        raise Stale from None
    values["id"] = new_id(found)
    if table_id is None and column == "round_id":
        table_id = conn.execute(_TABLE_OF_ROUND, {"rid": stream_id}).scalar()
    capture.append_rows(session, [capture.created(_EVENT.name, values, table_id)])
    return EventView(values["id"], values["round_id"], seq, type, json.loads(body), actor_id,
                     values["created_at"], key, values["game_id"], body, tapped_at, offline)


def new_id(result: Any) -> int:
    """The primary key a Core INSERT just assigned."""
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


_ROUND = Round.__table__  # type: ignore[attr-defined]
_TABLE_OF_ROUND = core_select(_ROUND.c.table_id).where(_ROUND.c.id == bindparam("rid"))


def table_rules(table: tables.TableView) -> dict[str, Any]:
    """The rules a round starting now at ``table`` stores as its own: game, the full profile as
    data with its hash, the limits in force (``rules.games.registry.round_rules``). A poker table
    deals its hands through ``services.rounds.poker_hands``, never as a house round."""
    if get_game(table.game).poker_room:
        raise Conflict("%(name)s is a poker table: deal its hands on the poker screen or "
                       "through /api/v1/poker/tables/{id}/hands.",
                       name=table.name)
    return round_rules(table.game, table.profile, table.min_ante, table.max_ante,
                       table.max_payout)


def rules_of(session: Session, row: Round) -> dict[str, Any]:
    """A round's own rules, stored at its start (migration 0004 wrote them for older rounds).
    Only a round row stored without rules (before revision 0004) is read with its table's."""
    return rules_from(row.rules, lambda: tables.get_table(session, row.table_id))


def rules_from(stored: str | None, table: Callable[[], tables.TableView]) -> dict[str, Any]:
    """:func:`rules_of` from the stored text (``table``: the round's table, asked only when
    the round stored none)."""
    if stored:
        found: dict[str, Any] = json.loads(stored)
        return found
    return table_rules(table())


def round_ends(session: Session, round_ids: list[int]) -> dict[int, datetime]:
    """Each round's last event (a house round's ``paid``, a poker hand's last action): when it
    ended (a player's time played runs to his last round's end)."""
    out: dict[int, datetime] = {}
    for start in range(0, len(round_ids), 500):
        query = (select(RoundEvent.round_id, RoundEvent.created_at)
                 .where(col(RoundEvent.round_id).in_(round_ids[start:start + 500])))
        for rid, at in session.exec(query).all():
            if rid is not None and (rid not in out or at > out[rid]):
                out[rid] = at
    return out
