"""``GET /api/v1/openapi.json``: the OpenAPI 3.1 description of the JSON API, generated.

Every route declares its operation where it is registered (:func:`.operations.route`); the
schemas are the pydantic shapes (:mod:`.shapes`) that also check the request bodies, turned
into JSON Schema 2020-12 (OpenAPI 3.1's dialect) by pydantic. ``tests/api/test_openapi.py``
checks that the document is valid OpenAPI 3.1, that it covers every ``/api`` route of the app,
that the examples of ``docs/api.md`` fit it, and runs schemathesis against the calculators.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import CoreSchema, core_schema

from ..edge import public
from .operations import OPERATIONS, Operation, answer, route
from .shapes import Shape
from .shapes.problems import RESPONSES, OpenApiDocument, Problem, RulesProblem

VERSION = "1.0.0"
JSON = "application/json"
SCHEMAS = "#/components/schemas/{model}"
SECURITY_SCHEMES: dict[str, Any] = {
    "session": {"type": "apiKey", "in": "cookie", "name": "session",
                "description": "the web app's login session cookie (sign in at /login)"},
}


class _Schemas(GenerateJsonSchema):
    """pydantic's JSON Schema, as the document wants it: no title on every field, and no
    ``default: null`` (an optional field left out is not the same as a field set to null)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> dict[str, Any]:
        if schema.get("default", ...) is None:
            inner: CoreSchema = schema["schema"]
            return self.generate_inner(inner)
        return super().default_schema(schema)


def _ref(shape: type[Shape]) -> dict[str, str]:
    return {"$ref": SCHEMAS.format(model=shape.__name__)}


def _answer(status: str, answer: type[Shape] | str) -> dict[str, Any]:
    if isinstance(answer, str):
        return {"$ref": f"#/components/responses/{answer}"}
    return {"description": "OK" if status.startswith("2") else answer.__name__,
            "content": {JSON: {"schema": _ref(answer)}}}


def _parameter(parameter: dict[str, Any]) -> dict[str, Any]:
    """A parameter whose schema's ``enum`` is a function (a list the registry keeps, such as
    the calculators' games) gets the list as it is now."""
    schema = parameter["schema"]
    if not callable(schema.get("enum")):
        return parameter
    return {**parameter, "schema": {**schema, "enum": schema["enum"]()}}


def _operation(op: Operation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "operationId": op.operation_id, "summary": op.summary, "tags": [op.tag],
        "responses": {s: _answer(s, a) for s, a in sorted(op.answers.items())}}
    if op.description:
        out["description"] = op.description
    if op.parameters:
        out["parameters"] = [_parameter(p) for p in op.parameters]
    if op.body is not None:
        media: dict[str, Any] = {"schema": _ref(op.body)}
        if op.example is not None:
            media["example"] = op.example
        out["requestBody"] = {"required": True, "content": {JSON: media}}
    out["security"] = [] if op.public else [{"session": []}]
    return out


def _schemas() -> dict[str, Any]:
    """Every shape an operation names, and every shape those contain."""
    shapes: set[type[Shape]] = {Problem, RulesProblem}
    for op in OPERATIONS.values():
        shapes |= {a for a in op.answers.values() if not isinstance(a, str)}
        if op.body is not None:
            shapes.add(op.body)
    _, found = models_json_schema([(s, "validation") for s in sorted(shapes, key=_name)],
                                  ref_template=SCHEMAS, schema_generator=_Schemas)
    defs: dict[str, Any] = found.get("$defs", {})
    return dict(sorted(defs.items()))


def _name(shape: type[Shape]) -> str:
    return shape.__name__


def document() -> dict[str, Any]:
    """The whole OpenAPI 3.1 document (plain data: JSON-ready)."""
    paths: dict[str, Any] = {}
    for op in OPERATIONS.values():
        paths.setdefault(op.path, {})[op.method] = _operation(op)
    return {
        "openapi": "3.1.0",
        "info": {"title": "dealer_assist JSON API", "version": VERSION,
                 "description": "Calculators (public, rate-limited), the live rounds API and "
                                "the auditors' read-only API; every failure is an RFC 9457 "
                                "problem body. Prose and curl examples: docs/api.md."},
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": _schemas(), "responses": RESPONSES,
                       "securitySchemes": SECURITY_SCHEMES},
    }


@route("get", "/openapi.json", "This document", tag="meta",
       answers={"200": OpenApiDocument, "429": "TooManyRequests"})
@public
def openapi() -> Any:
    return answer(OpenApiDocument, document())
