"""Every answer of the API's own tests checked against the OpenAPI document.

:func:`recording` connects to Flask's ``request_finished`` signal (every app a test makes) and
keeps each answer of an ``/api/`` route: the method, the route, the status, the media type and
the body. :func:`problems` checks each against ``/api/v1/openapi.json`` as ``api.openapi``
builds it: the path and method are documented, the status is one of the operation's answers,
and a JSON body fits the schema documented for that status (jsonschema, Draft 2020-12, the
document's own dialect). The autouse fixtures of ``tests/api/conftest.py`` and
``tests/web/conftest.py`` run it around every test there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from flask import Flask, request, request_finished
from flask.wrappers import Response
from jsonschema import Draft202012Validator

PARAM = re.compile(r"<(?:\w+:)?(\w+)>")
JSON_TYPES = ("application/json", "application/problem+json")


@dataclass(frozen=True)
class Answer:
    method: str
    path: str  # the route as the document writes it: /api/v1/rounds/{round_id}
    url: str
    status: int
    media: str
    body: bytes


@cache
def spec() -> dict[str, Any]:
    from dealer_assist.api.openapi import document

    return json.loads(json.dumps(document()))


@contextmanager
def recording() -> Iterator[list[Answer]]:
    """The answers of ``/api/`` routes given while the block runs, by any app."""
    seen: list[Answer] = []

    def keep(sender: Flask, response: Response, **_: Any) -> None:
        rule = request.url_rule
        if rule is None or not rule.rule.startswith("/api/"):
            return  # no route matched (a 404 or 405 of the fallback): no operation to check
        media = (response.mimetype or "").lower()
        body = response.get_data() if media in JSON_TYPES else b""
        seen.append(Answer(request.method.lower(), PARAM.sub(r"{\1}", rule.rule),
                           request.full_path.rstrip("?"), response.status_code, media, body))

    request_finished.connect(keep)
    try:
        yield seen
    finally:
        request_finished.disconnect(keep)


def _response(op: dict[str, Any], status: int) -> dict[str, Any] | None:
    found = op["responses"].get(str(status))
    if found is not None and "$ref" in found:
        found = spec()["components"]["responses"][found["$ref"].rsplit("/", 1)[1]]
    return found


@cache
def _validator(schema_text: str) -> Draft202012Validator:
    return Draft202012Validator({**json.loads(schema_text),
                                 "components": spec()["components"]})


def problems(answer: Answer) -> list[str]:
    """What in ``answer`` the document does not say (empty: it fits)."""
    where = f"{answer.method.upper()} {answer.url} -> {answer.status}"
    if answer.method in ("head", "options"):
        return []  # Flask answers these itself (HEAD: the GET without its body)
    op = spec()["paths"].get(answer.path, {}).get(answer.method)
    if op is None:
        return [f"{where}: {answer.method.upper()} {answer.path} is not in the document"]
    documented = _response(op, answer.status)
    if documented is None:
        return [f"{where}: status {answer.status} is not among the documented answers "
                f"{sorted(op['responses'])}"]
    content = documented.get("content", {})
    if not content:
        return []
    if answer.media not in content:
        return [f"{where}: answered {answer.media or 'no body'}, documented {sorted(content)}"]
    if answer.media not in JSON_TYPES:
        return []
    schema = content[answer.media].get("schema")
    if schema is None:
        return []
    try:
        instance = json.loads(answer.body)
    except ValueError:
        return [f"{where}: the body is not JSON"]
    validator = _validator(json.dumps(schema, sort_keys=True))
    return [f"{where}: {'/'.join(map(str, e.absolute_path)) or 'body'}: {e.message[:300]}"
            for e in validator.iter_errors(instance)]
