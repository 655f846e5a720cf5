"""``GET /api/v1/openapi.json``: the OpenAPI 3.1 description of the JSON API, built from data.

:data:`ENDPOINTS` holds one :class:`Endpoint` per operation (method, path, request schema,
answers, parameters, an example): a new endpoint is one more entry (the poker-room and parlour
calculators add theirs the same way). The schemas and the reusable problem answers are in
:mod:`.openapi_schemas`. :func:`document` assembles them; ``tests/api/test_openapi.py`` checks
that the document is valid OpenAPI 3.1, that it covers every ``/api`` route of the app, that the
examples of ``docs/api.md`` fit it, and runs schemathesis against the calculators.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import jsonify

from ..web.security import public
from . import bp, openapi_lab, openapi_poker
from .openapi_schemas import JSON, RESPONSES, SCHEMAS, SECURITY_SCHEMES, ref

VERSION = "1.0.0"


@dataclass(frozen=True)
class Endpoint:
    """One operation. ``answers``: status -> schema name (a ``$ref`` under ``schemas``) or the
    name of a reusable problem answer under ``responses`` (``Conflict``, ``Unprocessable``...)."""

    method: str
    path: str
    operation_id: str
    summary: str
    tag: str
    answers: dict[str, str]
    request: str | None = None
    public: bool = False
    parameters: tuple[dict[str, Any], ...] = ()
    example: dict[str, Any] | None = None
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def path_param(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", **schema} if not schema else schema}


def query(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "integer"}}


def header(name: str, description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": required, "description": description,
            "schema": {"type": "string"}}


GAMES = ["russian", "caribbean", "oasis", "split"]
GAME = path_param("game", "the house game", type="string", enum=GAMES)
FILTERS = (query("table_id", "only this table"), query("shift_id", "only this shift"),
           query("round_id", "only this round"))
WRITE = (header("X-CSRF-Token", "the session's CSRF token (any page's csrf_token field)"),
         header("Idempotency-Key", "1 to 64 characters; or an idempotency_key body field"))
READ_ERRORS = {"401": "Unauthorized", "403": "Forbidden"}
WRITE_ERRORS = {**READ_ERRORS, "400": "BadRequest", "404": "NotFound", "409": "Conflict",
                "422": "Unprocessable"}
CALC_ERRORS = {"400": "BadRequest", "422": "Unprocessable", "429": "TooManyRequests"}

ENDPOINTS: list[Endpoint] = [
    Endpoint("post", "/api/v1/{game}/settle", "settle", "Settle one complete round",
             "calculators", {"200": "Settlement", **CALC_ERRORS, "404": "NotFound"},
             request="SettleRequest", public=True, parameters=(GAME,),
             description="Stateless: stores nothing, needs no login. See docs/api.md.",
             example={"profile": "caribbean-classic",
                      "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
                      "boxes": [{"box": "1", "ante": 100,
                                 "cards": ["7s", "7d", "4c", "4h", "Js"], "decision": "bet"}]}),
    Endpoint("post", "/api/v1/split/suggest", "split_suggest",
             "Rank the 21 ways to split a Big/Small box's seven cards", "calculators",
             {"200": "Suggestion", **CALC_ERRORS}, request="SuggestRequest", public=True,
             example={"cards": ["As", "Ks", "Qd", "7c", "4h", "2s", "9d"], "dealer_up": "Jh",
                      "seed": 1, "samples": 2000, "top": 3}),
    Endpoint("post", "/api/v1/poker/hand", "poker_hand",
             "The state of a player-versus-player hand (Americana stud, 32-card draw)",
             "calculators", {"200": "PokerHand", **CALC_ERRORS}, request="PokerHandRequest",
             public=True,
             description="Stateless: whose turn, what he may do, the pot and, once complete, "
                         "who wins which pot. See docs/api.md, Poker room.",
             example={"profile": "draw32-pot-limit",
                      "stakes": {"small_blind": 1, "big_blind": 2, "over_blind": 4},
                      "button": "1",
                      "seats": [{"seat": "1", "stack": 500}, {"seat": "2", "stack": 120},
                                {"seat": "3", "stack": 200},
                                {"seat": "4", "stack": 300, "missed": "small_big"}],
                      "actions": [{"type": "raise", "seat": "1", "to": 15}]}),
    Endpoint("post", "/api/v1/parlour/hand", "parlour_hand",
             "Bank one whole hand of Parlour Americana", "calculators",
             {"200": "ParlourHand", **CALC_ERRORS}, request="ParlourHandRequest", public=True,
             description="Stateless: every chip movement of one hand and the board to carry "
                         "on. See docs/api.md, Parlour Americana.",
             example={"players": ["Ann", "Bob", "Cy"],
                      "board": {"pool": 3, "sections": {"ante": 5, "8-9-10": 1}},
                      "hands": {"Ann": "2c 4c 6c 8c Tc Qc Ac 2d 3d 4d 5d 6d 7d",
                                "Bob": "3c 5c 7c 9c Jc Kc 8d 9d Td Jd Qd Kd Ad",
                                "Cy": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"},
                      "extra": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
                      "extra_hand": {"action": "keep"},
                      "betting": [{"player": "Bob", "type": "bet", "amount": 2},
                                  {"player": "Cy", "type": "raise", "amount": 3},
                                  {"player": "Ann", "type": "call"},
                                  {"player": "Bob", "type": "call"}]}),
    Endpoint("post", "/api/v1/parlour/end", "parlour_end",
             "The end-of-game deal of Parlour Americana", "calculators",
             {"200": "ParlourEnd", **CALC_ERRORS}, request="ParlourEndRequest", public=True,
             description="Five cards face up each; the best hand wins every chip left on the "
                         "board. See docs/api.md, Parlour Americana.",
             example={"players": ["Ann", "Bob", "Cy"],
                      "board": {"pool": 4, "sections": {"ante": 20, "KQ-clubs": 4}},
                      "hands": {"Ann": ["As", "Ad", "2c", "3c", "4c"],
                                "Bob": ["Ks", "Kd", "Kc", "5h", "6h"],
                                "Cy": ["7s", "8d", "9c", "Th", "2h"]}}),
    Endpoint("get", "/api/v1/openapi.json", "openapi", "This document", "meta",
             {"200": "OpenApiDocument", "429": "TooManyRequests"}, public=True),
    Endpoint("post", "/api/v1/tables/{table_id}/rounds", "create_round",
             "Start a round at a table (its first event is place)", "rounds",
             {"201": "Round", "200": "Round", **WRITE_ERRORS}, request="RoundCreate",
             parameters=(path_param("table_id", "the table"), *WRITE),
             example={"boxes": [{"box": "1", "ante": 100, "bonus": 50, "seat": "A"}]}),
    Endpoint("get", "/api/v1/tables/{table_id}/rounds/current", "current_round",
             "The round in progress at a table", "rounds",
             {"200": "Round", **READ_ERRORS, "404": "NotFound"},
             parameters=(path_param("table_id", "the table"),)),
    Endpoint("get", "/api/v1/rounds/{round_id}", "get_round", "A round", "rounds",
             {"200": "Round", **READ_ERRORS, "404": "NotFound"},
             parameters=(path_param("round_id", "the round"),)),
    Endpoint("post", "/api/v1/rounds/{round_id}/events", "append",
             "Record one step of a round", "rounds",
             {"201": "Round", "200": "Round", "202": "Round", **WRITE_ERRORS},
             request="EventCreate", parameters=(path_param("round_id", "the round"), *WRITE),
             example={"type": "deal_box", "payload": {"box": "1",
                                                      "cards": ["As", "Kd", "Qh", "Jc", "9s"]},
                      "expected_seq": 1}),
    Endpoint("get", "/api/v1/disputes", "list_disputes", "Disputes, oldest first", "audit",
             {"200": "DisputeList", **READ_ERRORS, "422": "Unprocessable"},
             parameters=(query("status", "open, upheld, denied, escalated", type="string",
                               enum=["open", "upheld", "denied", "escalated"]), *FILTERS)),
    Endpoint("get", "/api/v1/disputes/{dispute_id}", "get_dispute",
             "One dispute with its decisions, the engine's review and corrections", "audit",
             {"200": "Dispute", **READ_ERRORS, "404": "NotFound"},
             parameters=(path_param("dispute_id", "the dispute"),)),
    Endpoint("get", "/api/v1/voids", "list_voids", "Void requests", "audit",
             {"200": "VoidList", **READ_ERRORS, "422": "Unprocessable"},
             parameters=(query("status", "pending, approved, rejected", type="string",
                               enum=["pending", "approved", "rejected"]), *FILTERS)),
    Endpoint("get", "/api/v1/voids/{request_id}", "get_void", "One void request", "audit",
             {"200": "ChangeRequest", **READ_ERRORS, "404": "NotFound"},
             parameters=(path_param("request_id", "the void request"),)),
    Endpoint("get", "/api/v1/correction-requests", "list_correction_requests",
             "Correction requests", "audit",
             {"200": "CorrectionRequestList", **READ_ERRORS, "422": "Unprocessable"},
             parameters=(query("status", "pending, approved, rejected", type="string",
                               enum=["pending", "approved", "rejected"]), *FILTERS)),
    Endpoint("get", "/api/v1/corrections", "list_corrections",
             "Money moved after payment", "audit",
             {"200": "CorrectionList", **READ_ERRORS}, parameters=FILTERS),
    Endpoint("get", "/api/v1/audit/head", "audit_head", "The audit chain's head", "audit",
             {"200": "AuditHead", **READ_ERRORS}),
]


def _poker_endpoints() -> list[Endpoint]:
    """The poker tables and hands API (issue 15): reads and writes as the rounds API's."""
    out = []
    for method, path, op, summary, kind, request, params, example in openapi_poker.ENDPOINT_ARGS:
        mode, schema = kind.split(":")
        if mode == "read":
            answers = {"200": schema, **READ_ERRORS, "404": "NotFound"}
        else:
            answers = {"201": schema, "200": schema, **WRITE_ERRORS}
        out.append(Endpoint(method, path, op, summary, "poker tables", answers,
                            request=request, example=example,
                            parameters=(*params, *(WRITE if mode == "write" else ()))))
    return out


