"""Caribbean stud, Oasis, Big/Small calculators and the split suggestion over HTTP.

Every example of these games in ``docs/api.md`` is replayed and must answer exactly as
documented; bad input gets a 422 problem body naming the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(
    r"<!-- example: ((?:caribbean|oasis|split)-[\w-]+) status: (\d+) -->\s*```bash\s*"
    r"curl -s -X POST http://127\.0\.0\.1:5000(\S+) \\\s*-H '[^']*' \\\s*-d '(.*?)'\s*```\s*"
    r"HTTP \d+:\s*```json\s*(.*?)```", re.S)


def documented_examples() -> list[tuple[str, int, str, Any, Any]]:
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    return [(name, int(status), path, json.loads(body), json.loads(response))
            for name, status, path, body, response in EXAMPLE.findall(text)]


def test_the_api_document_has_examples_for_every_house_game_endpoint() -> None:
    paths = {path for _, _, path, _, _ in documented_examples()}
    assert {"/api/v1/caribbean/settle", "/api/v1/oasis/settle", "/api/v1/split/settle",
            "/api/v1/split/suggest"} <= paths


@pytest.mark.parametrize(("name", "status", "path", "body", "response"), documented_examples(),
                         ids=[e[0] for e in documented_examples()])
def test_a_documented_example_answers_as_documented(
        client: FlaskClient, name: str, status: int, path: str, body: Any,
        response: Any) -> None:
    resp = client.post(path, json=body)
    assert resp.status_code == status, name
    assert resp.json == response, name


def _settle(client: FlaskClient, game: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/{game}/settle", json=body)


BOX = {"box": "1", "seat": "A", "ante": 100, "cards": ["7s", "7d", "4c", "Jh", "3d"],
       "decision": "bet"}
DEALER = {"cards": ["Ah", "Kd", "9c", "5s", "2h"]}


@pytest.mark.parametrize(("rule", "game", "body", "field"), [
    ("BET must be 2 x ANTE", "caribbean", {"dealer": DEALER, "boxes": [{**BOX, "bet": 300}]},
     "boxes[0].bet"),
    ("ANTE within the table limits", "oasis",
     {"table": {"min_ante": 200}, "dealer": DEALER, "boxes": [BOX]}, "boxes[0].ante"),
    ("an Oasis replacement of 0 cards", "oasis",
     {"dealer": DEALER, "boxes": [{**BOX, "improvement": {"replace": {"discard": [],
                                                                       "draw": []}}}]},
     "boxes[0].improvement.replace.discard"),
    ("a card used twice at the table", "oasis",
     {"dealer": DEALER, "boxes": [{**BOX, "improvement": {"replace": {"discard": ["3d"],
                                                                       "draw": ["Ah"]}}}]},
     "boxes[0].improvement.replace.draw"),
    ("a Small Hand of three cards", "split",
     {"dealer": {"cards": ["Ah", "Ad", "9c", "5s", "2h"], "small": ["Qc", "3c"]},
      "boxes": [{**BOX, "extra": {"mode": "bought", "cards": ["Ks", "Kc"]},
                 "split": {"big": ["7s", "7d", "4c", "Jh"], "small": ["3d", "Ks", "Kc"]}}]},
     "boxes[0].split.small"),
    ("a buy-game when the dealer qualified", "split",
     {"dealer": {"cards": ["Ah", "Ad", "9c", "5s", "2h"], "small": ["Qc", "3c"]},
      "boxes": [{**BOX, "on_no_game": "buy_game"}]}, "boxes[0].on_no_game"),
    ("an unknown profile", "split", {"profile": "oasis-classic", "dealer": DEALER,
                                     "boxes": [BOX]}, "profile"),
    ("a missing decision", "caribbean",
     {"dealer": DEALER, "boxes": [{k: v for k, v in BOX.items() if k != "decision"}]},
     "boxes[0].decision"),
])
def test_bad_input_gets_a_422_problem_naming_the_field(
        client: FlaskClient, rule: str, game: str, body: dict[str, Any], field: str) -> None:
    resp = _settle(client, game, body)
    assert resp.status_code == 422, rule
    assert resp.mimetype == "application/problem+json"
    assert resp.json["field"] == field, rule


@pytest.mark.parametrize("game", ["caribbean", "oasis", "split"])
def test_a_body_that_is_not_json_gets_400(client: FlaskClient, game: str) -> None:
    resp = client.post(f"/api/v1/{game}/settle", data="{not json",
                       content_type="application/json")
    assert resp.status_code == 400


@pytest.mark.parametrize(("body", "field"), [
    ({"cards": ["7s", "7d", "Ac", "Kh", "3d", "7c"], "dealer_up": "9h"}, "cards"),
    ({"cards": ["7s", "7d", "Ac", "Kh", "3d", "7c", "Qh"], "dealer_up": "7s"}, None),
    ({"cards": ["7s", "7d", "Ac", "Kh", "3d", "7c", "Qh"], "dealer_up": "9h",
      "samples": 10**7}, "samples"),
    ({"cards": ["7s", "7d", "Ac", "Kh", "3d", "7c", "Qh"]}, "dealer_up"),
])
def test_a_bad_suggest_request_gets_a_422(client: FlaskClient, body: dict[str, Any],
                                          field: str | None) -> None:
    resp = client.post("/api/v1/split/suggest", json=body)
    assert resp.status_code == 422
    if field is not None:
        assert resp.json["field"] == field


def test_the_same_suggest_request_gets_the_same_answer(client: FlaskClient) -> None:
    body = {"cards": ["2s", "3d", "5c", "7h", "9s", "Jd", "4c"], "dealer_up": "Kh",
            "seed": 9, "samples": 500, "top": 21}
    first = client.post("/api/v1/split/suggest", json=body).json
    assert len(first["options"]) == 21
    assert client.post("/api/v1/split/suggest", json=body).json == first
