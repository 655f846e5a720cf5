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
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundStatus
from ...rules.engine import UNDO, Game
from ...rules.games.poker import HandState, get_poker_profile, hand_to_dict, parse_hand
from ...rules.games.poker import shown_hands as shown_hands
from ...rules.games.registry import get_game
from ..errors import N_, Conflict, NotFound
from ..people import stints
from ..shifts import shifts
from ..tables import poker as poker_tables
from . import record as path
from . import store as rounds
from . import txn
from .house import (
    check_recorder,
    loaded_round,
    lock_round,
    pending,
    read_round,
    store_round_settlement,
    void_request,
)
from .record import Closed, Loaded, Locked, Recorded, Wording

ACTION = "action"
ENGINE_VERSION = "dealer_assist poker 1"


@dataclass(frozen=True, slots=True)
class PokerHand:
    """A hand as the screen and the API show it, replayed from its events."""

    round: rounds.RoundView
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


def flow_of(rules: Mapping[str, Any]) -> Game[Any]:
    """The poker game a hand's start names (by its profile)."""
    return get_game(get_poker_profile(str(rules["profile"])).game).flow


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
        return loaded_round(session, got, flow_of(rules), rules, lambda _request: got.round,
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
        head: rounds.RoundView = loaded.head
        poker_tables.finish_hand(session, head.table_id, loaded.rules["button"], state.stacks)
        session.flush()
        return closed


POKER = PokerStream()


def view(loaded: Loaded) -> PokerHand:
    """The hand as the screen shows it, from the stream as read or as just recorded."""
    head: rounds.RoundView = loaded.head
    if head.status != loaded.status:
        head = replace(head, status=loaded.status)
    effective = set(loaded.effective)
    actions = [e.payload for e in loaded.events if e.seq in effective]
    return PokerHand(head, loaded.rules, actions, loaded.folded.state, loaded.last_seq,
                     loaded.last_step)


def start_hand(session: Session, *, table_id: int, user_id: int,
               idempotency_key: str | None = None) -> PokerHand:
    """Deal the next hand in the table's open shift: its start becomes the round's rules."""
    return txn.run(session, lambda: _start_once(session, table_id, user_id, idempotency_key))


def _start_once(session: Session, table_id: int, user_id: int,
                idempotency_key: str | None) -> PokerHand:
    txn.begin_read(session)
    poker_tables.get(session, table_id)
    shift = shifts.open_shift_of(session, table_id)
    if shift is None:
        raise Conflict("Open a shift at this table first.")
    check_recorder(session, user_id, shift.id, N_("Only table staff deal hands."),
                   "recording an action")
    txn.begin_write(session)
    txn.lock_table(session, table_id)  # one hand dealt at a time
    if current_hand_id(session, table_id) is not None:
        raise Conflict("A hand is already being dealt at this table.")
    start = poker_tables.hand_start(session, table_id)  # marks the blinds missed meanwhile
    if idempotency_key:
        start["idempotency_key"] = idempotency_key[:rounds.KEY_MAX]
    parse_hand(start)  # the engine checks the start before anything is stored
    # the dealer of record is the one tapped in at the table when the hand starts
    dealer = stints.dealer_for_round(session, shift_id=shift.id, actor_id=user_id)
    started = rounds.start_round(session, shift_id=shift.id, rules=start, dealer_id=dealer)
    return load(session, started.id)


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
    return path.record(session, POKER, round_id, actor_id=user_id, type=type,
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
    return flow_of({"profile": state.profile.name}).settle(state).to_dict()  # type: ignore[no-any-return]
