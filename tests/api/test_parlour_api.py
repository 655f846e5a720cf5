"""``POST /api/v1/parlour/hand`` and ``/parlour/end`` over HTTP.

The examples of ``docs/api.md`` section "Parlour Americana" are replayed and must answer exactly
as documented; a card twice, a card missing or an illegal bet is a 422 naming it; a body that is
not JSON is a 400. Both calculators are public (no login) and store nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.rules.parlour_deals import STOPS, SUITED, body

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(
    r"<!-- example: (parlour-[\w-]+) status: (\d+) -->\s*```bash\s*"
    r"curl -s -X POST http://127\.0\.0\.1:5000(\S+) \\\s*-H '[^']*' \\\s*-d '(.*?)'\s*```\s*"
    r"HTTP \d+:\s*```json\s*(.*?)```", re.S)
CONTRACT = {"antes", "pool", "sections", "playout", "board_after", "net"}


def documented_examples() -> list[tuple[str, int, str, Any, Any]]:
    text = DOC.read_text(encoding="utf-8")
    return [(name, int(status), path, json.loads(req), json.loads(resp))
            for name, status, path, req, resp in EXAMPLE.findall(text)]


def test_the_api_document_has_a_parlour_hand_example_with_the_whole_contract() -> None:
    examples = {name: (path, resp) for name, _, path, _, resp in documented_examples()}
    assert examples["parlour-hand"][0] == "/api/v1/parlour/hand"
    assert CONTRACT <= set(examples["parlour-hand"][1])


@pytest.mark.parametrize(("name", "status", "path", "req", "resp"), documented_examples(),
                         ids=[e[0] for e in documented_examples()])
def test_a_documented_parlour_example_answers_as_documented(
        client: FlaskClient, name: str, status: int, path: str, req: Any, resp: Any) -> None:
    answer = client.post(path, json=req)
    assert answer.status_code == status, name
    assert answer.json == resp, name


def test_a_hand_answers_with_every_field_of_the_contract(client: FlaskClient) -> None:
    resp = client.post("/api/v1/parlour/hand", json=body(STOPS))
    assert resp.status_code == 200
    data = resp.json
    assert CONTRACT <= set(data)
    assert set(data["playout"]) >= {"plays", "winner", "paid_during", "payments", "ante_won"}
    assert set(data["sections"]["8-9-10"]) >= {"chips", "winners", "awards", "to_ante"}
    assert data["board_after"]["sections"]["ante"] == 23


@pytest.mark.parametrize(("rule", "change", "field", "value"), [
    ("a card twice", lambda d: d["hands"]["Cy"].__setitem__(0, "As"), "extra", "As"),
    ("a card missing", lambda d: d["hands"]["Cy"].pop(), "hands", "Ah"),
    ("an illegal bet", lambda d: d.__setitem__("betting", [{"player": "Bob", "type": "call"}]),
     "betting[0].type", "call"),
    ("a bet of a fraction", lambda d: d.__setitem__(
        "betting", [{"player": "Bob", "type": "bet", "amount": 1.5}]), "betting[0].amount",
     "1.5"),
    ("an unknown variant", lambda d: d.__setitem__("variant", "anticlockwise"), "variant",
     "anticlockwise"),
])
def test_a_hand_that_breaks_a_rule_is_a_422_naming_it(client: FlaskClient, rule: str,
                                                      change: Any, field: str,
                                                      value: Any) -> None:
    doc = body(SUITED)
    change(doc)
    resp = client.post("/api/v1/parlour/hand", json=doc)
    assert resp.status_code == 422, rule
    assert resp.mimetype == "application/problem+json"
    assert (resp.json["field"], resp.json["value"]) == (field, value), rule


def test_a_body_that_is_not_json_is_a_400(client: FlaskClient) -> None:
    resp = client.post("/api/v1/parlour/hand", data=b"{players: Ann",
                       content_type="application/json")
    assert resp.status_code == 400
    assert resp.json["title"] == "Malformed JSON"


def test_the_end_of_game_deal_shares_the_whole_board(client: FlaskClient) -> None:
    resp = client.post("/api/v1/parlour/end", json={
        "players": ["Ann", "Bob"], "board": {"pool": 5, "sections": {"ante": 4}},
        "hands": {"Ann": ["As", "Ad", "2c", "3c", "4c"], "Bob": ["Ac", "Ah", "2d", "3d", "4d"]}})
    assert resp.status_code == 200
    assert resp.json["winners"] == ["Ann", "Bob"]
    assert resp.json["awards"] == {"Ann": 4, "Bob": 4}
    assert resp.json["left"] == 1
