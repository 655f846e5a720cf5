"""Bad input never becomes a 500: every calculator answers 200, 400 or 422 for anything sent.

The poker room calculator (``POST /api/v1/poker/hand``) is tested the same way with a stud and a
draw hand that reach the showdown.

Hypothesis takes a valid request of each game and replaces one field, anywhere in it, by an
arbitrary JSON value (or deletes it); it also sends arbitrary JSON documents and raw bytes. A
422 must be a problem body naming a field or at least the problem.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist import create_app

DEALER = {"cards": ["Ah", "Qd", "9c", "5s", "2h"], "draw": ["Kc", "8d"]}
TABLE = {"min_ante": 10, "max_ante": 1000, "max_payout": 50000}
VALID: dict[str, dict[str, Any]] = {
    "russian": {"profile": "russian-classic", "table": TABLE, "dealer": DEALER,
                "boxes": [{"box": "1", "seat": "A", "ante": 100, "bonus": 50,
                           "cards": ["7s", "7d", "Ac", "Kh", "3d"],
                           "improvement": {"exchange": {"discard": ["3d"], "draw": ["7h"]}},
                           "insurance": 0, "decision": "bet", "on_no_game": "take_ante"}]},
    "caribbean": {"table": TABLE, "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
                  "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "Ac", "Qh", "3d"],
                             "decision": "bet"}]},
    "oasis": {"table": TABLE, "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
              "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "Ac", "Qh", "3d"],
                         "improvement": {"replace": {"discard": ["3d"], "draw": ["7c"]}},
                         "decision": "bet"}]},
    "split": {"table": TABLE, "dealer": {"cards": ["Ah", "Ad", "9c", "5s", "2h"],
                                         "small": ["Kc", "3h"]},
              "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "Jc", "Qh", "3d"],
                         "extra": {"mode": "bought", "cards": ["Js", "4c"]},
                         "split": {"big": ["7s", "7d", "Jc", "Js", "Qh"],
                                   "small": ["3d", "4c"]},
                         "decision": "bet"}]},
}

VALID["poker-stud"] = {
    "profile": "americana-no-limit", "stakes": {"ante": 5, "bring_in": 10}, "button": "1",
    "seats": [{"seat": "1", "stack": 100}, {"seat": "2", "stack": 100}, {"seat": "3", "stack": 30}],
    "actions": [
        {"type": "street", "up": {"1": "Kc", "2": "Ah", "3": "As"}},
        {"type": "bring_in", "seat": "3"}, {"type": "call", "seat": "1"},
        {"type": "raise", "seat": "2", "to": 20}, {"type": "call", "seat": "3"},
        {"type": "call", "seat": "1"},
        {"type": "street", "up": {"1": "Kd", "2": "Qh", "3": "7c"}},
        {"type": "bet", "seat": "1", "to": 20}, {"type": "call", "seat": "2"},
        {"type": "call", "seat": "3"},
        {"type": "street", "up": {"1": "7d", "2": "Jh", "3": "8c"}},
        {"type": "check", "seat": "1"}, {"type": "check", "seat": "2"},
        {"type": "street", "up": {"1": "8d", "2": "Th", "3": "9d"}},
        {"type": "check", "seat": "1"}, {"type": "check", "seat": "2"},
        {"type": "show", "seat": "2", "cards": ["Qs"]}, {"type": "muck", "seat": "3"},
        {"type": "show", "seat": "1", "cards": ["Kh"]}]}
VALID["poker-draw"] = {
    "profile": "draw32-pot-limit", "stakes": {"small_blind": 1, "big_blind": 2},
    "button": "1",
    "seats": [{"seat": "1", "stack": 500}, {"seat": "2", "stack": 120},
              {"seat": "3", "stack": 60, "missed": "small_big"}, {"seat": "4", "stack": 80},
              {"seat": "5", "stack": 90, "missed": "new"}],
    "actions": [{"type": "check", "seat": "5"}, {"type": "raise", "seat": "1", "to": 15},
                {"type": "fold", "seat": "2"}, {"type": "call", "seat": "3"},
                {"type": "call", "seat": "4"}, {"type": "call", "seat": "5"},
                {"type": "draw", "seat": "3", "discard": 4},
                {"type": "draw", "seat": "4", "discard": 4},
                {"type": "draw", "seat": "5", "discard": 2},
                {"type": "draw", "seat": "1", "discard": 0},
                {"type": "parole", "agreed": False}, {"type": "bet", "seat": "5", "to": 40},
                {"type": "fold", "seat": "1"}, {"type": "call", "seat": "3"},
                {"type": "fold", "seat": "4"},
                {"type": "show", "seat": "5", "cards": ["Ah", "Ad", "7c", "8c", "9s"]},
                {"type": "show", "seat": "3", "cards": ["Kh", "Kd", "Kc", "Ks", "7d"]}]}


def url_of(game: str) -> str:
    return "/api/v1/poker/hand" if game.startswith("poker") else f"/api/v1/{game}/settle"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["As", "10h", "Q♣", "bet", "fold", "buy_game"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)

_APP: Flask | None = None


def calculator_client() -> Any:
    global _APP
    if _APP is None:  # one app for all examples: the calculators store nothing
        # thousands of calls from one address: the public rate limit (tested in
        # test_public_limits.py) is off for this app
        _APP = create_app({"TESTING": True, "SECRET_KEY": "x", "RATELIMIT_ENABLED": False,
                           "DATABASE_URL": "sqlite:///:memory:"})
    return _APP.test_client()


def field_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += field_paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += field_paths(v, (*prefix, i))
    return out


def mutate(body: dict[str, Any], path: tuple[Any, ...], new: Any, delete: bool) -> Any:
    if not path:
        return new
    doc = copy.deepcopy(body)
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return doc


def _check(game: str, resp: Any) -> None:
    assert resp.status_code in (200, 400, 422), (game, resp.status_code, resp.get_data()[:300])
    if resp.status_code != 200:
        assert resp.mimetype == "application/problem+json"
        assert resp.json["detail"]


def test_every_valid_base_request_is_accepted() -> None:
    for game, body in VALID.items():
        resp = calculator_client().post(url_of(game), json=body)
        assert resp.status_code == 200, (game, resp.json)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(VALID)), data=st.data(), new=JSON, delete=st.booleans())
def test_one_field_replaced_by_anything_gets_an_answer_never_a_500(
        game: str, data: st.DataObject, new: Any, delete: bool) -> None:
    body = VALID[game]
    path = data.draw(st.sampled_from(field_paths(body)))
    doc = mutate(body, path, new, delete and bool(path))
    resp = calculator_client().post(url_of(game), data=json.dumps(doc),
                          content_type="application/json")
    _check(game, resp)
    if resp.status_code == 422 and "field" in resp.json and path:
        assert isinstance(resp.json["field"], str) and resp.json["field"]


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(sorted(VALID)), doc=JSON)
def test_any_json_document_gets_an_answer_never_a_500(game: str, doc: Any) -> None:
    resp = calculator_client().post(url_of(game), data=json.dumps(doc),
                          content_type="application/json")
    _check(game, resp)


@settings(max_examples=100, deadline=None)
@given(game=st.sampled_from(sorted(VALID)), raw=st.binary(max_size=64))
def test_any_bytes_get_an_answer_never_a_500(game: str, raw: bytes) -> None:
    resp = calculator_client().post(url_of(game), data=raw, content_type="application/json")
    _check(game, resp)


# --- Parlour Americana: POST /api/v1/parlour/hand ------------------------------------

PARLOUR = {
    "profile": "parlour-americana", "variant": "clockwise", "players": ["Ann", "Bob", "Cy"],
    "board": {"pool": 3, "sections": {"ante": 2, "8-9-10": 1}},
    "hands": {"Ann": "2c 4c 6c 8c Tc Qc Ac 2d 3d 4d 5d 6d 7d".split(),
              "Bob": "3c 5c 7c 9c Jc Kc 8d 9d Td Jd Qd Kd Ad".split(),
              "Cy": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah".split()},
    "extra": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As".split(),
    "extra_hand": {"action": "sell", "buyer": "Cy", "price": 2},
    "betting": [{"player": "Bob", "type": "bet", "amount": 2},
                {"player": "Cy", "type": "raise", "amount": 1},
                {"player": "Ann", "type": "pass"}, {"player": "Bob", "type": "call"}],
}


def test_the_valid_parlour_request_is_accepted() -> None:
    resp = calculator_client().post("/api/v1/parlour/hand", json=PARLOUR)
    assert resp.status_code == 200, resp.json


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), new=JSON, delete=st.booleans())
def test_one_parlour_field_replaced_by_anything_gets_an_answer_never_a_500(
        data: st.DataObject, new: Any, delete: bool) -> None:
    path = data.draw(st.sampled_from(field_paths(PARLOUR)))
    doc = mutate(PARLOUR, path, new, delete and bool(path))
    resp = calculator_client().post("/api/v1/parlour/hand", data=json.dumps(doc),
                          content_type="application/json")
    _check("parlour", resp)
    if resp.status_code == 422 and path:
        assert isinstance(resp.json.get("field"), str) and resp.json["field"]


@settings(max_examples=100, deadline=None)
@given(doc=JSON, path=st.sampled_from(["/api/v1/parlour/hand", "/api/v1/parlour/end"]))
def test_any_json_document_to_the_parlour_calculators_gets_an_answer_never_a_500(
        doc: Any, path: str) -> None:
    resp = calculator_client().post(path, data=json.dumps(doc), content_type="application/json")
    _check("parlour", resp)
