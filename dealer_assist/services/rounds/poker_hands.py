"""A poker hand as a round of the table's shift, on the house games' round model.

The hand's start (profile, stakes, button, seats dealt in with stacks and missed blinds) is the
round's own ``rules``; each dealer action is one ``action`` event whose payload is the action in
the calculator's JSON (``docs/api.md``, POST /api/v1/poker/hand), as the engine encodes it. The
state is always the poker game's replay of the events (``rules.games.poker.game``), memoised.
Every action goes through the one record path (:mod:`.record`): a refused action stores
nothing; a resent action (same idempotency key, same action) records once; ``expected_seq``
refuses an action entered on a screen that was behind (another tablet); undo is an ``undo``
event naming the action it takes back; contention is retried, then 503. The action that
completes the hand stores the result (``RoundSettlement``), settles the round, carries the
stacks to the seats and keeps the button for the next hand.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundStatus
from ...rules.engine import UNDO, Game
from ...rules.games.poker import HandState, get_poker_profile, hand_to_dict, parse_hand
from ...rules.games.poker import shown_hands as shown_hands
from ...rules.games.registry import get_engine
from ..errors import N_, Conflict, NotFound
from ..people import reliefs
from ..shifts import shifts
from ..tables import poker as poker_tables
from . import memo, starting, store
from . import record as record_path
from .house import (
    check_recorder,
    loaded_round,
    lock_round,
    pending,
    read_round,
    store_round_settlement,
    void_request,
)
from .streams import Closed, Facts, Loaded, Locked, Opening, Recorded, Wording

ACTION = "action"
ENGINE_VERSION = "dealer_assist poker 1"


@dataclass(frozen=True, slots=True)
class PokerHand:
    """A hand as the screen and the API show it, replayed from its events."""

    round: store.RoundView
    rules: dict[str, Any]
    actions: list[dict[str, Any]]
    state: HandState
    last_seq: int
    #: the sequence number of the last action still in force (what Undo takes back)
    undoable: int | None = None

    def to_dict(self) -> dict[str, Any]:
        r = self.round
        return {"id": r.id, "table_id": r.table_id, "shift_id": r.shift_id, "number": r.number,
                "status": r.status, "dealer_id": r.dealer_id,  # dealer of record
                "last_seq": self.last_seq, "undoable": self.undoable,
                "rules": self.rules,
                "actions": self.actions, "hand": hand_to_dict(self.state)}


def is_poker(rules: Mapping[str, Any]) -> bool:
    """A round's rules are a poker hand's start (profile by name, button, seats)."""
    return isinstance(rules.get("profile"), str) and "seats" in rules and "button" in rules


def engine_of(rules: Mapping[str, Any]) -> Game[Any]:
    """The poker game a hand's start names (by its profile)."""
    return get_engine(get_poker_profile(str(rules["profile"])).game)


class PokerStream:
    """A poker hand: ``round_event.round_id``; the action that completes it stores its result."""

    wording = Wording(
        closed=N_("Hand %(number)s is %(status)s; it takes no more actions."),
        stale=N_("The hand moved on on another tablet; reload it."),
        frozen=N_("Hand %(number)s waits for a pit boss to decide on its void; nothing can be "
               "recorded until then."),
        reused=N_("This idempotency key was already used for a different action."),
        nothing=N_("Nothing to undo: no action is recorded in this hand."),
    )
    column = "round_id"
    settles_when_complete = True

    def load(self, session: Session, stream_id: int, actor_id: int | None = None) -> Loaded:
        got = read_round(session, stream_id, actor_id)
        rules: dict[str, Any] = json.loads(got.rules_text) if got and got.rules_text else {}
        if got is None or not is_poker(rules):
            raise NotFound("No poker hand with id %(round_id)s.", round_id=stream_id)
        return loaded_round(session, got, engine_of(rules), rules, table=False,
                            stored=False)

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        """Table staff only; a croupier only at the shift he opened or co-signed (duties rule
        5); nothing on a closed shift (rule 6)."""
        check_recorder(session, actor_id, loaded.shift_id if loaded else None,
                       N_("Only table staff deal hands."), "recording an action",
                       loaded.facts if loaded else None)

    def lock(self, session: Session, loaded: Loaded) -> Locked:
        return lock_round(session, loaded)

    def store_settlement(self, session: Session, loaded: Loaded, seq: int, settlement: Any,
                         state: Any) -> Closed:
        """Store the result, settle the round, carry the stacks, keep the button."""
        closed = store_round_settlement(session, loaded, seq, settlement.to_dict(),
                                        engine=ENGINE_VERSION, profile=state.profile.name,
                                        version=state.profile.structure)
        row: store.RoundView = loaded.row
        poker_tables.finish_hand(session, row.table_id, loaded.rules["button"], state.stacks)
        session.flush()
        return closed


