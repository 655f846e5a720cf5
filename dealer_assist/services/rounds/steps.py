"""Starting rounds and recording steps in short write transactions (issue 11).

Each request is one :func:`.txn.run` unit of work on the caller's session, committed here:

* read (no write lock): the round's events, folded once (:func:`.live.fold`, memoised), the
  idempotency key looked up, the step normalised and verified by the engine -- all the engine
  work happens here, against the events read;
* write (the lock): the round row (or, to start a round, the table row) is locked, and the
  write is a *compare-and-append*: the round's last sequence number must still be the one
  folded and no twin may have used the key meanwhile, else :class:`.txn.Stale` and the unit
  runs again from the read (bounded; then 503). The answer is built from the fold and the step
  just verified: nothing is replayed again.

Idempotency is exact: a key already stored answers the round as it is with ``created`` False
(HTTP 200), whatever happened since. An ``undo`` sent without ``cancels`` matches the undo stored
under its key (the default is resolved from the round only for a new undo). One key never starts
two rounds: the table row is locked while a round starts (SQLite: ``BEGIN IMMEDIATE``) and
``game_round.start_key`` is unique per shift.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ...models import Round, RoundEvent, RoundSettlement, RoundStatus, utcnow
from ...rules.cards import parse_cards
from ...rules.errors import CardCountError, IllegalActionError
from ...rules.games.flow import PAID, UNDO, VOID, Folded, check_undo, start_rules
from ...rules.phrase import Phrase
from ...rules.settlement import Settlement
from ..disputes import voids
from ..errors import Conflict
from ..shifts import shifts
from ..tables import tables
from . import live, txn
from . import store as rounds

REUSED = "This idempotency key was already used for a different step."


@dataclass(frozen=True, slots=True)
class Recorded:
    """The round after a request, and whether this request stored something (201 vs 200)."""

    live_round: live.LiveRound
    created: bool


# --- starting a round -------------------------------------------------------------------------

def begin(session: Session, *, table_id: int, actor_id: int, boxes: Sequence[live.BoxStake],
          idempotency_key: str) -> Recorded:
    """Start a round with its bets (``place``), or answer the round this key already started."""
    key = live.check_key(idempotency_key)
    return txn.run(session, lambda: _begin_once(session, table_id, actor_id, boxes, key))


def _begin_once(session: Session, table_id: int, actor_id: int,
                boxes: Sequence[live.BoxStake], key: str) -> Recorded:
    txn.begin_read(session)
    live.check_actor(session, actor_id)
    table = tables.get_table(session, table_id)
    shift = shifts.open_shift_of(session, table_id)
    if shift is None:
        raise Conflict("Table %(name)s has no open shift; open one first.", name=table.name)
    live.check_actor(session, actor_id, shift.id)  # staff of this shift (services/people/duties.py)
    rules = rounds.table_rules(table)
    flow, empty = start_rules(rules)
    payload = flow.normalize(empty, "place", {"boxes": [b.payload() for b in boxes]})
    found = _started_by(session, shift.id, key)
    current = live.open_round_id(session, table_id) if found is None else None
    if current is not None:  # PostgreSQL reads each statement afresh: a twin may just have won
        found = _started_by(session, shift.id, key)
    if found is not None:
        if found.seq != 1 or not live.same_event(found, "place", payload):
            raise Conflict(REUSED)
        return Recorded(live.load(session, found.round_id), False)
    if current is not None:
        _refuse_second_round(session, current)
    state = flow.step(empty, "place", payload)  # the engine verifies the bets before any lock
    txn.begin_write(session)
    txn.lock_table(session, table_id)
    if (_started_by(session, shift.id, key) is not None
            or live.open_round_id(session, table_id) is not None):
        raise txn.Stale  # a twin got there first: re-read, answer as a resend or a conflict
    rnd = rounds.start_round(session, shift_id=shift.id, rules=rules, start_key=key)
    event = _insert(session, rnd.id, 1, "place", payload, actor_id, key)
    folded = Folded(state, (1,))
    live.remember(rules, [event], folded)
    return Recorded(live.assemble(rnd, table, rules, [event], folded, None, None), True)


def _started_by(session: Session, shift_id: int, key: str) -> RoundEvent | None:
    """The event this key recorded in any round of the shift (the first one, for a start)."""
    query = (select(RoundEvent).join(Round, Round.id == RoundEvent.round_id)  # type: ignore[arg-type]
             .where(Round.shift_id == shift_id, RoundEvent.idempotency_key == key))
    return session.exec(query).first()


def _refuse_second_round(session: Session, current: int) -> None:
    number = session.get(Round, current).number  # type: ignore[union-attr]
    if voids.changes(session, kind="void", round_id=current, status=voids.PENDING):
        raise Conflict("Round %(number)s waits for a pit boss to decide on its void; the "
                       "next round starts after that.", number=number)
    raise Conflict("Round %(number)s is still open at this table; finish it first.",
                   number=number)


# --- recording a step ---------------------------------------------------------------------------

def record(session: Session, *, round_id: int, actor_id: int, type: str,
           payload: Mapping[str, Any] | None, idempotency_key: str,
           expected_seq: int | None = None) -> Recorded:
    """Record one step (``undo``, ``paid`` and ``redeal`` included) or answer the resend."""
    key = live.check_key(idempotency_key)
    return txn.run(session, lambda: _record_once(session, round_id, actor_id, type,
                                                 dict(payload or {}), key, expected_seq))


def _record_once(session: Session, round_id: int, actor_id: int, type: str,
                 payload: dict[str, Any], key: str, expected_seq: int | None) -> Recorded:
    txn.begin_read(session)
    live.check_actor(session, actor_id)
    rnd = live.load(session, round_id)
    # looked for among the events just folded (one read: a twin's event is in both or neither)
    existing = next((e for e in rnd.events if e.idempotency_key == key), None)
    if existing is not None:
        _check_resend(rnd, existing, type, payload)
        return Recorded(rnd, False)
    # a resend is answered above whatever happened since; a new step needs staff of the shift
    live.check_actor(session, actor_id, rnd.round.shift_id)
    if type == UNDO and "cancels" not in payload and rnd.last_step is not None:
        payload["cancels"] = rnd.last_step
    if type not in (UNDO, PAID, VOID):
        payload = rnd.flow.normalize(rnd.state, type, payload)
    if not rnd.is_open:
        raise Conflict("Round %(number)s is %(status)s; it takes no more steps.",
                       number=rnd.round.number, status=rnd.round.status)
    if type == live.REDEAL:
        return _redeal(session, rnd, actor_id, payload, expected_seq)
    if rnd.void_pending:
        raise Conflict("Round %(number)s waits for a pit boss to decide on its void; "
                       "nothing is recorded until then.",
                       number=rnd.round.number)
    live.check_seq(rnd, expected_seq)
    folded, settlement = _apply(rnd, type, payload)  # RulesError: refused, nothing stored
    txn.begin_write(session)
    row = _lock_unchanged(session, rnd)
    event = _insert(session, round_id, rnd.last_seq + 1, type, payload, actor_id, key)
    stored = None
    if settlement is not None:
        stored = _store_settlement(session, row, rnd, event.seq, settlement)
    events = [*rnd.events, event]
    live.remember(rnd.rules, events, folded)
    view = rounds.RoundView(rnd.round.id, rnd.round.table_id, rnd.round.shift_id,
                            rnd.round.number, row.status, rnd.round.opened_at)
    return Recorded(live.assemble(view, rnd.table, rnd.rules, events, folded, stored,
                                  rnd.void_request), True)


def _check_resend(rnd: live.LiveRound, existing: rounds.EventView, type: str,
                  payload: Mapping[str, Any]) -> None:
    """The key was used: the same step again is answered as stored, another one is a 409.

    An undo resent without ``cancels`` is the same undo (its default named the step that was
    last when it was first sent, which is not the last one any more)."""
    if existing.type != type:
        raise Conflict(REUSED)
    if type == UNDO and "cancels" not in payload:
        return
    if type not in (UNDO, PAID, VOID):
        payload = rnd.flow.normalize(rnd.state, type, payload)
    if existing.payload != json.loads(rounds.encode_payload(payload)):
        raise Conflict(REUSED)


def _apply(rnd: live.LiveRound, type: str,
           payload: Mapping[str, Any]) -> tuple[Folded, Settlement | None]:
    """The engine's work for a new step, on the fold just read: the fold after it and, for
    "Paid", the settlement to store. The answer is built from this, not from a second replay."""
    effective = tuple(rnd.effective)
    if type == PAID:
        settlement = rnd.flow.settle(rnd.state)  # RulesError when the round is not complete
        return Folded(rnd.state, effective, PAID), settlement
    if type == VOID:
        raise IllegalActionError("a round is voided only with a pit boss's approval: ask for a "
                                 "void (Redeal, or the round's page)", field="type", value=VOID)
    if type == UNDO:
        check_undo(effective, payload)
        # undoing step s leaves the round as the events before s left it (the engine's fold)
        before = live.fold(rnd.rules, [e for e in rnd.events if e.seq < effective[-1]])
        return Folded(before.state, before.steps), None
    state = rnd.flow.step(rnd.state, type, payload)
    if type == "dealer_draw":
        _no_surplus_card(rnd, payload)
    return Folded(state, (*effective, rnd.last_seq + 1)), None


def _no_surplus_card(rnd: live.LiveRound, payload: Mapping[str, Any]) -> None:
    """The dealer's draw takes exactly the cards the bought game uses: one, and a second only
    for the free second replacement (issue 10). The engine itself ignores a surplus card, so
    that rounds stored with one still replay; a new step with one is refused here."""
    draw = parse_cards(payload.get("cards", ()), what="dealer's draw")
    need = live.draw_needed(rnd, draw)
    if len(draw) > need:
        err = CardCountError(len(draw), f"{need} (the bought game uses {need}; take the "
                             "surplus card back)", "dealer's draw")
        raise err.at("cards")


def _lock_unchanged(session: Session, rnd: live.LiveRound) -> Round:
    """Lock the round and check it is still as folded (the compare of compare-and-append)."""
    row = txn.lock_round(session, rnd.round.id)
    last, pending = session.connection().execute(_COMPARE, {"rid": rnd.round.id}).one()
    if (last or 0) != rnd.last_seq or row.status != rnd.round.status:
        raise txn.Stale
    if pending and not rnd.void_pending:
        raise txn.Stale  # frozen meanwhile: the re-read answers the conflict
    return row


#: the round's last sequence number and its pending void requests, in one statement
_COMPARE = text(
    "SELECT (SELECT max(seq) FROM round_event WHERE round_id = :rid), "
    "(SELECT count(*) FROM round_change_request r LEFT JOIN round_change_decision d "
    "ON d.request_id = r.id WHERE r.round_id = :rid AND r.kind = 'void' AND d.id IS NULL)")


def _insert(session: Session, round_id: int, seq: int, type: str, payload: Mapping[str, Any],
            actor_id: int, key: str) -> rounds.EventView:
    """Append one event; a unique violation means a twin won the race (re-read)."""
    body = rounds.encode_payload(payload)
    event = RoundEvent(round_id=round_id, seq=seq, type=type, payload=body, actor_id=actor_id,
                       created_at=utcnow(), idempotency_key=key)
    session.add(event)
    try:
        session.flush()
    except IntegrityError:
        raise txn.Stale from None
    assert event.id is not None
    return rounds.EventView(event.id, round_id, seq, type, json.loads(body), actor_id,
                            event.created_at, key)


def _store_settlement(session: Session, row: Round, rnd: live.LiveRound, seq: int,
                      settlement: Settlement) -> dict[str, Any]:
    body = rounds.encode_payload(settlement.to_dict())
    session.add(RoundSettlement(
        round_id=rnd.round.id, through_seq=seq, settlement=body,
        engine_version=live.ENGINE_VERSION, profile=rnd.state.profile.name,
        profile_version=live.profile_version(rnd.rules)))
    row.status = RoundStatus.SETTLED.value
    session.add(row)
    session.flush()
    stored: dict[str, Any] = json.loads(body)
    return stored


def _redeal(session: Session, rnd: live.LiveRound, actor_id: int, payload: Mapping[str, Any],
            expected_seq: int | None) -> Recorded:
    """The engine verifies the redeal and says why; a void request is filed with that reason.

    A double tap (the same person, the same reason, still pending) files nothing more."""
    voided = rnd.flow.voided(rnd.flow.step(rnd.state, live.REDEAL, payload))  # RulesError
    reason = Phrase("redeal: %(v)s", v=voided or 'wrong number of cards')
    pending = rnd.void_request if rnd.void_pending else None
    if pending is not None:
        if pending.requested_by == actor_id and pending.reason == reason:
            return Recorded(rnd, False)
        raise Conflict("Round %(number)s already waits for a pit boss to decide on its "
                       "void.", number=rnd.round.number)
    live.check_seq(rnd, expected_seq)
    txn.begin_write(session)
    _lock_unchanged(session, rnd)
    voids.request_change(session, round_id=rnd.round.id, kind="void", reason=reason,
                         actor_id=actor_id)
    return Recorded(live.load(session, rnd.round.id), True)
