"""The one record path: every step of every game is recorded the same way.

A stream is a house round, a poker hand or a parlour evening (:class:`Stream`: what differs --
where its events hang, who may record, how its row is locked, what a finished stream stores).
Recording a step is one :func:`.txn.run` unit of work on the caller's session, committed there:

* read (no write lock): the stream and its events, folded once by the engine (the replay memo,
  :mod:`.memo`); a write that committed between the stream's row and its events (the read is
  not one snapshot) makes the unit read again (:attr:`Loaded.torn`); the idempotency key
  looked up among the events just read: a key already used answers the stream as it is (HTTP
  200) when it recorded the same step, and is a :class:`~..errors.Conflict` (409) when it
  recorded another one;
* then the checks of the stream's state (staff of its shift, still open, no void pending,
  ``expected_seq`` equal to its last event: else 409) and the engine's: the payload is decoded
  once into step records, the engine verifies and applies them (a ``RulesError``: 400/422,
  nothing stored); what is stored is the records' encoding; an ``undo`` names the last effective
  step (it may be left out: the last one is meant), and ``paid`` settles a house round;
* write (the lock): the stream's row is locked and the write is a compare-and-append: the
  stream's last sequence number, status and pending void must still be those folded, else
  :class:`~.txn.Stale` and the unit runs again from the read (bounded; then 503). The event is
  appended; a stream that is complete stores its settlement. The answer is built from the fold
  and the step just applied: nothing is replayed again. Each event's audit entry is written
  with it (``store.insert_event``), in the same transaction.

A start (:func:`start`: a house round with its bets, a poker hand, a parlour evening) is the
first step of its stream and takes the same path: its key is looked up first (a resend answers
the stream it started, 200; another start under it is a 409), the engine plays the start's own
event on the empty stream, and under the lock the opener (:class:`~.streams.Opener`) compares
what it read (no stream open there, the key unused) before it inserts the stream's row; the
events are then appended as any step's. The types are in :mod:`.streams`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlmodel import Session

from ...rules import stream as stream_rules
from ...rules.engine import PAID, UNDO, VOID, Folded
from ...rules.errors import IllegalActionError, RulesError
from ...rules.fields import RequestError
from ...rules.phrase import Phrase
from ..errors import Conflict, ValidationError
from . import memo, store, txn
from .streams import Before, Loaded, Opener, Recorded, Stream


def start(session: Session, opener: Opener, scope_id: int | None, *, actor_id: int,
          payload: Mapping[str, Any] | None, idempotency_key: str,
          follow: bool = False, tapped_at: datetime | None = None,
          offline: bool = False) -> Recorded:
    """Start a stream, or answer the stream this key already started: the start is a step of
    the stream, one :func:`.txn.run` unit as every step (the key, the engine on the empty
    stream, a compare under the lock, the append with its audit entries); ``follow``: the
    steps the engine then records by itself too; ``tapped_at``/``offline``: as a step's."""
    key = check_key(idempotency_key)
    body = dict(payload or {})
    return txn.run(session, lambda: _start_once(session, opener, scope_id, actor_id, body, key,
                                                follow, (tapped_at, offline)),
                   actor_id=actor_id)


def _start_once(session: Session, opener: Opener, scope_id: int | None, actor_id: int,
                payload: dict[str, Any], key: str, follow: bool,
                tap: tuple[datetime | None, bool]) -> Recorded:
    txn.begin_read(session)
    stream, step = opener.stream, opener.step
    opening = opener.read(session, scope_id, actor_id, key)
    if opening.started is not None:  # a resend: answered with the stream as it is, or a 409
        loaded = stream.load(session, opening.started, actor_id)
        first = loaded.events[0] if loaded.events else None
        if step is None:
            if not opener.same(session, loaded, payload):
                raise Conflict(stream.wording.reused)
        elif first is None or first.idempotency_key != key:
            raise Conflict(stream.wording.reused)  # the key recorded a later step
        else:
            _check_resend(stream, loaded, first, step, payload)
        return Recorded(loaded, False)
    empty = opener.check(session, opening, actor_id, payload)
    appended: list[tuple[str, dict[str, Any]]] = []
    folded = empty.folded if empty is not None else None
    if step is not None and empty is not None:
        played = _play(stream, empty, step, payload)
        if played is None:
            raise IllegalActionError("the start changes nothing: nothing is recorded",
                                     field="type", value=step)
        folded = played.folded
        appended.append((step, played.stored))
        if follow:
            more, folded = stream_rules.follow_ups(empty.engine, folded)
            appended += more
    txn.begin_write(session)
    locked = opener.lock(session, opening, key)
    if locked is None:
        raise txn.Stale  # a twin got there first: read again, answer as a resend or refuse
    new = opener.insert(session, opening, locked, empty, actor_id, key)
    return _append(session, stream, new, appended, folded or new.folded, None, actor_id, key,
                   tap)




