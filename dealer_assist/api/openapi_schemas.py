"""The OpenAPI document's ``components`` (JSON Schema 2020-12, as OpenAPI 3.1 uses): plain data.

Schemas describe what the API accepts and answers, as ``docs/api.md`` states it; they are
deliberately no stricter than the engine (which does the real checking and answers 422 with a
problem body), so a request the schema allows may still be refused by a house rule. Responses
are reusable problem answers, one per status. ``tests/api/test_openapi.py`` validates the
examples of ``docs/api.md`` against these schemas.
"""

from __future__ import annotations

from typing import Any

JSON = "application/json"
PROBLEM = "application/problem+json"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


INT = {"type": "integer"}
STR = {"type": "string"}
CARD = {"type": "string", "description": "a card: As, Kd, 10h, T♣ (either case)",
        "examples": ["As", "10h"]}
CARDS = {"description": "cards: a list of card codes or one space-separated string",
         "oneOf": [{"type": "array", "items": CARD}, {"type": "string"}]}
MONEY = {"type": "integer", "description": "chips in the table's currency unit"}
WHEN = {"type": "string", "format": "date-time"}
NULLABLE_WHEN = {"type": ["string", "null"], "format": "date-time"}
DISCARD_DRAW = {"type": "object", "properties": {"discard": CARDS, "draw": CARDS}}

SEAT = {"type": "string", "description": "a seat name, as the request gives it"}
CHIPS_BY_SEAT = {"type": "object", "additionalProperties": MONEY}
SEATS_LIST = {"type": "array", "items": SEAT}
SPAN = {"type": ["object", "null"], "required": ["min_to", "max_to"],
        "properties": {"min_to": MONEY, "max_to": MONEY},
        "description": "smallest and largest 'raise to' (null: not allowed)"}
POKER_PROFILES = [f"{game}-{structure}" for game in ("americana", "draw32")
                  for structure in ("limit", "pot-limit", "no-limit")]
POKER_ACTIONS = ["street", "bring_in", "check", "call", "bet", "raise", "fold", "draw",
                 "parole", "show", "muck"]
POKER_STATUSES = ["betting", "street", "draw", "parole", "showdown", "complete"]

#: ``POST /api/v1/poker/hand`` (docs/api.md, "Poker room")
POKER_SCHEMAS: dict[str, Any] = {
    "PokerStakes": {
        "type": "object",
        "description": "stud: ante (bring_in defaults to 2 x ante); draw: small_blind "
                       "(big_blind defaults to 2 x SB, over_blind to 2 x BB)",
        "properties": {"ante": {"type": "integer", "minimum": 0}, "bring_in": MONEY,
                       "small_blind": MONEY, "big_blind": MONEY, "over_blind": MONEY}},
    "PokerSeat": {
        "type": "object", "required": ["seat", "stack"],
        "properties": {
            "seat": SEAT,
            "stack": {"type": "integer", "minimum": 1,
                      "description": "chips before the hand"},
            "missed": {"enum": ["small", "small_big", "all", "new", None],
                       "description": "draw only: the blinds a returning player missed"}}},
    "PokerAction": {
        "type": "object", "required": ["type"],
        "properties": {
            "type": {"enum": POKER_ACTIONS},
            "seat": {"type": ["string", "null"]},
            "to": {"type": ["integer", "null"], "minimum": 1,
                   "description": "bet and raise: the player's total bet in the round"},
            "up": {"type": "object", "additionalProperties": CARD,
                   "description": "street (stud): seat -> up card"},
            "discard": {"type": "integer", "description": "draw: 0 to 4 cards"},
            "agreed": {"type": "boolean", "description": "parole: everyone still in agreed"},
            "cards": CARDS}},
    "PokerHandRequest": {
        "type": "object", "required": ["profile", "stakes", "button", "seats"],
        "properties": {
            "profile": {"enum": POKER_PROFILES}, "stakes": ref("PokerStakes"),
            "button": SEAT,
            "seats": {"type": "array", "items": ref("PokerSeat"),
                      "description": "clockwise"},
            "actions": {"type": "array", "items": ref("PokerAction"),
                        "description": "everything since the deal, in order"}}},
    "PokerHand": {
        "type": "object",
        "required": ["status", "round", "pot", "posted", "committed", "stacks", "to_act",
                     "legal"],
        "properties": {
            "status": {"enum": POKER_STATUSES}, "round": INT, "pot": MONEY,
            "posted": {"type": "array", "items": {
                "type": "object", "required": ["seat", "kind", "amount", "dead"],
                "properties": {"seat": SEAT,
                               "kind": {"enum": ["ante", "small_blind", "big_blind",
                                                 "over_blind"]},
                               "amount": MONEY, "dead": {"type": "boolean"}}}},
            "committed": CHIPS_BY_SEAT, "stacks": CHIPS_BY_SEAT,
            "bring_in": {"type": ["string", "null"], "description": "stud only"},
            "to_act": {"type": ["string", "null"]},
            "legal": {
                "type": "object",
                "required": ["fold", "check", "call", "bring_in", "bet", "raise", "parole"],
                "properties": {"fold": {"type": "boolean"}, "check": {"type": "boolean"},
                               "call": {"type": ["integer", "null"]},
                               "bring_in": {"type": ["integer", "null"]},
                               "bet": SPAN, "raise": SPAN, "parole": {"type": "boolean"}}},
            "deck": {"type": "object", "required": ["left", "reshuffle"],
                     "description": "draw only",
                     "properties": {"left": INT, "reshuffle": SEATS_LIST}},
            "show_order": SEATS_LIST,
            "pots": {"type": "array", "items": {
                "type": "object", "required": ["amount", "eligible", "winners", "awards"],
                "properties": {"amount": MONEY, "eligible": SEATS_LIST,
                               "winners": SEATS_LIST, "awards": CHIPS_BY_SEAT}}},
            "rake": MONEY, "net": CHIPS_BY_SEAT}},
}