ENDPOINTS += _poker_endpoints()
ENDPOINTS.append(Endpoint(
    "post", "/api/v1/lab/advise", "lab_advise",
    "Every option of a box's cards, ranked by expected result (the lab's advisor)", "lab",
    {"200": "Advice", **READ_ERRORS, "400": "BadRequest", "422": "Unprocessable"},
    request="AdviseRequest", parameters=(WRITE[0],), example=openapi_lab.EXAMPLE,
    description="Staff only. Stages: deal (five cards, and the dealer's up card where shown), "
                "split (Big/Small: seven cards), no_game (the final hand against the dealer's "
                "five cards). See docs/api.md, Game-math lab."))

LISTS = {"DisputeList": ("disputes", "Dispute"), "VoidList": ("voids", "ChangeRequest"),
         "CorrectionRequestList": ("correction_requests", "ChangeRequest")}


def _list_schemas() -> dict[str, Any]:
    out: dict[str, Any] = {name: {"type": "object", "required": [key],
                                  "properties": {key: {"type": "array", "items": ref(item)}}}
                           for name, (key, item) in LISTS.items()}
    out["CorrectionList"] = {"type": "object", "required": ["corrections", "total"],
                             "properties": {"corrections": {"type": "array",
                                                            "items": ref("Correction")},
                                            "total": {"type": "integer"}}}
    out["OpenApiDocument"] = {"type": "object", "required": ["openapi", "paths"]}
    return out