def check_key(key: str) -> str:
    key = (key or "").strip()
    if not key or len(key) > store.KEY_MAX:
        raise ValidationError("An idempotency key is 1 to %(KEY_MAX)s characters.",
                              KEY_MAX=store.KEY_MAX, field="idempotency_key")
    return key


def record(session: Session, stream: Stream, stream_id: int, *, actor_id: int, type: str,
           payload: Mapping[str, Any] | None, idempotency_key: str,
           expected_seq: int | None = None,
           before: Before | None = None, follow: bool = False,
           tapped_at: datetime | None = None, offline: bool = False) -> Recorded:
    """Record one step of a stream (``undo`` and ``paid`` included) or answer the resend.

    ``before``: the stream's own step that is no event (a house round's redeal asks a pit
    boss for a void), run once the stream's state is checked: its answer (a
    :class:`Recorded`) ends the request; a write it returns instead runs under the record
    path's compare (:func:`compare`), as an append would.
    ``follow``: also record the steps the engine then records by itself (``Step.auto``: the
    table screen's one tap), in the same write. ``tapped_at``/``offline``: when the croupier
    tapped it (the tablet's clock) and whether it waited in the tablet's offline queue, stored
    on every event the request appends (a follow-up's tap is the request's)."""
    key = check_key(idempotency_key)
    body = dict(payload or {})
    return txn.run(session, lambda: _once(session, stream, stream_id, actor_id, type, body, key,
                                          expected_seq, before, follow, (tapped_at, offline)),
                  actor_id=actor_id)


def _once(session: Session, stream: Stream, stream_id: int, actor_id: int, type: str,
          payload: dict[str, Any], key: str, expected_seq: int | None,
          before: Before | None, follow: bool,
          tap: tuple[datetime | None, bool]) -> Recorded:
    txn.begin_read(session)
    loaded = stream.load(session, stream_id, actor_id)
    if loaded.torn:
        raise txn.Stale  # read again: a resend must be answered with the stream as it is
    stream.check_actor(session, actor_id, replace(loaded, shift_id=None))  # the role only
    # looked for among the events just folded (one read: a twin's event is in both or neither)
    existing = next((e for e in loaded.events if e.idempotency_key == key), None)
    if existing is not None:
        _check_resend(stream, loaded, existing, type, payload)
        return Recorded(loaded, False)
    stream.check_actor(session, actor_id, loaded)  # a resend is answered whatever happened since
    check_open(stream, loaded, expected_seq, before is None)
    if before is not None:
        answered = before(loaded)
        if isinstance(answered, Recorded):
            return answered
        if answered is not None:  # the stream's own write, under the same compare
            compare(session, stream, loaded)
            return answered()
    played = _play(stream, loaded, type, payload)
    if played is None:  # the round already holds what the step asks: nothing stored, 200
        return Recorded(loaded, False)
    folded, settlement = played.folded, played.settlement
    appended = [(type, played.stored)]
    if follow and type not in stream_rules.META:
        more, folded = stream_rules.follow_ups(loaded.engine, folded)
        appended += more
        if more and stream.settles_when_complete and loaded.engine.can_settle(folded.state):
            settlement = loaded.engine.settle(folded.state)
    compare(session, stream, loaded)
    return _append(session, stream, loaded, appended, folded, settlement, actor_id, key, tap)