PLAYER = {"type": "string", "description": "a player's name"}
PLAYERS = {"type": "array", "items": PLAYER}
HANDS = {"type": "object", "additionalProperties": CARDS, "description": "player -> cards"}
LABELS = {"type": "object", "additionalProperties": STR, "description": "player -> hand name"}

#: ``POST /api/v1/parlour/hand`` and ``/parlour/end`` (docs/api.md, "Parlour Americana")
PARLOUR_SCHEMAS: dict[str, Any] = {
    "ParlourBoard": {
        "type": "object",
        "properties": {
            "pool": INT,
            "sections": {"type": "object", "additionalProperties": INT,
                         "description": "ante, 8-9-10, KQ-clubs, Ah, Kh, Qh, Jh, 10h; "
                                        "a section left out holds 0"}}},
    "ParlourHandRequest": {
        "type": "object", "required": ["players", "hands", "extra"],
        "properties": {
            "profile": {"type": "string", "default": "parlour-americana"},
            "variant": {"enum": ["basic", "clockwise"]},
            "players": {**PLAYERS, "description": "the dealer first, then clockwise"},
            "board": ref("ParlourBoard"), "hands": HANDS, "extra": CARDS,
            "extra_hand": {
                "type": "object", "required": ["action"],
                "properties": {"action": {"enum": ["keep", "exchange", "sell"]},
                               "buyer": PLAYER, "price": INT}},
            "betting": {"type": "array", "items": {
                "type": "object", "required": ["player", "type"],
                "properties": {"player": PLAYER,
                               "type": {"enum": ["bet", "call", "raise", "pass"]},
                               "amount": {"type": ["integer", "null"],
                                          "description": "bet and raise: chips added "
                                                         "above the current bet"}}}}}},
    "ParlourHand": {
        "type": "object",
        "required": ["antes", "pool", "sections", "playout", "board_after", "net"],
        "properties": {
            "antes": CHIPS_BY_SEAT,
            "held": HANDS,
            "dead": {"type": "array", "items": CARD},
            "pool": {
                "type": "object", "required": ["amount", "winners", "awards"],
                "properties": {"amount": MONEY, "winners": PLAYERS,
                               "awards": CHIPS_BY_SEAT,
                               "outcome": {"enum": ["no_bet", "uncalled", "showdown"]},
                               "shows": PLAYERS, "hands": LABELS}},
            "sections": {"type": "object", "additionalProperties": {
                "type": "object", "required": ["chips", "winners", "awards", "to_ante"],
                "properties": {"chips": MONEY, "winners": PLAYERS,
                               "awards": CHIPS_BY_SEAT, "to_ante": MONEY}}},
            "playout": {
                "type": "object",
                "required": ["plays", "winner", "paid_during", "payments", "ante_won"],
                "properties": {
                    "plays": {"type": "array", "items": {
                        "type": "object",
                        "properties": {"player": PLAYER, "card": CARD,
                                       "lead": {"type": "boolean"},
                                       "pays": INT, "stop": CARD, "leads": PLAYER}}},
                    "winner": STR, "paid_during": CHIPS_BY_SEAT,
                    "payments": CHIPS_BY_SEAT, "ante_won": MONEY}},
            "board_after": ref("ParlourBoard"),
            "net": CHIPS_BY_SEAT}},
    "ParlourEndRequest": {
        "type": "object", "required": ["players", "hands"],
        "properties": {
            "profile": {"type": "string", "default": "parlour-americana"},
            "players": PLAYERS, "board": ref("ParlourBoard"),
            "hands": {**HANDS, "description": "player -> five cards, face up"}}},
    "ParlourEnd": {
        "type": "object", "required": ["winners", "awards", "hands", "left"],
        "properties": {"winners": PLAYERS, "awards": CHIPS_BY_SEAT, "hands": LABELS,
                       "left": MONEY}},
}

