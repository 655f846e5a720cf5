"""The API's answers and its OpenAPI document agree.

Every answer the API's tests get is checked against ``/api/v1/openapi.json`` by the autouse
fixtures (``tests/openapi_answers.py``); these tests show that check reports what it should,
that a round's answer is built by its shape (``operations.answer``), and that the document
types a round's ``state`` instead of promising "any object".
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient
from pydantic import ValidationError

from dealer_assist.api.operations import answer
from dealer_assist.api.shapes.house import Suggestion
from dealer_assist.api.shapes.rounds import Round
from tests.openapi_answers import Answer, problems, recording, spec

ROUND = "/api/v1/rounds/{round_id}"


def _round(**changes: Any) -> dict[str, Any]:
    state = {"game": "caribbean", "profile": "caribbean-classic", "table": {"max_payout": 1},
             "voided": None, "dealt": False, "used": [], "phase": "Deal", "last_seq": 1,
             "undoable": None, "next_steps": [{"type": "deal_dealer", "label": "Deal"}],
             "dealer": {"cards": [], "up": [], "revealed": False, "draw": [], "small": []},
             "boxes": [{"box": "1", "seat": "A", "ante": 100, "cards": [], "decision": None,
                        "hand": None, "collected": 0, "course": 2}]}
    body = {"id": 1, "table_id": 1, "shift_id": 1, "number": 1, "status": "open",
            "opened_at": "2026-01-01T10:00:00+00:00", "dealer_id": None, "game": "caribbean",
            "profile": "caribbean-classic", "rules": {}, "events": [], "state": state,
            "settlement": None, "stored_settlement": None, "void_request": None}
    body.update(changes)
    return body


def _answer(status: int, body: Any, path: str = ROUND, method: str = "get") -> Answer:
    return Answer(method, path, path, status, "application/json", json.dumps(body).encode())


def test_an_answer_that_fits_its_documented_shape_raises_nothing() -> None:
    assert problems(_answer(200, _round())) == []


def test_an_answer_with_a_status_the_operation_does_not_document_is_reported() -> None:
    (found,) = problems(_answer(418, _round()))
    assert "status 418 is not among the documented answers" in found


def test_a_body_that_does_not_fit_the_documented_schema_is_reported() -> None:
    state = {**_round()["state"], "boxes": [{"box": "1"}]}  # a box with no seat, ante, cards
    found = problems(_answer(200, _round(state=state)))
    assert any("state/boxes/0" in p and "'seat' is a required property" in p for p in found)


def test_an_undocumented_route_is_reported() -> None:
    (found,) = problems(_answer(200, {}, path="/api/v1/nowhere"))
    assert "GET /api/v1/nowhere is not in the document" in found


def test_the_recorder_keeps_every_api_answer_of_the_test_client(client: FlaskClient) -> None:
    with recording() as seen:
        client.get("/api/v1/openapi.json")
        client.get("/login")  # a page: not an operation of the API
    assert [(a.method, a.path, a.status) for a in seen] == [
        ("get", "/api/v1/openapi.json", 200)]
    assert problems(seen[0]) == []


def test_the_document_types_a_rounds_state_and_its_boxes() -> None:
    state = spec()["components"]["schemas"]["RoundState"]
    assert {"dealer", "boxes", "next_steps", "phase", "last_seq"} <= set(state["required"])
    assert spec()["components"]["schemas"]["Round"]["properties"]["state"] == {
        "$ref": "#/components/schemas/RoundState"}


def test_a_round_answer_is_built_by_its_shape_with_exactly_the_fields_given() -> None:
    values = _round()
    del values["game"]  # an optional field left out stays out (never null)
    assert answer(Round, values) == values


def test_a_round_answer_the_shape_does_not_allow_is_refused_before_it_leaves() -> None:
    with pytest.raises(ValidationError):
        answer(Round, _round(status="lost"))


def test_an_answer_field_the_shape_does_not_document_is_refused_with_its_path() -> None:
    values = _round(events=[{"seq": 1, "type": "place", "payload": {}, "actor_id": 1,
                             "created_at": "2026-01-01T10:00:00+00:00", "tapped_at": None,
                             "offline": False, "secret": 1}])
    values["extra"] = 2
    with pytest.raises(ValueError, match=r"does not document events\[0\]\.secret, extra$"):
        answer(Round, values)


def test_a_whole_number_in_a_float_field_is_answered_as_the_engine_gave_it() -> None:
    values = {"samples": 100, "method": "exact", "unit": "ANTE", "fold_ev": -1,
              "fold_is_better": False, "options": [
                  {"big": ["As"], "small": ["Kd"], "ev": 0.5, "se": 0}]}
    built = answer(Suggestion, values)
    assert json.dumps(built) == json.dumps(values)
