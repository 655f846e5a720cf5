"""Each API route and its entry in the OpenAPI document, declared in one place (:func:`route`).

``@route("post", "/split/suggest", "summary", tag=..., body=SuggestRequest, answers=...)``
registers the view on the API blueprint *and* records its :class:`Operation`: the path, the
method, the shape of the body and of each answer, the parameters and an example. The view
gets its body read by the shape its operation names (:func:`parsed`: malformed JSON is a 400,
then the engine's readers' 422s in the order they read, then the shape's 400) and passes on
what that model read; it builds its answer with the shape of the answer (:func:`answer`). So
the document, the reader and the answer cannot drift apart. ``api/openapi.py`` assembles the
document from :data:`OPERATIONS`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import request

from ..edge import PUBLIC_ROLES
from . import bp
from .shapes import Request, Shape, read_body

F = TypeVar("F", bound=Callable[..., Any])
Q = TypeVar("Q", bound=Request[Any])
#: an answer: a shape, or the name of a reusable problem answer (``shapes.problems.RESPONSES``)
Answer = type[Shape] | str


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    summary: str
    tag: str
    answers: Mapping[str, Answer]
    body: type[Shape] | None
    public: bool
    parameters: tuple[dict[str, Any], ...]
    example: dict[str, Any] | None
    description: str


OPERATIONS: dict[str, Operation] = {}
PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def openapi_path(rule: str) -> str:
    """``/tables/<int:table_id>/rounds`` -> ``/api/v1/tables/{table_id}/rounds``."""
    return str(bp.url_prefix) + PARAM.sub(r"{\1}", rule)


def route(method: str, rule: str, summary: str, *, tag: str, answers: Mapping[str, Answer],
          body: type[Shape] | None = None, parameters: tuple[dict[str, Any], ...] = (),
          example: dict[str, Any] | None = None,
          description: str = "") -> Callable[[F], F]:
    """Register the view (already declared public or for its roles) and describe it."""

    def decorate(view: F) -> F:
        bp.add_url_rule(rule, view_func=view, methods=[method.upper()])
        OPERATIONS[view.__name__] = Operation(
            method, openapi_path(rule), view.__name__, summary, tag, answers, body,
            getattr(view, "roles", None) == PUBLIC_ROLES, parameters, example, description)
        return view

    return decorate


def parsed(shape: type[Q], **context: Any) -> Q:
    """The request's body read by ``shape``, the shape this endpoint's operation documents: a
    400 for a body that is not JSON, then the shape's readers (the engine's 422s) and its check
    (a 400 naming the field). ``context``: what the readers need beside the body (the
    ``Idempotency-Key`` header is always there, as ``key``)."""
    operation = OPERATIONS[(request.endpoint or "").rsplit(".", 1)[-1]]
    assert operation.body is shape, f"{operation.operation_id} documents {operation.body}"
    return read_body(shape, {"key": request.headers.get("Idempotency-Key"), **context})


def answer(shape: type[Shape], values: Mapping[str, Any]) -> dict[str, Any]:
    """An answer built by its shape: ``values`` as JSON (what the client will read) parsed by
    ``shape`` and written back with exactly the fields given (an optional field left out stays
    out). A value the shape does not allow raises here: the document cannot promise what the
    answer does not keep."""
    text = json.dumps(values)
    built = shape.model_validate_json(text)
    out: dict[str, Any] = built.model_dump(mode="json", exclude_unset=True, by_alias=True)
    lost: list[str] = []
    kept: dict[str, Any] = _as_given(json.loads(text), out, "", lost)
    if lost:
        raise ValueError(f"{shape.__name__} does not document {', '.join(lost)}")
    return kept


def _as_given(given: Any, kept: Any, path: str, lost: list[str]) -> Any:
    """One walk of the values given and the shape's dump of them: the dump with each whole
    number as given (a ``float`` field keeps ``-1``, not ``-1.0``: the answer's bytes stay what
    the engine said); every field of ``given`` the dump no longer has is added to ``lost``."""
    if isinstance(given, dict) and isinstance(kept, dict):
        walked = {}
        for k, v in given.items():
            if k in kept:
                walked[k] = _as_given(v, kept[k], f"{path}.{k}", lost)
            else:
                lost.append(f"{path}.{k}".lstrip("."))
        return {k: walked[k] if k in walked else v for k, v in kept.items()}
    if isinstance(given, list) and isinstance(kept, list):
        items = [_as_given(a, b, f"{path}[{n}]", lost)
                 for n, (a, b) in enumerate(zip(given, kept, strict=False))]
        return items if len(given) == len(kept) else kept
    if (isinstance(kept, float) and isinstance(given, int) and not isinstance(given, bool)
            and kept == given):
        return given
    return kept


def path_param(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", **schema} if not schema else schema}


def query(name: str, description: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "integer"}}


def header(name: str, description: str, required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": required, "description": description,
            "schema": {"type": "string"}}


#: the headers of every write: the CSRF token and the idempotency key
WRITE = (header("X-CSRF-Token", "the session's CSRF token (any page's csrf_token field)"),
         header("Idempotency-Key", "1 to 64 characters; or an idempotency_key body field"))
#: every route may answer 400: the edge refuses a NUL character or an unbounded id anywhere in
#: the request, and a query parameter that does not parse
READ_ERRORS: dict[str, Answer] = {"400": "BadRequest", "401": "Unauthorized",
                                  "403": "Forbidden"}
WRITE_ERRORS: dict[str, Answer] = {**READ_ERRORS, "404": "NotFound",
                                   "409": "Conflict", "422": "Unprocessable",
                                   "503": "ServiceUnavailable"}
CALC_ERRORS: dict[str, Answer] = {"400": "BadRequest", "422": "Unprocessable",
                                  "429": "TooManyRequests"}


def read_answers(shape: type[Shape]) -> dict[str, Answer]:
    return {"200": shape, **READ_ERRORS, "404": "NotFound"}


def write_answers(shape: type[Shape]) -> dict[str, Answer]:
    return {"201": shape, "200": shape, **WRITE_ERRORS}
