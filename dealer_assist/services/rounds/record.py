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
  and the step just applied: nothing is replayed again. The audit entry is written by the
  session's audit hooks, in the same transaction as the event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from sqlmodel import Session

from ...rules.engine import PAID, UNDO, VOID, Folded, Game
from ...rules.errors import IllegalActionError, RulesError
from ...rules.fields import RequestError
from ..errors import Conflict, ValidationError
from ..people import duties
from . import memo, store, txn

OPEN = "open"


@dataclass(frozen=True, slots=True)
class Wording:
    """A stream's refusals, as its screen says them (``%(number)s``, ``%(status)s``...)."""

    closed: str
    stale: str
    frozen: str
    reused: str
    nothing: str


@dataclass(frozen=True, slots=True)
class Facts:
    """What a stream's one read found besides the stream, for the checks: the table (the audit
    entries name it), the role of ``actor_id`` (None: no such account, or disabled) and the
    shift's status and opener (duties rules 5 and 6) and the dealer of its newest stint
    (rule 5 since ``duties.UNREAD``: not read, the check reads it)."""

    table_id: int | None
    actor_role: str | None = None
    shift_status: str | None = None
    shift_opened_by: int | None = None
    actor_id: int | None = None
    dealer_id: int | None | duties.Unread = duties.UNREAD


@dataclass(frozen=True, slots=True)
class Locked:
    """The stream's row under the write lock: what the compare of compare-and-append reads."""

    status: str
    void_pending: bool
    last_seq: int


@dataclass(frozen=True, slots=True)
class Closed:
    """A stream a step completed: its status now and the settlement as stored."""

    status: str
    stored: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stream as read at the start of an attempt (or as left by the step just recorded)."""

    id: int
    number: int
    status: str
    shift_id: int | None
    rules: dict[str, Any]
    flow: Game[Any]
    events: list[store.EventView]
    folded: Folded[Any]
    void_pending: bool = False
    #: what the stream's own view needs besides (its round row, its table...)
    head: Any = None
    #: the settlement stored by the step just recorded, if it completed the stream
    stored: dict[str, Any] | None = None
    #: what the same read found for the checks (None: the stream reads them when asked)
    facts: Facts | None = None
    #: the rules as stored (the replay memo's key; None: made from ``rules``)
    rules_text: str | None = None
    #: the last sequence number the stream's row was read with (None: the read was one
    #: snapshot, or did not say); its events were read by a statement of their own
    read_seq: int | None = None

    @property
    def torn(self) -> bool:
        """A write committed between the row's statement and the events' (the read is not one
        snapshot, ``txn.begin_read``): the row's status may be older than the events."""
        return self.read_seq is not None and self.read_seq != self.last_seq

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def effective(self) -> tuple[int, ...]:
        return self.folded.steps

    @property
    def last_step(self) -> int | None:
        return self.folded.last_step

    @property
    def is_open(self) -> bool:
        return self.status == OPEN


@dataclass(frozen=True, slots=True)
class Recorded:
    """The stream after a request, and whether this request stored something (201 vs 200)."""

    loaded: Loaded
    created: bool
    #: the engine's state this request started from (a step stored by it), else None
    before: Any = None


class Stream(Protocol):
    """One kind of stream, as the record path needs it."""

    wording: Wording
    #: the ``round_event`` column that names the stream (``round_id`` or ``game_id``)
    column: str
    #: a complete state stores its settlement at once (a poker hand); else only ``paid`` does
    settles_when_complete: bool

    def load(self, session: Session, stream_id: int, actor_id: int | None = None) -> Loaded:
        """The stream and its events, folded (``NotFound`` for an unknown id); ``actor_id``:
        whoever records, whose role the same read may fetch (``Loaded.facts``)."""
        ...

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        """Who may record (with ``loaded``: also who may record in this stream now)."""
        ...

    def lock(self, session: Session, loaded: Loaded) -> Locked:
        """The stream's row, locked until commit: its status, pending void and last sequence
        number now."""
        ...

    def store_settlement(self, session: Session, loaded: Loaded, seq: int, settlement: Any,
                         state: Any) -> Closed:
        """Store a complete stream's settlement and close it."""
        ...


def check_key(key: str) -> str:
    key = (key or "").strip()
    if not key or len(key) > store.KEY_MAX:
        raise ValidationError("An idempotency key is 1 to %(KEY_MAX)s characters.",
                              KEY_MAX=store.KEY_MAX, field="idempotency_key")
    return key


def record(session: Session, stream: Stream, stream_id: int, *, actor_id: int, type: str,
           payload: Mapping[str, Any] | None, idempotency_key: str,
           expected_seq: int | None = None,
           before: Callable[[Loaded], Recorded | None] | None = None,
           follow: bool = False) -> Recorded:
    """Record one step of a stream (``undo`` and ``paid`` included) or answer the resend.

    ``before``: the stream's own step that is no event (a house round's redeal asks a pit
    boss for a void), run once the stream's state is checked; its answer ends the request.
    ``follow``: also record the steps the engine then records by itself (``Step.auto``: the
    table screen's one tap), in the same write."""
    key = check_key(idempotency_key)
    body = dict(payload or {})
    return txn.run(session, lambda: _once(session, stream, stream_id, actor_id, type, body, key,
                                          expected_seq, before, follow))