def _answer(status: str, name: str) -> dict[str, Any]:
    if name in RESPONSES:
        return {"$ref": f"#/components/responses/{name}"}
    return {"description": "OK" if status.startswith("2") else name,
            "content": {JSON: {"schema": ref(name)}}}


def _operation(e: Endpoint) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": e.operation_id, "summary": e.summary, "tags": [e.tag],
                          "responses": {s: _answer(s, n) for s, n in sorted(e.answers.items())}}
    if e.description:
        op["description"] = e.description
    if e.parameters:
        op["parameters"] = list(e.parameters)
    if e.request:
        media: dict[str, Any] = {"schema": ref(e.request)}
        if e.example is not None:
            media["example"] = e.example
        op["requestBody"] = {"required": True, "content": {JSON: media}}
    op["security"] = [] if e.public else [{"session": []}]
    return {**op, **e.extra}


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document (plain data: JSON-ready)."""
    paths: dict[str, Any] = {}
    for e in ENDPOINTS:
        paths.setdefault(e.path, {})[e.method] = _operation(e)
    return {
        "openapi": "3.1.0",
        "info": {"title": "dealer_assist JSON API", "version": VERSION,
                 "description": "Calculators (public, rate-limited), the live rounds API and "
                                "the auditors' read-only API; every failure is an RFC 9457 "
                                "problem body. Prose and curl examples: docs/api.md."},
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": {**SCHEMAS, **openapi_poker.SCHEMAS, **openapi_lab.SCHEMAS,
                                   **_list_schemas()},
                       "responses": RESPONSES,
                       "securitySchemes": SECURITY_SCHEMES},
    }


@bp.get("/openapi.json")
@public
def openapi() -> Any:
    return jsonify(document())
