"""``POST /api/v1/poker/hand`` over HTTP: the documented examples, the contract's field names,
and problem bodies naming the refused action.

Every example of the poker room in ``docs/api.md`` is replayed and must answer exactly as
documented.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.rules.poker_table import body

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(
    r"<!-- example: (poker-[\w-]+) status: (\d+) -->\s*```bash\s*"
    r"curl -s -X POST http://127\.0\.0\.1:5000(\S+) \\\s*-H '[^']*' \\\s*-d '(.*?)'\s*```\s*"
    r"HTTP \d+:\s*```json\s*(.*?)```", re.S)
URL = "/api/v1/poker/hand"


def documented_examples() -> list[tuple[str, int, str, str, Any]]:
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    return [(name, int(status), path, raw, json.loads(response))
            for name, status, path, raw, response in EXAMPLE.findall(text)]


def test_the_api_document_has_poker_examples_for_every_kind_of_answer() -> None:
    examples = documented_examples()
    assert {path for _, _, path, _, _ in examples} == {URL}
    assert {status for _, status, _, _, _ in examples} == {200, 400, 422}
    statuses = {response.get("status") for _, code, _, _, response in examples if code == 200}
    assert {"betting", "draw", "complete"} <= statuses


@pytest.mark.parametrize(("name", "status", "path", "raw", "response"), documented_examples(),
                         ids=[e[0] for e in documented_examples()])
def test_a_documented_poker_example_answers_as_documented(
        client: FlaskClient, name: str, status: int, path: str, raw: str,
        response: Any) -> None:
    resp = client.post(path, data=raw, content_type="application/json")
    assert resp.status_code == status, name
    assert resp.json == response, name


CONTRACT = {"status", "round", "pot", "posted", "committed", "stacks", "to_act", "legal"}
LEGAL = {"fold", "check", "call", "bring_in", "bet", "raise", "parole"}


def test_the_response_carries_exactly_the_contracts_fields(client: FlaskClient) -> None:
    draw = client.post(URL, json=body("draw32-limit", {"1": 50, "2": 50, "3": 50})).json
    assert set(draw) == CONTRACT | {"deck"} and set(draw["legal"]) == LEGAL
    stud = client.post(URL, json=body("americana-limit", {"1": 50, "2": 50},
                                      "street 1:Ah 2:Kh")).json
    assert set(stud) == CONTRACT | {"bring_in"} and stud["bring_in"] == "1"
    done = client.post(URL, json=body("draw32-limit", {"1": 50, "2": 50, "3": 50}, "1 fold",
                                      "2 fold")).json
    assert set(done) == CONTRACT | {"deck", "pots", "rake", "net"}
    assert done["status"] == "complete" and done["to_act"] is None


@pytest.mark.parametrize(("request_body", "field", "detail"), [
    (body("draw32-no-limit", {"1": 100, "2": 100, "3": 100, "4": 100}, "1 raise 6"),
     "actions[0]", "seat 1 may raise to at least 8"),
    (body("draw32-no-limit", {"1": 100, "2": 100, "3": 100}, "3 call"),
     "actions[0]", "it is seat 1's turn, not seat 3's"),
    (body("draw32-no-limit", {"1": 100, "2": 100, "3": 100}, "1 bet 10"),
     "actions[0]", "seat 1 may not bet: there is already a bet of 2 (raise instead)"),
    (body("americana-limit", {"1": 100, "2": 100}, "street 1:Ah 2:Kh", "1 check"),
     "actions[1]", "seat 1 has the highest card and must bring in 2 or raise"),
    (body("draw32-limit", {"1": 100, "2": 100}, "2 call", "1 check", "2 draw 5"),
     "actions[2]", "seat 2 may discard 0 to 4 cards, not 5"),
    ({**body("draw32-limit", {"1": 100, "2": 100}), "actions": [{"type": "raise", "seat": "2",
                                                                  "to": "8"}]},
     "actions[0].to", "actions[0].to must be a whole number, got 8"),
    ({**body("draw32-limit", {"1": 100, "2": 100}), "actions": [{"type": "shove"}]},
     "actions[0].type", None),
    (body("draw32-limit", {"1": 100, "2": 0}), "seats[1].stack", None),
    ({**body("draw32-limit", {"1": 100, "2": 100}), "profile": "holdem-no-limit"}, "profile",
     None),
    ({**body("draw32-limit", {"1": 100, "2": 100}), "stakes": {"small_blind": 0}},
     "stakes.small_blind", None),
    (body("americana-limit", {"1": 100, "2": 100}, "street 1:Ah 2:5h"), "actions[0]", None),
    ({**body("americana-limit", {"1": 100, "2": 100}),
      "actions": [{"type": "street", "up": {"1": "Ah", "2": "Zz"}}]}, "actions[0].up.2", None),
])
def test_a_refused_request_is_a_422_naming_the_field(
        client: FlaskClient, request_body: dict[str, Any], field: str,
        detail: str | None) -> None:
    resp = client.post(URL, json=request_body)
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    assert resp.json["field"] == field
    if detail is not None:
        assert resp.json["detail"] == detail


def test_a_body_that_is_not_json_is_a_400(client: FlaskClient) -> None:
    resp = client.post(URL, data=b"{profile", content_type="application/json")
    assert resp.status_code == 400 and resp.json["title"] == "Malformed JSON"


def test_the_calculator_is_public_and_stores_nothing(client: FlaskClient) -> None:
    first = client.post(URL, json=body("draw32-limit", {"1": 50, "2": 50}, "2 call"))
    second = client.post(URL, json=body("draw32-limit", {"1": 50, "2": 50}, "2 call"))
    assert first.status_code == second.status_code == 200 and first.json == second.json