def _once(session: Session, stream: Stream, stream_id: int, actor_id: int, type: str,
          payload: dict[str, Any], key: str, expected_seq: int | None,
          before: Callable[[Loaded], Recorded | None] | None, follow: bool) -> Recorded:
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
        if answered is not None:
            return answered
    played = _play(stream, loaded, type, payload)
    if played is None:  # the round already holds what the step asks: nothing stored, 200
        return Recorded(loaded, False)
    stored, folded, settlement = played
    appended = [(type, stored)]
    if follow and type not in META:
        more, folded = follow_ups(loaded.flow, folded)
        appended += more
        if more and stream.settles_when_complete and loaded.flow.can_settle(folded.state):
            settlement = loaded.flow.settle(folded.state)
    txn.begin_write(session)
    locked = stream.lock(session, loaded)
    if (locked.status, locked.void_pending, locked.last_seq) != \
            (loaded.status, loaded.void_pending, loaded.last_seq):
        raise txn.Stale  # the compare: the stream moved since it was read
    table_id = loaded.facts.table_id if loaded.facts else None
    events = [*loaded.events]
    for n, (kind, body) in enumerate(appended):
        events.append(store.insert_event(session, stream.column, loaded.id,
                                         loaded.last_seq + 1 + n, kind, body, actor_id,
                                         follow_key(key, n), table_id=table_id))
    memo.remember(loaded.rules, events, folded, loaded.rules_text)
    after = replace(loaded, events=events, folded=folded, read_seq=None)
    if settlement is not None:
        closed = stream.store_settlement(session, loaded, events[-1].seq, settlement,
                                         folded.state)
        after = replace(after, status=closed.status, stored=closed.stored)
    return Recorded(after, True, loaded.folded.state)


META = frozenset({PAID, UNDO, VOID})
#: a chain of steps the engine records by itself is short (a deal, a forced BET)
MOST_FOLLOW_UPS = 4


def follow_ups(flow: Game[Any], folded: Folded[Any]) -> tuple[list[tuple[str, dict[str, Any]]],
                                                            Folded[Any]]:
    """The steps the engine records by itself after ``folded`` (``Step.auto``), each verified
    and applied like any step: their events (type, stored payload) and the fold after them."""
    out: list[tuple[str, dict[str, Any]]] = []
    state, effective = folded.state, folded.steps
    last = effective[-1] if effective else 0
    for _ in range(MOST_FOLLOW_UPS):
        auto = next((s for s in flow.next_steps(state) if s.auto), None)
        if auto is None:
            break
        actions = flow.decode(state, auto.type, {"box": auto.box} if auto.box else {})
        state = flow.play(state, actions, new=True, type=auto.type)
        last += 1
        effective = (*effective, last)
        out.append((auto.type, flow.encode_event(auto.type, actions)))
    return out, Folded(state, effective)


def follow_key(key: str, n: int) -> str:
    """The idempotency key of the ``n``-th event a request appends (the first: its own)."""
    if n == 0:
        return key
    tail = f"~{n}"
    return key[:store.KEY_MAX - len(tail)] + tail


def check_open(stream: Stream, loaded: Loaded, expected_seq: int | None,
               frozen: bool = True) -> None:
    """A step needs an open stream, no void waiting for a pit boss (``frozen``) and a screen
    that saw the stream's last event (``expected_seq``)."""
    w = stream.wording
    if not loaded.is_open:
        raise Conflict(w.closed, number=loaded.number, status=loaded.status)
    if frozen and loaded.void_pending:
        raise Conflict(w.frozen, number=loaded.number)
    if expected_seq is not None and expected_seq != loaded.last_seq:
        raise Conflict(w.stale, number=loaded.number, last_seq=loaded.last_seq,
                       expected_seq=expected_seq)


def _play(stream: Stream, loaded: Loaded, type: str,
          payload: Mapping[str, Any]) -> tuple[dict[str, Any], Folded[Any], Any] | None:
    """The engine's work for a new step, on the fold just read: what to store, the fold after
    it, and the settlement to store when it completes the stream; None for a step the stream
    already holds (``Game.needless``)."""
    flow, state, effective = loaded.flow, loaded.folded.state, loaded.effective
    if type == PAID and not stream.settles_when_complete:
        return {}, Folded(state, effective, PAID), flow.settle(state)  # RulesError: incomplete
    if type == VOID:
        raise IllegalActionError("a round is voided only with a pit boss's approval: ask for a "
                                 "void (Redeal, or the round's page)", field="type", value=VOID)
    if type == UNDO:
        if not effective:
            raise Conflict(stream.wording.nothing, number=loaded.number)
        cancels = {flow.undo_field: payload.get(flow.undo_field, effective[-1])}
        flow.check_undo(effective, cancels)
        # undoing step s leaves the stream as the events before s left it (the engine's fold)
        undone = memo.replay(flow, loaded.rules,
                             [e for e in loaded.events if e.seq < effective[-1]],
                             loaded.rules_text)
        return cancels, Folded(undone.state, undone.steps), None
    actions = flow.decode(state, type, payload)  # decoded once
    if flow.needless(state, actions):
        return None
    new = flow.play(state, actions, new=True, type=type)
    settlement = None
    if stream.settles_when_complete and flow.can_settle(new):
        settlement = flow.settle(new)
    return (flow.encode_event(type, actions), Folded(new, (*effective, loaded.last_seq + 1)),
            settlement)


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
        field = loaded.flow.undo_field
        if field in payload and existing.payload.get(field) != payload[field]:
            raise reused
        return
    flow = loaded.flow
    earlier = memo.replay(flow, loaded.rules, [e for e in loaded.events if e.seq < existing.seq],
                          loaded.rules_text)
    try:
        again = flow.normalize(earlier.state, type, payload)
    except (RulesError, RequestError):
        raise reused from None
    if json.loads(store.encode_payload(again)) != existing.payload:
        raise reused
