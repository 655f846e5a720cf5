"""The OpenAPI entries of the poker tables and hands API (issue 15, :mod:`.poker_rounds`).

Kept beside :mod:`.openapi` (which appends :data:`ENDPOINT_ARGS` as ``Endpoint`` rows and
:data:`SCHEMAS` to its components) so the house games' document stays one screenful per part.
"""

from __future__ import annotations

from typing import Any

from .openapi_schemas import INT, MONEY, SEAT, STR, ref

SEAT_CHANGES = ["rebuy", "playing", "sitting_out", "left"]

SCHEMAS: dict[str, Any] = {
    "PokerTableCreate": {
        "type": "object", "required": ["name", "profile", "stakes", "seat_count"],
        "properties": {"name": STR, "profile": STR, "stakes": ref("PokerStakes"),
                       "seat_count": {"type": "integer", "minimum": 2, "maximum": 6}}},
    "PokerTable": {
        "type": "object",
        "required": ["id", "name", "profile", "stakes", "seat_count", "button", "hands_dealt",
                     "seats"],
        "properties": {
            "id": INT, "name": STR, "profile": STR, "stakes": {"type": "object"},
            "seat_count": INT, "button": {"type": ["string", "null"]}, "hands_dealt": INT,
            "seats": {"type": "array", "items": {
                "type": "object",
                "required": ["seat", "player", "stack", "bought_in", "cashed_out", "status",
                             "missed"],
                "properties": {"seat": SEAT, "player": STR, "stack": MONEY,
                               "bought_in": MONEY, "cashed_out": MONEY,
                               "status": {"enum": ["playing", "sitting_out", "left"]},
                               "missed": STR}}}}},
    "PokerSeatCreate": {
        "type": "object", "required": ["seat", "buy_in"],
        "properties": {"seat": SEAT, "player": STR, "buy_in": MONEY}},
    "PokerSeatChange": {
        "type": "object", "required": ["change"],
        "properties": {"change": {"enum": SEAT_CHANGES},
                       "amount": {"type": "integer", "minimum": 1,
                                  "description": "rebuy only"}}},
    "PokerHandStart": {"type": "object", "properties": {"idempotency_key": STR}},
    "PokerActionCreate": {
        "type": "object", "required": ["action"],
        "properties": {"action": ref("PokerAction"), "expected_seq": INT,
                       "idempotency_key": STR}},
    "PokerUndo": {"type": "object",
                  "properties": {"expected_seq": INT, "idempotency_key": STR}},
    "PokerTableHand": {
        "type": "object",
        "required": ["id", "table_id", "shift_id", "number", "status", "last_seq", "rules",
                     "actions", "hand"],
        "properties": {
            "id": INT, "table_id": INT, "shift_id": INT, "number": INT,
            "status": {"enum": ["open", "settled", "voided"]}, "last_seq": INT,
            "dealer_id": {"type": ["integer", "null"],
                          "description": "the dealer of record (issue 28)"},
            "undoable": {"type": ["integer", "null"]},
            "rules": {"type": "object", "description": "the hand's start, as the calculator "
                                                      "takes it"},
            "actions": {"type": "array", "items": ref("PokerAction")},
            "hand": ref("PokerHand")}},
}


def _table(name: str = "table_id") -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": "the poker table",
            "schema": {"type": "integer"}}


ROUND = {"name": "round_id", "in": "path", "required": True, "description": "the hand (round)",
         "schema": {"type": "integer"}}
SEAT_PARAM = {"name": "seat", "in": "path", "required": True, "description": "the seat label",
              "schema": {"type": "string"}}

#: (method, path, operation id, summary, answers kind, request, parameters, example)
ENDPOINT_ARGS: list[tuple[str, str, str, str, str, str | None, tuple[dict[str, Any], ...],
                          dict[str, Any] | None]] = [
    ("post", "/api/v1/poker/tables", "poker_open_table", "Open a poker table",
     "write:PokerTable", "PokerTableCreate", (),
     {"name": "PK 1", "profile": "draw32-pot-limit", "stakes": {"small_blind": 10},
      "seat_count": 5}),
    ("get", "/api/v1/poker/tables/{table_id}", "poker_get_table",
     "A poker table with its seats", "read:PokerTable", None, (_table(),), None),
    ("post", "/api/v1/poker/tables/{table_id}/seats", "poker_seat_player",
     "Seat a player with his buy-in", "write:PokerTable", "PokerSeatCreate", (_table(),),
     {"seat": "3", "player": "Ann", "buy_in": 1000}),
    ("post", "/api/v1/poker/tables/{table_id}/seats/{seat}", "poker_change_seat",
     "Rebuy, sit out, come back or leave (cash out)", "write:PokerTable", "PokerSeatChange",
     (_table(), SEAT_PARAM), {"change": "rebuy", "amount": 500}),
    ("post", "/api/v1/poker/tables/{table_id}/hands", "poker_start_hand",
     "Deal the next hand (a round of the open shift)", "write:PokerTableHand",
     "PokerHandStart", (_table(),), {}),
    ("get", "/api/v1/poker/tables/{table_id}/hands/current", "poker_current_hand",
     "The hand being dealt at a poker table", "read:PokerTableHand", None, (_table(),), None),
    ("get", "/api/v1/poker/hands/{round_id}", "poker_get_hand", "A poker hand",
     "read:PokerTableHand", None, (ROUND,), None),
    ("post", "/api/v1/poker/hands/{round_id}/actions", "poker_act",
     "Record one action of a poker hand (verified by the engine)", "write:PokerTableHand",
     "PokerActionCreate", (ROUND,),
     {"action": {"type": "call", "seat": "1"}, "expected_seq": 0}),
    ("post", "/api/v1/poker/hands/{round_id}/undo", "poker_undo",
     "Take back the last action in force", "write:PokerTableHand", "PokerUndo", (ROUND,),
     {"expected_seq": 4}),
]