POKER = PokerStream()


def view(loaded: Loaded) -> PokerHand:
    """The hand as the screen shows it, from the stream as read or as just recorded."""
    head: store.RoundView = loaded.row
    if head.status != loaded.status:
        head = replace(head, status=loaded.status)
    effective = set(loaded.effective)
    actions = [e.payload for e in loaded.events if e.seq in effective]
    return PokerHand(head, loaded.rules, actions, loaded.folded.state, loaded.last_seq,
                     loaded.last_step)


def start_hand(session: Session, *, table_id: int, user_id: int,
               idempotency_key: str | None = None) -> PokerHand:
    """Deal the next hand in the table's open shift: its start becomes the round's rules."""
    return deal(session, table_id=table_id, user_id=user_id,
                idempotency_key=idempotency_key)[0]


def deal(session: Session, *, table_id: int, user_id: int,
         idempotency_key: str | None = None) -> tuple[PokerHand, bool]:
    """:func:`start_hand` through the one start path (:func:`.record.start`), and whether
    this request dealt it (201) or its key had dealt it already (200). Without a key every
    request deals a hand of its own."""
    key = idempotency_key if idempotency_key and idempotency_key.strip() else None
    done = record_path.start(session, PokerStart(keyed=key is not None), table_id, actor_id=user_id,
                      payload={}, idempotency_key=key or uuid.uuid4().hex)
    return view(done.loaded), done.created


@dataclass(frozen=True, slots=True)
class PokerStart:
    """A poker hand starts at a poker table of an open shift, one at a time; its start (the
    seats dealt in, the button) is made under the table's lock and kept as the round's rules,
    its key as the row's ``start_key``. ``keyed``: the client named the key (the rules then
    keep it too, as they always did)."""

    keyed: bool
    stream: PokerStream = POKER
    step: str | None = None

    def read(self, session: Session, scope_id: int | None, actor_id: int,
             key: str) -> Opening:
        assert scope_id is not None
        poker_tables.get(session, scope_id)
        shift = shifts.open_shift_of(session, scope_id)
        if shift is None:
            raise Conflict("Open a shift at this table first.")
        check_recorder(session, actor_id, None, N_("Only table staff deal hands."),
                       "recording an action")  # the role; the shift's staff after a resend
        # one statement: the hand this key dealt and the hand being dealt, as of one moment
        rows = session.exec(select(Round.id, Round.start_key).where(
            Round.shift_id == shift.id,
            (Round.start_key == key) | (Round.status == RoundStatus.OPEN.value))).all()
        started = next((rid for rid, start_key in rows if start_key == key), None)
        current = next((rid for rid, _key in rows), None)
        return Opening(started, (scope_id, shift.id, current))

    def same(self, session: Session, loaded: Loaded, payload: Mapping[str, Any]) -> bool:
        return True  # the table makes the start: a key deals one hand

    def check(self, session: Session, opening: Opening, actor_id: int,
              payload: Mapping[str, Any]) -> None:
        _table_id, shift_id, current = opening.found
        check_recorder(session, actor_id, shift_id, N_("Only table staff deal hands."),
                       "recording an action")
        if current is not None:
            raise Conflict("A hand is already being dealt at this table.")

    def lock(self, session: Session, opening: Opening, key: str) -> starting.StartLocked | None:
        table_id, shift_id, _current = opening.found
        return starting.lock(session, table_id, shift_id, key, by_start_key=True)

    def insert(self, session: Session, opening: Opening, locked: starting.StartLocked,
               empty: Loaded | None, actor_id: int, key: str) -> Loaded:
        table_id, shift_id, _current = opening.found
        start = poker_tables.hand_start(session, table_id)  # marks the blinds missed meanwhile
        if self.keyed:
            start["idempotency_key"] = key
        parse_hand(start)  # the engine checks the start before anything is stored
        # the dealer of record is the one tapped in at the table when the hand starts
        dealer = reliefs.dealer_for_round(session, shift_id=shift_id, actor_id=actor_id)
        rnd = starting.insert_round(session, table_id=table_id, shift_id=shift_id,
                                    number=locked.last_number + 1, rules=start,
                                    start_key=key, dealer_id=dealer)
        engine = engine_of(start)
        return Loaded(rnd.id, rnd.number, rnd.status, shift_id, start, engine, [],
                      memo.replay(engine, start, []), row=rnd, facts=Facts(table_id))