SCHEMAS: dict[str, Any] = {
    "Problem": {
        "type": "object", "description": "RFC 9457 problem body",
        "required": ["type", "title", "status", "detail"],
        "properties": {"type": STR, "title": STR, "status": INT, "detail": STR,
                       "field": STR},
    },
    "RulesProblem": {
        "description": "422: well-formed JSON that breaks a rule",
        "allOf": [ref("Problem"), {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": (
                    "machine-readable: invalid_field, card_parse_error, duplicate_card, "
                    "card_not_in_deck, card_count, invalid_stake, illegal_action, "
                    "house_rules_error (calculators and rounds)")},
                "field": {"type": "string", "description": "path of the offending entry"},
                "value": {"description": "the offending value"}}}]},
    "Table": {"type": "object", "properties": {
        "min_ante": MONEY, "max_ante": MONEY, "max_payout": MONEY}},
    "SettleBox": {
        "type": "object", "required": ["ante", "cards"],
        "properties": {
            "box": STR, "seat": STR, "ante": MONEY, "bonus": MONEY, "cards": CARDS,
            "improvement": {"type": "object", "properties": {
                "exchange": DISCARD_DRAW, "sixth_card": CARD, "replace": DISCARD_DRAW}},
            "extra": {"type": "object", "properties": {
                "mode": {"enum": ["free", "bought"]}, "cards": CARDS}},
            "split": {"type": "object", "properties": {"big": CARDS, "small": CARDS}},
            "decision": {"enum": ["bet", "fold"]}, "bet": MONEY, "insurance": MONEY,
            "on_no_game": {"enum": ["take_ante", "buy_game"]}}},
    "SettleRequest": {
        "type": "object", "required": ["dealer", "boxes"],
        "properties": {
            "profile": {"type": "string", "examples": ["russian-classic"]},
            "table": ref("Table"),
            "dealer": {"type": "object", "required": ["cards"],
                       "properties": {"cards": CARDS, "draw": CARDS, "small": CARDS}},
            "boxes": {"type": "array", "minItems": 1, "items": ref("SettleBox")}}},
    "Hand": {"type": ["object", "null"], "properties": {
        "category": STR, "label": STR, "cards": {"type": "array", "items": CARD},
        "significant": {"type": "array", "items": CARD}}},
    "Wager": {"type": "object", "required": ["stake", "outcome", "net", "explanation"],
              "properties": {"stake": MONEY, "outcome": {"enum": ["win", "lose", "push"]},
                             "net": MONEY, "explanation": STR}},
    "BoxSettlement": {
        "type": "object",
        "required": ["box", "seat", "folded", "wagers", "net", "combinations", "capped"],
        "properties": {
            "box": STR, "seat": STR, "folded": {"type": "boolean"}, "hand": ref("Hand"),
            "small_hand": ref("Hand"),
            "wagers": {"type": "object", "additionalProperties": ref("Wager")},
            "net": MONEY, "capped": {"type": "boolean"}, "explanation": STR,
            "combinations": {"type": "array", "items": {"type": "object", "properties": {
                "category": STR, "cards": {"type": "array", "items": CARD},
                "multiplier": INT}}},
            "notes": {"type": "array", "items": STR}}},
    "Settlement": {
        "type": "object", "required": ["game", "profile", "dealer", "boxes", "house_net"],
        "properties": {
            "game": STR, "profile": STR,
            "dealer": {"type": "object", "required": ["cards", "qualified"], "properties": {
                "cards": {"type": "array", "items": CARD}, "hand": ref("Hand"),
                "qualified": {"type": "boolean"}, "bought": {"type": "boolean"}}},
            "boxes": {"type": "array", "items": ref("BoxSettlement")},
            "house_net": MONEY, "notes": {"type": "array", "items": STR}}},
    "SuggestRequest": {
        "type": "object", "required": ["cards", "dealer_up"],
        "properties": {
            "profile": {"type": "string", "default": "split-classic"}, "cards": CARDS,
            "dealer_up": CARDS, "known": CARDS, "seed": INT,
            "samples": {"type": "integer", "minimum": 100, "maximum": 50_000,
                        "description": "above the cap (SPLIT_MAX_SAMPLES) a 422 names it"},
            "top": {"type": "integer", "minimum": 1}}},
    "Suggestion": {
        "type": "object",
        "required": ["options", "fold_ev", "fold_is_better", "samples", "method", "unit"],
        "properties": {
            "cards": {"type": "array", "items": CARD}, "dealer_up": CARD, "samples": INT,
            "method": STR, "unit": STR, "fold_ev": {"type": "number"},
            "fold_is_better": {"type": "boolean"},
            "explanation": {"type": "array", "items": STR,
                            "description": "the best splits and the fold, in plain words"},
            "options": {"type": "array", "items": {
                "type": "object", "required": ["big", "small", "ev", "se"],
                "properties": {"big": {"type": "array", "items": CARD},
                               "small": {"type": "array", "items": CARD},
                               "big_hand": STR, "small_hand": STR,
                               "ev": {"type": "number"}, "se": {"type": "number"},
                               "counts": {"type": "object",
                                          "additionalProperties": INT},
                               "explanation": STR}}}}},
    "RoundCreate": {
        "type": "object", "required": ["boxes"],
        "properties": {"idempotency_key": STR, "boxes": {"type": "array", "items": {
            "type": "object", "required": ["box", "ante"],
            "properties": {"box": STR, "ante": MONEY, "bonus": MONEY, "seat": STR}}}}},
    "EventCreate": {
        "type": "object", "required": ["type"],
        "properties": {"type": {"type": "string", "examples": ["deal_box", "bet", "paid"]},
                       "payload": {"type": "object"}, "expected_seq": INT,
                       "idempotency_key": STR}},
    "Round": {
        "type": "object",
        "required": ["id", "table_id", "shift_id", "number", "status", "events", "state"],
        "properties": {
            "id": INT, "table_id": INT, "shift_id": INT, "number": INT,
            "status": {"enum": ["open", "settled", "voided"]}, "opened_at": WHEN,
            "dealer_id": {"type": ["integer", "null"],
                          "description": "the dealer of record: who was tapped in at the table "
                                         "when the round started (issue 28)"},
            "game": STR, "profile": STR,
            "events": {"type": "array", "items": {"type": "object", "properties": {
                "seq": INT, "type": STR, "payload": {"type": "object"},
                "actor_id": {"type": ["integer", "null"]}, "created_at": WHEN}}},
            "state": {"type": "object"},
            "settlement": {"oneOf": [ref("Settlement"), {"type": "null"}]},
            "stored_settlement": {"type": ["object", "null"]},
            "void_request": {"type": ["object", "null"]}}},
    "Decision": {"type": "object", "properties": {
        "number": INT, "outcome": STR, "adjustment": MONEY, "note": STR, "decided_by": INT,
        "decided_by_name": STR, "decided_at": WHEN}},
    "Dispute": {
        "type": "object",
        "required": ["id", "round_id", "round_number", "table_id", "box", "claimed_amount",
                     "status", "decisions"],
        "properties": {
            "id": INT, "round_id": INT, "round_number": INT, "table_id": INT,
            "table_name": STR, "shift_id": INT, "box": STR, "claim": STR,
            "claimed_amount": MONEY, "croupier_note": STR,
            "camera": {"type": ["string", "null"]}, "camera_time": {"type": ["string", "null"]},
            "filed_by": INT, "filed_by_name": STR, "filed_at": WHEN,
            "status": {"enum": ["open", "upheld", "denied", "escalated"]},
            "decisions": {"type": "array", "items": ref("Decision")},
            "review": {"type": "object"}, "corrections": {"type": "array"}}},
    "ChangeRequest": {
        "type": "object", "required": ["id", "round_id", "kind", "reason", "status"],
        "properties": {
            "id": INT, "round_id": INT, "round_number": INT, "table_id": INT, "shift_id": INT,
            "kind": {"enum": ["void", "correction"]}, "box": {"type": ["string", "null"]},
            "amount": MONEY, "reason": STR, "requested_by": INT, "requested_by_name": STR,
            "requested_at": WHEN, "approved": {"type": ["boolean", "null"]}, "note": STR,
            "decided_by": {"type": ["integer", "null"]},
            "decided_by_name": {"type": ["string", "null"]}, "decided_at": NULLABLE_WHEN,
            "status": {"enum": ["pending", "approved", "rejected"]}}},
    "Correction": {"type": "object", "required": ["id", "round_id", "amount", "source"],
                   "properties": {"id": INT, "round_id": INT, "amount": MONEY,
                                  "source": {"enum": ["dispute", "correction", "reversal"]},
                                  "reason": STR}},
    "AuditHead": {"type": "object", "required": ["seq", "hash"], "properties": {
        "seq": INT, "hash": {"type": ["string", "null"]}, "at": NULLABLE_WHEN}},
    **POKER_SCHEMAS,
    **PARLOUR_SCHEMAS,
}


