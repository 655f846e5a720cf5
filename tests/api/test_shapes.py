"""One source for the API's shapes (pydantic models in ``api/shapes``).

The models read the request bodies (running the engine's own readers first) and produce the
OpenAPI document. These tests prove the two agree where they must: the lists in the shapes are the
engine's; the valid requests and the engine's real answers fit the shapes; and for any one
field of a valid request replaced by anything (or removed), the API answers exactly what the
engine says when the engine refuses it (422, its code, field and value: the shape check never
comes first), and when the engine accepts it the shape check objects, if at all, only to the
field that changed (a 400 naming it).
"""

from __future__ import annotations

import json
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.api.shapes import field_path, house, parlour, poker
from dealer_assist.rules.errors import RulesError
from dealer_assist.rules.fields import need_mapping
from dealer_assist.rules.games import GAMES
from dealer_assist.rules.games.parlour import betting as parlour_betting
from dealer_assist.rules.games.parlour import profile as parlour_profile
from dealer_assist.rules.games.parlour.calculator import settle_hand_request
from dealer_assist.rules.games.poker import hand_to_dict, parse_hand, poker_profiles
from dealer_assist.rules.games.poker import state as poker_state
from tests.api.test_api_never_500 import (
    JSON,
    PARLOUR,
    VALID,
    calculator_client,
    field_paths,
    mutate,
    url_of,
)

REQUESTS: dict[str, Any] = {**VALID, "parlour": PARLOUR}


def _url_of(game: str) -> str:
    return "/api/v1/parlour/hand" if game == "parlour" else url_of(game)


def _engine(game: str, body: Any) -> dict[str, Any]:
    """What the engine answers for ``body``, without HTTP (raises its ``RulesError``)."""
    if game == "parlour":
        return settle_hand_request(need_mapping(body, "")).to_dict()
    if game.startswith("poker"):
        return hand_to_dict(parse_hand(body))
    return GAMES[game].settle_request(need_mapping(body, "")).to_dict()


def _context(game: str) -> dict[str, Any]:
    """What a request shape's reader needs beside the body (a house game: its settle)."""
    return {"settle": GAMES[game].settle_request} if game in GAMES else {}


def _shapes(game: str) -> tuple[type[Any], type[Any]]:
    if game == "parlour":
        return parlour.ParlourHandRequest, parlour.ParlourHand
    if game.startswith("poker"):
        return poker.PokerHandRequest, poker.PokerHand
    return house.SettleRequest, house.Settlement


def test_the_lists_in_the_shapes_are_the_engine_s() -> None:
    assert get_args(poker.PokerActionType) == poker_state.ACTION_TYPES
    assert set(get_args(poker.PokerProfileName)) == {p.name for p in poker_profiles()}
    assert get_args(poker.PokerStatus) == (poker_state.BETTING, poker_state.STREET,
                                           poker_state.DRAW_PHASE, poker_state.PAROLE,
                                           poker_state.SHOWDOWN, poker_state.COMPLETE)
    bet_type = parlour.ParlourBet.model_fields["type"].annotation
    assert get_args(bet_type) == parlour_betting.ACTION_TYPES
    variant = parlour.ParlourHandRequest.model_fields["variant"].annotation
    assert get_args(get_args(variant)[0]) == parlour_profile.VARIANTS


@pytest.mark.parametrize("game", sorted(REQUESTS))
def test_a_valid_request_and_the_engine_s_answer_fit_their_shapes(game: str) -> None:
    request_shape, answer_shape = _shapes(game)
    request_shape.model_validate(REQUESTS[game], context=_context(game))
    answer_shape.model_validate(_engine(game, REQUESTS[game]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(sorted(REQUESTS)), data=st.data(), new=JSON, delete=st.booleans())
def test_the_engine_answers_first_and_the_shape_objects_only_to_the_changed_field(
        game: str, data: st.DataObject, new: Any, delete: bool) -> None:
    body = REQUESTS[game]
    path = data.draw(st.sampled_from(field_paths(body)))
    doc = mutate(body, path, new, delete and bool(path))
    resp = calculator_client().post(_url_of(game), data=json.dumps(doc),
                                    content_type="application/json")
    if resp.status_code == 400 and resp.json["title"] == "Malformed JSON":
        return  # text no column can store (a NUL, a lone surrogate): refused before anything
    try:
        answer = _engine(game, doc)
    except RulesError as err:
        expected = {k: v for k, v in err.problem().items() if k != "detail"}
        assert resp.status_code == 422, (path, resp.json)
        assert {k: resp.json.get(k) for k in expected} == json.loads(json.dumps(expected))
        return
    request_shape, answer_shape = _shapes(game)
    answer_shape.model_validate(answer)
    if resp.status_code == 200:
        request_shape.model_validate(doc, context=_context(game))
        assert resp.json == json.loads(json.dumps(answer))
        return
    assert resp.status_code == 400 and resp.json["title"] == "Malformed request", resp.json
    changed = field_path(path)
    assert resp.json["field"] == changed or resp.json["field"].startswith(
        (f"{changed}.", f"{changed}[")), (changed, resp.json)


def test_a_field_the_engine_does_not_read_must_still_fit_the_documented_shape() -> None:
    """``agreed`` only counts on a parole; on a raise the engine skips it, the shape does not."""
    body = json.loads(json.dumps(VALID["poker-draw"]))
    body["actions"][1]["agreed"] = "yes"
    _engine("poker-draw", body)  # the engine takes it
    resp = calculator_client().post("/api/v1/poker/hand", json=body)
    assert resp.status_code == 400 and resp.mimetype == "application/problem+json"
    assert resp.json["field"] == "actions[1].agreed"
    assert resp.json["title"] == "Malformed request"