def current_hand_id(session: Session, table_id: int) -> int | None:
    found = session.exec(select(Round.id).where(Round.table_id == table_id,
                                                Round.status == RoundStatus.OPEN.value)).first()
    return found


def last_hand_id(session: Session, table_id: int, shift_id: int) -> int | None:
    """The table's latest hand in this shift (open or finished): the screen shows its awards
    until the next hand is dealt."""
    found = session.exec(select(Round.id).where(Round.table_id == table_id,
                                                Round.shift_id == shift_id)
                         .order_by(col(Round.number).desc())).first()
    return found


def load(session: Session, round_id: int) -> PokerHand:
    return view(POKER.load(session, round_id))


def record(session: Session, *, round_id: int, action: Mapping[str, Any], user_id: int,
           idempotency_key: str, expected_seq: int | None = None) -> PokerHand:
    """Verify ``action`` against the replayed hand and append it (or return the hand as it is
    when this key already recorded this action)."""
    return view(_record(session, round_id, ACTION, action, user_id, idempotency_key,
                        expected_seq).loaded)


def undo(session: Session, *, round_id: int, user_id: int, idempotency_key: str,
         expected_seq: int | None = None) -> PokerHand:
    """Take back the last action in force while the hand is open: an ``undo`` event naming it
    (events are never deleted). A resent undo (same key) records once."""
    return view(_record(session, round_id, UNDO, {}, user_id, idempotency_key,
                        expected_seq).loaded)


def _record(session: Session, round_id: int, type: str, payload: Mapping[str, Any],
            user_id: int, key: str, expected_seq: int | None) -> Recorded:
    return record_path.record(session, POKER, round_id, actor_id=user_id, type=type,
                       payload={k: v for k, v in payload.items() if v is not None},
                       idempotency_key=key, expected_seq=expected_seq)


def void_pending(session: Session, round_id: int) -> bool:
    """A void of the hand waits for a pit boss (the freeze): nothing is recorded."""
    return pending(void_request(session, round_id))


def recompute(session: Session, round_id: int) -> tuple[dict[str, Any] | None, str | None]:
    """The review's recomputation: the hand replayed from its events only."""
    state = load(session, round_id).state
    if state.status != "complete":
        return None, "the events do not make a complete hand"
    return settlement_of(state), None


def settlement_of(state: HandState) -> dict[str, Any]:
    """What a finished hand stores: the calculator's answer, plus each seat's net as a "box"
    line so the floor's round list shows a poker hand the way it shows a house round."""
    return engine_of({"profile": state.profile.name}).settle(state).to_dict()  # type: ignore[no-any-return]
