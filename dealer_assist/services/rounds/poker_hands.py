"""A poker hand as a round of the table's shift (issue 15), on the house games' round model.

The hand's start (profile, stakes, button, seats dealt in with stacks and missed blinds) is the
round's own ``rules``; each dealer action is one ``action`` event whose payload is the action in
the calculator's JSON (``docs/api.md``, POST /api/v1/poker/hand). The state is always
``parse_hand(rules + actions)``: replay from the events only. A refused action stores nothing;
a resent action (same idempotency key, same action) records once; ``expected_seq`` refuses an
action entered on a screen that was behind (another tablet). The action that completes the hand
stores the result (``RoundSettlement``), settles the round, carries the stacks to the seats and
keeps the button for the next hand.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from ...models import Round, RoundEvent, RoundSettlement, RoundStatus, User
from ...rules.evaluator import evaluate
from ...rules.poker import HandState, hand_to_dict, parse_hand
from ..errors import Conflict, NotFound, PermissionDenied
from ..people import duties
from ..shifts import shifts
from ..tables import poker as poker_tables
from . import store as rounds
from . import txn

ACTION, UNDO = "action", "undo"
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
                "status": r.status, "last_seq": self.last_seq, "undoable": self.undoable,
                "rules": self.rules,
                "actions": self.actions, "hand": hand_to_dict(self.state)}


def _recorder(session: Session, user_id: int, shift_id: int | None = None) -> None:
    """Table staff only; a croupier only at the shift he opened or co-signed (duties rule 5);
    nothing on a closed shift (rule 6)."""
    user = session.get(User, user_id)
    if user is None or not user.active or user.role not in shifts.OPENERS:
        raise PermissionDenied("Only table staff deal hands.")
    if shift_id is not None:
        duties.check_recorder(session, user=user, shift_id=shift_id)
        duties.check_shift_open(session, shift_id, "recording an action")


def start_hand(session: Session, *, table_id: int, user_id: int,
               idempotency_key: str | None = None) -> PokerHand:
    """Deal the next hand in the table's open shift: its start becomes the round's rules."""
    poker_tables.get(session, table_id)
    shift = shifts.open_shift_of(session, table_id)
    if shift is None:
        raise Conflict("Open a shift at this table first.")
    _recorder(session, user_id, shift.id)
    txn.lock_table(session, table_id)  # one hand dealt at a time (PostgreSQL row lock)
    if current_hand_id(session, table_id) is not None:
        raise Conflict("A hand is already being dealt at this table.")
    start = poker_tables.hand_start(session, table_id)
    if idempotency_key:
        start["idempotency_key"] = idempotency_key[:rounds.KEY_MAX]
    parse_hand(start)  # the engine checks the start before anything is stored
    view = rounds.start_round(session, shift_id=shift.id, rules=start)
    return load(session, view.id)


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
    row = session.get(Round, round_id)
    if row is None or not row.rules:
        raise NotFound("No poker hand with id %(round_id)s.", round_id=round_id)
    rules: dict[str, Any] = json.loads(row.rules)
    if "seats" not in rules or "button" not in rules:
        raise NotFound("Round %(round_id)s is not a poker hand.", round_id=round_id)
    events = rounds.events(session, round_id)
    effective: list[tuple[int, dict[str, Any]]] = []
    for e in events:
        if e.type == ACTION:
            effective.append((e.seq, e.payload))
        elif e.type == UNDO and effective and effective[-1][0] == e.payload.get("seq"):
            effective.pop()
    actions = [payload for _, payload in effective]
    state = parse_hand({**rules, "actions": actions})
    return PokerHand(rounds.round_view(row), rules, actions, state,
                     events[-1].seq if events else 0,
                     effective[-1][0] if effective else None)


def record(session: Session, *, round_id: int, action: Mapping[str, Any], user_id: int,
           idempotency_key: str, expected_seq: int | None = None) -> PokerHand:
    """Verify ``action`` against the replayed hand and append it (or return the hand as it is
    when this key already recorded this action)."""
    txn.lock_round(session, round_id)  # one writer per hand (PostgreSQL row lock)
    hand = load(session, round_id)
    _recorder(session, user_id, hand.round.shift_id)
    payload = {k: v for k, v in action.items() if v is not None}
    if _already(session, round_id, idempotency_key, payload):
        return hand
    if hand.round.status != RoundStatus.OPEN.value:
        raise Conflict("Hand %(number)s is %(status)s; it takes no more actions.",
                       number=hand.round.number, status=hand.round.status)
    _not_frozen(session, hand)
    if expected_seq is not None and expected_seq != hand.last_seq:
        raise Conflict("The hand moved on on another tablet; reload it.")
    state = parse_hand({**hand.rules, "actions": [*hand.actions, payload]})
    rounds.append_event(session, round_id=round_id, type=ACTION, payload=payload,
                        actor_id=user_id, idempotency_key=idempotency_key)
    if state.status == "complete":
        _complete(session, hand, state)
    return load(session, round_id)


def undo(session: Session, *, round_id: int, user_id: int, idempotency_key: str,
         expected_seq: int | None = None) -> PokerHand:
    """Take back the last action in force while the hand is open: an ``undo`` event naming it
    (events are never deleted). A resent undo (same key) records once."""
    txn.lock_round(session, round_id)
    hand = load(session, round_id)
    _recorder(session, user_id, hand.round.shift_id)
    found = session.exec(select(RoundEvent).where(RoundEvent.round_id == round_id,
                                                  RoundEvent.idempotency_key
                                                  == idempotency_key)).first()
    if found is not None:
        if found.type != UNDO:
            raise Conflict("This idempotency key was already used for a different action.")
        return hand
    if hand.round.status != RoundStatus.OPEN.value:
        raise Conflict("Hand %(number)s is %(status)s; nothing to undo.",
                       number=hand.round.number, status=hand.round.status)
    _not_frozen(session, hand)
    if expected_seq is not None and expected_seq != hand.last_seq:
        raise Conflict("The hand moved on on another tablet; reload it.")
    if hand.undoable is None:
        raise Conflict("Nothing to undo: no action is recorded in this hand.")
    rounds.append_event(session, round_id=round_id, type=UNDO, payload={"seq": hand.undoable},
                        actor_id=user_id, idempotency_key=idempotency_key)
    return load(session, round_id)


def void_pending(session: Session, round_id: int) -> bool:
    """A void of the hand waits for a pit boss (issue 6's freeze): nothing is recorded."""
    from ..disputes import voids

    return any(c.status == voids.PENDING
               for c in voids.changes(session, kind="void", round_id=round_id))


def _not_frozen(session: Session, hand: PokerHand) -> None:
    if void_pending(session, hand.round.id):
        raise Conflict("Hand %(number)s waits for a pit boss to decide on its void; nothing "
                       "can be recorded until then.",
                       number=hand.round.number)


def _already(session: Session, round_id: int, key: str, payload: Mapping[str, Any]) -> bool:
    found = session.exec(select(RoundEvent).where(RoundEvent.round_id == round_id,
                                                  RoundEvent.idempotency_key == key)).first()
    if found is None:
        return False
    if found.type != ACTION or found.payload != rounds.encode_payload(payload):
        raise Conflict("This idempotency key was already used for a different action.")
    return True


def is_poker(rules: Mapping[str, Any]) -> bool:
    """A round's rules are a poker hand's start (profile by name, button, seats)."""
    return isinstance(rules.get("profile"), str) and "seats" in rules and "button" in rules


def recompute(session: Session, round_id: int) -> tuple[dict[str, Any] | None, str | None]:
    """The review's recomputation: the hand replayed from its events only."""
    state = load(session, round_id).state
    if state.status != "complete":
        return None, "the events do not make a complete hand"
    return settlement_of(state), None


def settlement_of(state: HandState) -> dict[str, Any]:
    """What a finished hand stores: the calculator's answer, plus each seat's net as a "box"
    line so the floor's round list shows a poker hand the way it shows a house round."""
    out = hand_to_dict(state)
    shown = shown_hands(state)
    out["boxes"] = [{"box": seat, "net": net, "wagers": {}, "hand": shown.get(seat),
                     "folded": seat in state.folded, "capped": False}
                    for seat, net in out["net"].items()]
    return out


def shown_hands(state: HandState) -> dict[str, dict[str, Any]]:
    """Each shown hand's five cards and name (stud: the up cards with the hole card)."""
    out = {}
    for seat, cards in state.shown.items():
        full = cards if len(cards) == 5 else (*state.up.get(seat, ()), *cards)
        if len(full) == 5:
            value = evaluate(full, state.profile.ranking)
            # ``value``: category and cards in the engine's order, for the edge to name it
            out[seat] = {"label": value.label, "cards": [c.code for c in full],
                         "value": {"category": value.category.value,
                                   "cards": [c.code for c in value.cards]}}
    return out


def _complete(session: Session, hand: PokerHand, state: HandState) -> None:
    """Store the result, settle the round, carry the stacks, keep the button."""
    row = session.get(Round, hand.round.id)
    assert row is not None
    last = session.exec(select(RoundEvent.seq).where(RoundEvent.round_id == row.id)
                        .order_by(col(RoundEvent.seq).desc())).first()
    session.add(RoundSettlement(round_id=hand.round.id, through_seq=last or 0,
                                settlement=rounds.encode_payload(settlement_of(state)),
                                engine_version=ENGINE_VERSION, profile=state.profile.name,
                                profile_version=state.profile.structure))
    row.status = RoundStatus.SETTLED.value
    poker_tables.finish_hand(session, row.table_id, hand.rules["button"], state.stacks)
    session.flush()
