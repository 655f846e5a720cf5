"""``POST /api/v1/russian/settle``: the documented examples, and bad input as problem bodies."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

URL = "/api/v1/russian/settle"
API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(
    r"<!-- example: (?P<name>russian-\S+) status: (?P<status>\d+) -->\s*"
    r"```bash\n(?P<curl>.*?)```.*?```json\n(?P<answer>.*?)```", re.S)


def _documented() -> list[tuple[str, int, str, Any]]:
    out = []
    for m in EXAMPLE.finditer(API_DOC.read_text(encoding="utf-8")):
        body = re.search(r"-d '(.*)'", m["curl"], re.S)
        assert body is not None, m["name"]
        out.append((m["name"], int(m["status"]), body.group(1), json.loads(m["answer"])))
    return out


DOCUMENTED = _documented()


def test_the_api_document_has_russian_examples_for_success_and_errors() -> None:
    assert {status for _, status, _, _ in DOCUMENTED} == {200, 400, 422}


@pytest.mark.parametrize(("name", "status", "body", "answer"), DOCUMENTED,
                         ids=[d[0] for d in DOCUMENTED])
def test_a_documented_example_answers_as_documented(client: FlaskClient, name: str,
                                                    status: int, body: str,
                                                    answer: Any) -> None:
    resp = client.post(URL, data=body, content_type="application/json")
    assert resp.status_code == status
    assert resp.json == answer


def test_the_documented_two_combination_win_pays_both(client: FlaskClient) -> None:
    body = {"dealer": {"cards": ["As", "Kd", "9c", "5s", "2h"]},
            "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "Ac", "Kh", "3d"],
                       "decision": "bet"}]}
    resp = client.post(URL, json=body)
    assert resp.status_code == 200
    box = resp.json["boxes"][0]
    # pair (1) + Ace-King (1) on a BET of 2 x 100
    assert box["wagers"]["bet"]["net"] == 400 and box["net"] == 400
    assert resp.json["dealer"]["qualified"] is True


def _round(**box: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"box": "1", "seat": "A", "ante": 100,
                            "cards": ["Js", "Jd", "Jc", "4h", "4s"], "decision": "bet"}
    base.update(box)
    return {"table": {"min_ante": 10, "max_ante": 1000, "max_payout": 50000},
            "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"], "draw": ["3c"]},
            "boxes": [base]}


BAD = [
    ("an invalid card", _round(cards=["Js", "Jd", "Zz", "4h", "4s"]),
     "boxes[0].cards", "Zz", "card_parse_error"),
    ("a card twice in one box", _round(cards=["Js", "Js", "Jc", "4h", "4s"]),
     "boxes[0].cards", "Js", "duplicate_card"),
    ("a box card in the dealer's hand", _round(cards=["Ah", "Jd", "Jc", "4h", "4s"]),
     "dealer.cards", "Ah", "duplicate_card"),
    ("a dealer card in the draw", {**_round(), "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"],
                                                          "draw": ["Kd"]}},
     "dealer.draw", "Kd", "duplicate_card"),
    ("a wrong card count", _round(cards=["Js", "Jd", "Jc", "4h"]),
     "boxes[0].cards", 4, "card_count"),
    ("an ante below the table minimum", _round(ante=5), "boxes[0].ante", 5, "invalid_stake"),
    ("an ante above the table maximum", _round(ante=5000), "boxes[0].ante", 5000,
     "invalid_stake"),
    ("a bonus of 70", _round(ante=200, bonus=70), "boxes[0].bonus", 70, "invalid_stake"),
    ("insurance on a pair", _round(cards=["Js", "Jd", "8c", "4h", "3s"], insurance=100),
     "boxes[0].insurance", 100, "illegal_action"),
    ("an ante that is a string", _round(ante="100"), "boxes[0].ante", "100", "invalid_field"),
    ("an ante that is a float", _round(ante=100.5), "boxes[0].ante", "100.5", "invalid_field"),
    ("an unknown decision", _round(decision="raise"), "boxes[0].decision", "raise",
     "invalid_field"),
    ("boxes that are not a list", {**_round(), "boxes": {"1": {}}}, "boxes", "dict",
     "invalid_field"),
    ("an unknown profile", {**_round(), "profile": "blackjack"}, "profile", "blackjack",
     "house_rules_error"),
]


@pytest.mark.parametrize(("why", "body", "field", "value", "code"), BAD,
                         ids=[b[0] for b in BAD])
def test_bad_input_is_a_422_problem_naming_field_and_value(client: FlaskClient, why: str,
                                                           body: Any, field: str, value: Any,
                                                           code: str) -> None:
    resp = client.post(URL, json=body)
    assert resp.status_code == 422, resp.json
    assert resp.mimetype == "application/problem+json"
    assert (resp.json["field"], resp.json["value"], resp.json["code"]) == (field, value, code)


def test_a_non_object_body_is_a_422_problem_naming_the_body_and_its_type(
        client: FlaskClient) -> None:
    # the generic calculator edge checks the body before the game sees it (api/calculator.py)
    resp = client.post(URL, json=["not", "an", "object"])
    assert resp.status_code == 422 and resp.mimetype == "application/problem+json"
    assert resp.json["value"] == "list" and "body" in resp.json["detail"]


def test_malformed_json_is_a_400(client: FlaskClient) -> None:
    resp = client.post(URL, data='{"boxes": [', content_type="application/json")
    assert resp.status_code == 400
    assert resp.json["title"] == "Malformed JSON"


def test_the_calculator_stores_nothing_between_calls(client: FlaskClient) -> None:
    body = _round()
    first = client.post(URL, json=body).json
    assert client.post(URL, json=body).json == first
