"""Errors at the API edge: every failure is an RFC 9457 problem body, never an HTML page.

400 for a body that is not JSON at all, 422 for well-formed JSON that breaks a rule, 404/405 for
unknown routes and methods, and 500 only for real bugs (logged, with no internals shown).
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from ..rules.errors import RulesError

PROBLEM_TYPE = "application/problem+json"


def problem(status: int, title: str, detail: str, **extra: Any) -> Response:
    """A problem body; ``detail`` in the caller's language (``code``/``field`` stay as they are:
    they are the contract)."""
    from ..i18n.wording import say

    body = {"type": "about:blank", "title": title, "status": status, "detail": say(detail)}
    body.update({k: v for k, v in extra.items() if v is not None})
    resp = jsonify(body)
    resp.status_code = status
    resp.mimetype = PROBLEM_TYPE
    return resp


def rules_problem(err: RulesError) -> Response:
    info = err.problem()
    return problem(422, "The request breaks a rule", info.pop("detail"), **info)


def _is_api() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(RulesError)
    def _rules_error(err: RulesError) -> Any:
        if _is_api():
            return rules_problem(err)
        raise err  # the web layer catches RulesError itself; reaching here is a bug

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> Any:
        if not _is_api():
            return err
        return problem(err.code or 500, err.name, err.description or err.name)