def _problem(description: str, *, rules: bool = False, **example: Any) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": ref("RulesProblem" if rules else "Problem")}
    if example:
        content["example"] = {"type": "about:blank", **example}
    return {"description": description, "content": {PROBLEM: content}}


RESPONSES: dict[str, Any] = {
    "BadRequest": _problem("the body is not JSON", title="Malformed JSON", status=400,
                           detail="the request body is not valid JSON"),
    "Unauthorized": _problem("no login session", title="Not signed in", status=401,
                             detail="sign in first (session cookie)"),
    "Forbidden": _problem("wrong role, or a write without the X-CSRF-Token header",
                          title="Not allowed", status=403,
                          detail="only table staff record rounds"),
    "NotFound": _problem("unknown id, game or route", title="Not Found", status=404,
                         detail="No round with id 42."),
    "Conflict": _problem("a key reused for another step, a stale expected_seq, a closed "
                         "round, no open shift", title="Conflict", status=409,
                         detail="This round is closed."),
    "Unprocessable": _problem(
        "well-formed JSON that breaks a rule", rules=True, title="The request breaks a rule",
        status=422, code="duplicate_card", field="dealer.draw", value="7d",
        detail="7d (card 2) is already on the table (first named in boxes[0].cards)"),
    "TooManyRequests": {
        **_problem("the public calculators' rate limit (PUBLIC_API_RATE_LIMIT) is reached",
                   title="Too Many Requests", status=429,
                   detail="60 per 1 minute"),
        "headers": {"Retry-After": {"description": "seconds until a call is accepted again",
                                    "schema": INT}}},
}

SECURITY_SCHEMES: dict[str, Any] = {
    "session": {"type": "apiKey", "in": "cookie", "name": "session",
                "description": "the web app's login session cookie (sign in at /login)"},
}
