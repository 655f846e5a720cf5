"""The stateful rounds API for poker hands (``docs/api.md``, "Poker tables and hands").

Same authentication, CSRF header, idempotency and error bodies as the house games' rounds API
(:mod:`.rounds`): a hand is a round of the table's shift whose actions are the calculator's
actions (POST /api/v1/poker/hand), verified by the engine before they are stored.
"""

from __future__ import annotations

from typing import Any

from flask import g

from .. import db
from ..edge import problem
from ..rules.phrase import Phrase
from ..services.rounds import poker_hands
from ..services.tables import poker as poker_tables
from .operations import WRITE, answer, parsed, path_param, read_answers, route, write_answers
from .rounds import staff
from .shapes.poker import (
    PokerActionCreate,
    PokerHandStart,
    PokerSeatChange,
    PokerSeatCreate,
    PokerTable,
    PokerTableCreate,
    PokerTableHand,
    PokerUndo,
)

TABLE = path_param("table_id", "the poker table")
HAND = path_param("round_id", "the hand (round)")
SEAT = path_param("seat", "the seat label", type="string")
TAG = "poker tables"


def table_json(view: poker_tables.PokerTableView) -> dict[str, Any]:
    """The table, built by the :class:`~.shapes.poker.PokerTable` shape."""
    return answer(PokerTable, {
        "id": view.id, "name": view.name, "profile": view.profile, "stakes": view.stakes,
        "seat_count": view.seat_count, "button": view.button, "hands_dealt": view.hands_dealt,
        "seats": [{"seat": s.seat, "player": s.player, "stack": s.stack,
                   "bought_in": s.bought_in, "cashed_out": s.cashed_out, "status": s.status,
                   "missed": s.missed} for s in view.seated()]})


def hand_json(hand: poker_hands.PokerHand) -> dict[str, Any]:
    """The hand, built by the :class:`~.shapes.poker.PokerTableHand` shape."""
    return answer(PokerTableHand, hand.to_dict())


@route("post", "/poker/tables", "Open a poker table", tag=TAG, body=PokerTableCreate,
       answers=write_answers(PokerTable), parameters=WRITE,
       example={"name": "PK 1", "profile": "draw32-pot-limit", "stakes": {"small_blind": 10},
                "seat_count": 5})
@staff
def poker_open_table() -> Any:
    new = parsed(PokerTableCreate).got
    dbs = db.get_session()
    view = poker_tables.open_table(dbs, name=new.name, profile=new.profile, stakes=new.stakes,
                                   seat_count=new.seat_count)
    return table_json(view), 201


@route("get", "/poker/tables/<int:table_id>", "A poker table with its seats", tag=TAG,
       answers=read_answers(PokerTable), parameters=(TABLE,))
@staff
def poker_get_table(table_id: int) -> Any:
    return table_json(poker_tables.get(db.get_session(), table_id))


@route("post", "/poker/tables/<int:table_id>/seats", "Seat a player with his buy-in", tag=TAG,
       body=PokerSeatCreate, answers=write_answers(PokerTable), parameters=(TABLE, *WRITE),
       example={"seat": "3", "player": "Ann", "buy_in": 1000})
@staff
def poker_seat_player(table_id: int) -> Any:
    new = parsed(PokerSeatCreate).got
    dbs = db.get_session()
    poker_tables.seat_player(dbs, table_id, seat=new.seat, player=new.player,
                             buy_in=new.buy_in, actor_id=g.user.id)
    return table_json(poker_tables.get(dbs, table_id)), 201


@route("post", "/poker/tables/<int:table_id>/seats/<seat>",
       "Rebuy, sit out, come back or leave (cash out)", tag=TAG, body=PokerSeatChange,
       answers=write_answers(PokerTable), parameters=(TABLE, SEAT, *WRITE),
       example={"change": "rebuy", "amount": 500})
@staff
def poker_change_seat(table_id: int, seat: str) -> Any:
    """``{"change": "rebuy", "amount": 500}`` or ``{"change": "sitting_out" | "playing" |
    "left"}``."""
    asked = parsed(PokerSeatChange).got
    dbs = db.get_session()
    if asked.change == "rebuy":
        poker_tables.rebuy(dbs, table_id, seat, asked.amount, g.user.id)
    else:
        poker_tables.set_status(dbs, table_id, seat, asked.change, g.user.id)
    return table_json(poker_tables.get(dbs, table_id))


@route("post", "/poker/tables/<int:table_id>/hands",
       "Deal the next hand (a round of the open shift)", tag=TAG, body=PokerHandStart,
       answers=write_answers(PokerTableHand), parameters=(TABLE, *WRITE), example={})
@staff
def poker_start_hand(table_id: int) -> Any:
    """Deal the next hand. The same idempotency key answers the hand it dealt again (200)."""
    key = parsed(PokerHandStart).got
    hand, created = poker_hands.deal(db.get_session(), table_id=table_id,  # commits
                                     user_id=g.user.id, idempotency_key=key)
    return hand_json(hand), 201 if created else 200


@route("get", "/poker/tables/<int:table_id>/hands/current",
       "The hand being dealt at a poker table", tag=TAG, answers=read_answers(PokerTableHand),
       parameters=(TABLE,))
@staff
def poker_current_hand(table_id: int) -> Any:
    dbs = db.get_session()
    current = poker_hands.current_hand_id(dbs, table_id)
    if current is None:
        return problem(404, "No hand", Phrase("table %(table)s has no hand in progress",
                                              table=table_id))
    return hand_json(poker_hands.load(dbs, current))


@route("get", "/poker/hands/<int:round_id>", "A poker hand", tag=TAG,
       answers=read_answers(PokerTableHand), parameters=(HAND,))
@staff
def poker_get_hand(round_id: int) -> Any:
    return hand_json(poker_hands.load(db.get_session(), round_id))


@route("post", "/poker/hands/<int:round_id>/actions",
       "Record one action of a poker hand (verified by the engine)", tag=TAG,
       body=PokerActionCreate, answers=write_answers(PokerTableHand), parameters=(HAND, *WRITE),
       example={"action": {"type": "call", "seat": "1"}, "expected_seq": 0})
@staff
def poker_act(round_id: int) -> Any:
    """``{"action": {...as in POST /poker/hand...}, "expected_seq": 3}`` + Idempotency-Key."""
    dbs = db.get_session()
    step = parsed(PokerActionCreate, hand=lambda: poker_hands.load(dbs, round_id).last_seq).got
    hand = poker_hands.record(dbs, round_id=round_id, action=step.action, user_id=g.user.id,
                              idempotency_key=step.key, expected_seq=step.expected_seq)
    return hand_json(hand), 201 if hand.last_seq != step.last_seq else 200


@route("post", "/poker/hands/<int:round_id>/undo", "Take back the last action in force",
       tag=TAG, body=PokerUndo, answers=write_answers(PokerTableHand), parameters=(HAND, *WRITE),
       example={"expected_seq": 4})
@staff
def poker_undo(round_id: int) -> Any:
    """Take back the last action in force: ``{"expected_seq": 4}`` + Idempotency-Key."""
    dbs = db.get_session()
    step = parsed(PokerUndo, hand=lambda: poker_hands.load(dbs, round_id).last_seq).got
    hand = poker_hands.undo(dbs, round_id=round_id, user_id=g.user.id,
                            idempotency_key=step.key, expected_seq=step.expected_seq)
    return hand_json(hand), 201 if hand.last_seq != step.last_seq else 200