def compare(session: Session, stream: Stream, loaded: Loaded) -> None:
    """The compare of compare-and-append: the write begins, the stream's row is locked and
    must still be as folded (else :class:`~.txn.Stale`: the unit reads again)."""
    txn.begin_write(session)
    locked = stream.lock(session, loaded)
    if (locked.status, locked.void_pending, locked.last_seq) != \
            (loaded.status, loaded.void_pending, loaded.last_seq):
        raise txn.Stale  # the stream moved since it was read


def _append(session: Session, stream: Stream, loaded: Loaded,
            appended: list[tuple[str, dict[str, Any]]], folded: Folded[Any], settlement: Any,
            actor_id: int, key: str,
            tap: tuple[datetime | None, bool] = (None, False)) -> Recorded:
    """The append of compare-and-append (under the lock): the events, each with its audit
    entry, the fold remembered, the settlement of a stream they complete."""
    table_id = loaded.facts.table_id if loaded.facts else None
    events = [*loaded.events]
    for n, (kind, body) in enumerate(appended):
        events.append(store.insert_event(session, stream.column, loaded.id,
                                         loaded.last_seq + 1 + n, kind, body, actor_id,
                                         follow_key(key, n), table_id=table_id,
                                         tapped_at=tap[0], offline=tap[1]))
    memo.remember(loaded.rules, events, folded, loaded.rules_text)
    after = replace(loaded, events=events, folded=folded, read_seq=None)
    if settlement is not None:
        closed = stream.store_settlement(session, loaded, events[-1].seq, settlement,
                                         folded.state)
        after = replace(after, status=closed.status, stored=closed.stored)
    return Recorded(after, True, loaded.folded.state)


def follow_key(key: str, n: int) -> str:
    """The idempotency key of the ``n``-th event a request appends (the first: its own)."""
    return stream_rules.follow_key(key, n, store.KEY_MAX)


def check_open(stream: Stream, loaded: Loaded, expected_seq: int | None,
               frozen: bool = True) -> None:
    """A step needs an open stream, no void waiting for a pit boss (``frozen``) and a screen
    that saw the stream's last event (``expected_seq``)."""
    w = stream.wording
    if not loaded.is_open:
        # the status said in the reader's language, as the tablet says it offline
        raise Conflict(w.closed, number=loaded.number, status=Phrase(loaded.status))
    if frozen and loaded.void_pending:
        raise Conflict(w.frozen, number=loaded.number)
    if expected_seq is not None and expected_seq != loaded.last_seq:
        raise Conflict(w.stale, number=loaded.number, last_seq=loaded.last_seq,
                       expected_seq=expected_seq)


def _play(stream: Stream, loaded: Loaded, type: str,
          payload: Mapping[str, Any]) -> stream_rules.Played | None:
    """The engine's work for a new step, on the fold just read (``rules.stream.play``: the one
    the tablet runs offline too); undoing needs a step to undo."""
    if type == UNDO and not loaded.effective:
        raise Conflict(stream.wording.nothing, number=loaded.number)
    return stream_rules.play(
        loaded.engine, loaded.folded, type, payload, loaded.last_seq,
        undone=lambda seq: memo.replay(loaded.engine, loaded.rules,
                                       [e for e in loaded.events if e.seq < seq],
                                       loaded.rules_text),
        settles_when_complete=stream.settles_when_complete)


def _check_resend(stream: Stream, loaded: Loaded, existing: store.EventView, type: str,
                  payload: Mapping[str, Any]) -> None:
    """The key was used: the same step again is answered as stored, another one is a 409.

    The resend is decoded against the stream as it was before the stored step (that is what the
    tablet saw), so the same step compares equal whatever came after it. An undo resent without
    naming its step is the same undo (its default named the step last at the time)."""
    reused = Conflict(stream.wording.reused)
    if existing.type != type:
        raise reused
    if type in (PAID, VOID):
        return
    if type == UNDO:
        field = loaded.engine.undo_field
        if field in payload and existing.payload.get(field) != payload[field]:
            raise reused
        return
    engine = loaded.engine
    earlier = memo.replay(engine, loaded.rules, [e for e in loaded.events if e.seq < existing.seq],
                          loaded.rules_text)
    try:
        again = engine.normalize(earlier.state, type, payload)
    except (RulesError, RequestError):
        raise reused from None
    if json.loads(store.encode_payload(again)) != existing.payload:
        raise reused
