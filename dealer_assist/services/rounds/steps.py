"""A house round's own record path: starting it with its bets, and its steps.

Every step goes through the one record path (:mod:`.record`: idempotency keys,
``expected_seq``, undo, compare-and-append, bounded retries and 503, the replay memo). What is a
house round's own is here: the start -- one :func:`.txn.run` unit that locks the table row, so
one key never starts two rounds (``game_round.start_key`` is unique per shift) and a table has
one open round -- and the *Redeal*, which the engine verifies but which stores no event: it asks
a pit boss to void the round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from ...models import Round, ShiftStatus
from ...rules.engine import Folded
from ...rules.fields import need_mapping
from ...rules.games.registry import rules_flow
from ...rules.games.stud.codec import decode_place
from ...rules.phrase import Phrase
from ..errors import Conflict, NotFound
from ..people import duties, stints
from . import live, memo, player_cards, starting, txn, voids
from . import record as path
from . import store as rounds
from .house import HOUSE, RECORDERS, lock_round

REUSED = HOUSE.wording.reused
PLACE = "place"


@dataclass(frozen=True, slots=True)
class Recorded:
    """The round after a request, and whether this request stored something (201 vs 200)."""

    live_round: live.LiveRound
    created: bool
    #: the engine's state the request started from, when it stored a step
    before: Any = None


# --- starting a round -------------------------------------------------------------------------

def begin(session: Session, *, table_id: int, actor_id: int, boxes: Sequence[live.BoxStake],
          idempotency_key: str, follow: bool = False) -> Recorded:
    """Start a round with its bets (``place``), or answer the round this key already started.

    ``follow``: also record what the engine records by itself after the bets (a deal with
    nothing face up), in the same write (the table screen's one tap)."""
    key = path.check_key(idempotency_key)
    return txn.run(session, lambda: _begin_once(session, table_id, actor_id, boxes, key,
                                                follow))


def _begin_once(session: Session, table_id: int, actor_id: int,
                boxes: Sequence[live.BoxStake], key: str, follow: bool) -> Recorded:
    txn.begin_read(session)
    got = starting.read(session, table_id, actor_id, key)  # one statement
    if got is None or got.actor_role not in RECORDERS:
        live.check_actor(session, actor_id)  # who may record is refused first, as it says
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    table = got.table
    if got.shift_id is None or got.shift_opened_by is None or got.shift_status is None:
        raise Conflict("Table %(name)s has no open shift; open one first.", name=table.name)
    # staff of this shift (services/people/duties.py), with the shift and its dealer just read
    duties.check_recorder_at(session, user_id=actor_id, role=got.actor_role,
                             shift_id=got.shift_id, opened_by=got.shift_opened_by,
                             dealer_id=got.dealer_id)
    duties.check_status_open(got.shift_status, "recording a step")
    rules = rounds.table_rules(table)  # made once per table setting (rules.games.registry)
    flow = rules_flow(rules)
    empty = memo.replay(flow, rules, []).state  # the empty round, memoised like any fold
    actions = flow.decode(empty, "place", {"boxes": [b.payload() for b in boxes]})
    player_cards.check_cards(session, actions)  # a box's player card is a registered one
    payload = flow.encode_event("place", actions)
    if got.started is not None:
        found = starting.event(session, got.started)
        if found.seq != 1 or found.type != "place" or \
                found.payload_text != rounds.encode_payload(payload):
            raise Conflict(REUSED)
        assert found.round_id is not None
        return Recorded(live.load(session, found.round_id), False)
    if got.open_round is not None:
        _refuse_second_round(session, got.open_round)
    # the engine verifies the bets before any lock
    state = flow.play(empty, actions, new=True, type="place")
    txn.begin_write(session)
    txn.lock_table(session, table_id)
    locked = starting.compare(session, got.shift_id, key)
    if locked.started is not None or locked.open_round is not None:
        raise txn.Stale  # a twin got there first: re-read, answer as a resend or a conflict
    if locked.status != ShiftStatus.OPEN.value:
        raise Conflict("This shift is closed.")
    # the dealer of record is the one tapped in at the table when the round starts
    # (nobody tapped in: whoever starts it deals, and a ``start`` stint says so)
    dealer = locked.dealer_id if locked.dealer_id is not None else stints.dealer_for_round(
        session, shift_id=got.shift_id, actor_id=actor_id)
    rnd = starting.insert_round(session, table_id=table.id, shift_id=got.shift_id,
                                number=locked.last_number + 1, rules=rules, start_key=key,
                                dealer_id=dealer)
    folded = Folded(state, (1,))
    appended = [("place", payload)]
    if follow:
        more, folded = path.follow_ups(flow, folded)
        appended += more
    events = [rounds.insert_event(session, HOUSE.column, rnd.id, 1 + n, kind, body, actor_id,
                                  path.follow_key(key, n), table_id=table.id)
              for n, (kind, body) in enumerate(appended)]
    memo.remember(rules, events, folded)
    loaded = path.Loaded(rnd.id, rnd.number, rnd.status, rnd.shift_id, rules, flow, events,
                         folded, head=(rnd, table, None))
    return Recorded(live.view(loaded), True)


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
           expected_seq: int | None = None, follow: bool = False) -> Recorded:
    """Record one step (``undo``, ``paid`` and ``redeal`` included) or answer the resend.

    The one entry of the table screen and the JSON API. ``follow``: also record the steps the
    engine then records by itself (``Step.auto``), in the same write."""
    redeal = None
    if type == PLACE:  # boxes placed later: their player cards too are registered ones
        places = decode_place(None, need_mapping(payload or {}, "payload"))
        player_cards.check_cards(session, places)
    if type == live.REDEAL:
        def redeal(loaded: path.Loaded) -> path.Recorded:
            return _redeal(session, loaded, actor_id, dict(payload or {}))
    done = path.record(session, HOUSE, round_id, actor_id=actor_id, type=type,
                         payload=payload, idempotency_key=idempotency_key,
                         expected_seq=expected_seq, before=redeal, follow=follow)
    return Recorded(live.view(done.loaded), done.created, done.before)


def _redeal(session: Session, loaded: path.Loaded, actor_id: int,
            payload: Mapping[str, Any]) -> path.Recorded:
    """The engine verifies the redeal and says why; a void request is filed with that reason.

    A double tap (the same person, the same reason, still pending) files nothing more."""
    flow = loaded.flow
    voided = flow.voided(flow.step(loaded.folded.state, live.REDEAL, payload))  # RulesError
    reason = Phrase("redeal: %(v)s", v=voided or "wrong number of cards")
    _view, _table, request = loaded.head
    if loaded.void_pending:
        if request.requested_by == actor_id and request.reason == reason:
            return path.Recorded(loaded, False)
        raise Conflict("Round %(number)s already waits for a pit boss to decide on its "
                       "void.", number=loaded.number)
    txn.begin_write(session)
    locked = lock_round(session, loaded)
    if (locked.status, locked.void_pending, locked.last_seq) != \
            (loaded.status, loaded.void_pending, loaded.last_seq):
        raise txn.Stale
    voids.request_change(session, round_id=loaded.id, kind="void", reason=reason,
                         actor_id=actor_id)
    return path.Recorded(HOUSE.load(session, loaded.id), True)

