"""A house round's own record path: starting it with its bets, and its steps.

The start and every step go through the one record path (:mod:`.record`: idempotency keys,
``expected_seq``, undo, compare-and-append, bounded retries and 503, the replay memo). What is a
house round's own is here: where it starts (:class:`HouseStart`: the table row locked, so one
key never starts two rounds and a table has one open round) and the *Redeal*, which the engine
verifies but which stores no event: it asks a pit boss to void the round, under the record
path's compare.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlmodel import Session

from ...models import Round
from ...rules.fields import need_mapping
from ...rules.games.registry import rules_engine
from ...rules.games.stud.codec import decode_place
from ...rules.phrase import Phrase
from ..errors import Conflict, NotFound
from ..people import duties, reliefs
from . import live, memo, player_cards, starting, store, streams, voids
from . import record as record_path
from .house import HOUSE, RECORDERS
from .streams import OPEN, Facts, Loaded, Opening

PLACE = "place"


@dataclass(frozen=True, slots=True)
class RoundRecorded:
    """The round after a request, and whether this request stored something (201 vs 200)."""

    live_round: live.LiveRound
    created: bool
    #: the engine's state the request started from, when it stored a step
    before: Any = None


# --- starting a round -------------------------------------------------------------------------

def begin(session: Session, *, table_id: int, actor_id: int, boxes: Sequence[live.BoxStake],
          idempotency_key: str, follow: bool = False, tapped_at: datetime | None = None,
          offline: bool = False) -> RoundRecorded:
    """Start a round with its bets (``place``), or answer the round this key already started:
    the one start path (:func:`.record.start`).

    ``follow``: also record what the engine records by itself after the bets (a deal with
    nothing face up), in the same write (the table screen's one tap). ``tapped_at``/``offline``:
    stored on its events (when it was tapped; whether it waited in the tablet's queue)."""
    done = record_path.start(session, HOUSE_START, table_id, actor_id=actor_id,
                      payload={"boxes": [b.payload() for b in boxes]},
                      idempotency_key=idempotency_key, follow=follow, tapped_at=tapped_at,
                      offline=offline)
    return RoundRecorded(live.view(done.loaded), done.created)


class HouseStart:
    """A house round starts at a table of an open shift with its bets, its first event; the
    table row is locked, so one key never starts two rounds (``game_round.start_key`` is
    unique per shift) and a table has one open round."""

    stream = HOUSE
    step = PLACE

    def read(self, session: Session, scope_id: int | None, actor_id: int,
             key: str) -> Opening:
        assert scope_id is not None
        got = starting.read(session, scope_id, actor_id, key)  # one statement
        if got is None or got.actor_role not in RECORDERS:
            live.check_actor(session, actor_id)  # who may record is refused first, as it says
            raise NotFound("No table with id %(table_id)s.", table_id=scope_id)
        return Opening(got.started, got)

    def same(self, session: Session, loaded: Loaded, payload: Mapping[str, Any]) -> bool:
        return False  # the start is its first event, compared as any step's

    def check(self, session: Session, opening: Opening, actor_id: int,
              payload: Mapping[str, Any]) -> Loaded:
        got: starting.StartRead = opening.found
        table = got.table
        assert got.actor_role is not None  # read it (a recorder)
        if got.shift_id is None or got.shift_opened_by is None or got.shift_status is None:
            raise Conflict("Table %(name)s has no open shift; open one first.", name=table.name)
        # staff of this shift (services/people/duties.py), with the shift and its dealer just read
        duties.check_recorder_at(session, user_id=actor_id, role=got.actor_role,
                                 shift_id=got.shift_id, opened_by=got.shift_opened_by,
                                 dealer_id=got.dealer_id)
        duties.check_status_open(got.shift_status, "recording a step")
        rules = store.table_rules(table)  # made once per table setting (rules.games.registry)
        engine = rules_engine(rules)
        empty = memo.replay(engine, rules, [])  # the empty round, memoised like any fold
        # a box's player card is a registered one
        player_cards.check_cards(session, engine.decode(empty.state, PLACE, payload))
        if got.open_round is not None:
            _refuse_second_round(session, got.open_round)
        return Loaded(0, 0, OPEN, got.shift_id, rules, engine, [], empty,
                      facts=Facts(table.id))

    def lock(self, session: Session, opening: Opening, key: str) -> starting.StartLocked | None:
        got: starting.StartRead = opening.found
        assert got.shift_id is not None
        return starting.lock(session, got.table.id, got.shift_id, key)

    def insert(self, session: Session, opening: Opening, locked: starting.StartLocked,
               empty: Loaded | None, actor_id: int, key: str) -> Loaded:
        got: starting.StartRead = opening.found
        assert empty is not None and got.shift_id is not None
        # the dealer of record is the one tapped in at the table when the round
        # starts (nobody tapped in: whoever starts it deals, and a ``start`` stint says so)
        dealer = locked.dealer_id if locked.dealer_id is not None else reliefs.dealer_for_round(
            session, shift_id=got.shift_id, actor_id=actor_id)
        rnd = starting.insert_round(session, table_id=got.table.id, shift_id=got.shift_id,
                                    number=locked.last_number + 1, rules=empty.rules,
                                    start_key=key, dealer_id=dealer)
        return replace(empty, id=rnd.id, number=rnd.number, status=rnd.status,
                       row=rnd, table=got.table, void_request=None)


HOUSE_START = HouseStart()


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
           expected_seq: int | None = None, follow: bool = False,
           tapped_at: datetime | None = None, offline: bool = False) -> RoundRecorded:
    """Record one step (``undo``, ``paid`` and ``redeal`` included) or answer the resend.

    The one entry of the table screen and the JSON API. ``follow``: also record the steps the
    engine then records by itself (``Step.auto``), in the same write."""
    redeal = None
    if type == PLACE:  # boxes placed later: their player cards too are registered ones
        places = decode_place(None, need_mapping(payload or {}, "payload"))
        player_cards.check_cards(session, places)
    if type == live.REDEAL:
        def redeal(loaded: Loaded) -> streams.Recorded | Callable[[], streams.Recorded]:
            return _redeal(session, loaded, actor_id, dict(payload or {}))
    done = record_path.record(session, HOUSE, round_id, actor_id=actor_id, type=type,
                         payload=payload, idempotency_key=idempotency_key,
                         expected_seq=expected_seq, before=redeal, follow=follow,
                         tapped_at=tapped_at, offline=offline)
    return RoundRecorded(live.view(done.loaded), done.created, done.before)


def _redeal(session: Session, loaded: Loaded, actor_id: int,
            payload: Mapping[str, Any]) -> streams.Recorded | Callable[[], streams.Recorded]:
    """The engine verifies the redeal and says why; a void request is filed with that reason,
    under the record path's compare (the round as folded, else read again).

    A double tap (the same person, the same reason, still pending) files nothing more."""
    engine = loaded.engine
    voided = engine.voided(engine.step(loaded.folded.state, live.REDEAL, payload))  # RulesError
    reason = Phrase("redeal: %(v)s", v=voided or "wrong number of cards")
    request = loaded.void_request
    if loaded.void_pending:
        if request.requested_by == actor_id and request.reason == reason:
            return streams.Recorded(loaded, False)
        raise Conflict("Round %(number)s already waits for a pit boss to decide on its "
                       "void.", number=loaded.number)

    def file() -> streams.Recorded:
        voids.request_change(session, round_id=loaded.id, kind="void", reason=reason,
                             actor_id=actor_id)
        return streams.Recorded(HOUSE.load(session, loaded.id), True)

    return file
