"""Defect 15: the OpenAPI 3.1 document at ``/api/v1/openapi.json``.

It is valid OpenAPI 3.1 (openapi-spec-validator), it covers every ``/api`` route of the app,
every example of ``docs/api.md`` (requests and answers, problem bodies included) fits the
schemas it names (jsonschema, Draft 2020-12), and schemathesis drives the public calculators
from the document: no answer is ever 500 or more.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from dealer_assist import create_app
from dealer_assist.api.openapi import document

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(
    r"<!-- example: ([\w-]+) status: (\d+) -->\s*```bash\s*"
    r"curl -s -X POST http://127\.0\.0\.1:5000(\S+) \\\s*-H '[^']*' \\\s*-d '(.*?)'\s*```\s*"
    r"HTTP \d+:\s*```json\s*(.*?)```", re.S)
LISTING = re.compile(r"```sh\s*curl -b cookies\.txt http://127\.0\.0\.1:5000(/api/v1/[\w/-]+)"
                     r"\S*\s*```\s*```json\s*(.*?)```", re.S)


def _app() -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://",
                       "RATELIMIT_ENABLED": False})


APP = _app()
SPEC = document()


def _operation(method: str, path: str) -> dict[str, Any]:
    """The document's operation for a concrete path (``/api/v1/russian/settle``)."""
    for template, ops in SPEC["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", r"[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method in ops:
            return dict(ops[method])
    raise AssertionError(f"{method.upper()} {path} is not in the document")


def _schema_of_answer(op: dict[str, Any], status: int) -> dict[str, Any]:
    answer = op["responses"][str(status)]
    if "$ref" in answer:
        answer = SPEC["components"]["responses"][answer["$ref"].rsplit("/", 1)[1]]
    (media,) = answer["content"].values()
    return dict(media["schema"])


def _check(schema: dict[str, Any], instance: Any) -> list[str]:
    validator = Draft202012Validator({**schema, "components": SPEC["components"]})
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(instance)]


def documented_examples() -> list[tuple[str, int, str, str, Any]]:
    text = DOC.read_text(encoding="utf-8")
    return [(name, int(status), path, body, json.loads(answer))
            for name, status, path, body, answer in EXAMPLE.findall(text)]


def test_the_document_is_valid_openapi_3_1_and_served_publicly() -> None:
    validate(SPEC)
    resp = APP.test_client().get("/api/v1/openapi.json")
    assert resp.status_code == 200 and resp.get_json() == json.loads(json.dumps(SPEC))
    assert resp.get_json()["openapi"] == "3.1.0"


def test_every_api_route_of_the_app_is_in_the_document() -> None:
    routes = set()
    for rule in APP.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            routes |= {(m.lower(), path) for m in rule.methods or ()
                       if m not in ("HEAD", "OPTIONS")}
    documented = {(m, p) for p, ops in SPEC["paths"].items() for m in ops}
    assert routes - documented == set()
    assert documented - routes == set()


def test_every_operation_documents_its_problem_bodies() -> None:
    for path, ops in SPEC["paths"].items():
        for method, op in ops.items():
            errors = [s for s in op["responses"] if s.startswith("4")]
            assert errors, f"{method} {path} documents no problem body"
            for status in errors:
                assert "application/problem+json" in json.dumps(
                    SPEC["components"]["responses"].get(
                        op["responses"][status].get("$ref", "/").rsplit("/", 1)[1],
                        op["responses"][status])), (method, path, status)


def test_docs_api_md_has_examples_of_every_calculator() -> None:
    found = {path for _n, _s, path, _b, _a in documented_examples()}
    assert {"/api/v1/russian/settle", "/api/v1/caribbean/settle", "/api/v1/oasis/settle",
            "/api/v1/split/settle", "/api/v1/split/suggest"} <= found


@pytest.mark.parametrize(("name", "status", "path", "body", "answer"), documented_examples(),
                         ids=[e[0] for e in documented_examples()])
def test_each_example_of_docs_api_md_fits_the_document(
        name: str, status: int, path: str, body: str, answer: Any) -> None:
    op = _operation("post", path)
    if status != 400:  # a 400 example is a body that is not JSON on purpose
        request_schema = op["requestBody"]["content"]["application/json"]["schema"]
        assert _check(request_schema, json.loads(body)) == []
    assert _check(_schema_of_answer(op, status), answer) == []


def test_the_read_only_listing_example_fits_the_document() -> None:
    listings = LISTING.findall(DOC.read_text(encoding="utf-8"))
    assert listings
    for path, answer in listings:
        assert _check(_schema_of_answer(_operation("get", path), 200), json.loads(answer)) == []


def test_the_examples_in_the_document_itself_fit_their_schemas() -> None:
    for path, ops in SPEC["paths"].items():
        for op in ops.values():
            media = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if "example" in media:
                assert _check(media["schema"], media["example"]) == [], path
    for name, answer in SPEC["components"]["responses"].items():
        for media in answer["content"].values():
            assert _check(media["schema"], media["example"]) == [], name


schema = schemathesis.openapi.from_dict(SPEC).include(tag="calculators")
schema.app = APP
#: one test per calculator, each with its own id (schemathesis's own ``parametrize`` gives its
#: items one node id, so a parallel run reported, and counted, one of them)
CALCULATORS = {op.label: op for op in (r.ok() for r in schema.get_all_operations())}


def test_the_fuzzed_calculators_are_every_calculator_of_the_document() -> None:
    tagged = {f"{method.upper()} {path}" for path, ops in SPEC["paths"].items()
              for method, op in ops.items() if "calculators" in op.get("tags", ())}
    assert set(CALCULATORS) == tagged and len(tagged) >= 5


@pytest.mark.parametrize("label", sorted(CALCULATORS))
def test_schemathesis_never_gets_an_answer_of_500_or_more_from_the_calculators(
        label: str) -> None:
    @given(case=CALCULATORS[label].as_strategy())
    @settings(max_examples=40, deadline=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    def fuzz(case: Any) -> None:
        response = case.call(app=APP)
        assert response.status_code < 500, (case.path, response.status_code,
                                            response.text[:300])

    fuzz()
