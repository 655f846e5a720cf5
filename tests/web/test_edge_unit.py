"""The edge owns the request's transaction and maps refusals once (docs/architecture.md, "Who
commits"; ``edge/unit.py``).

A view of a page (or API) blueprint never commits: the edge commits its work after a success
or a redirect and rolls it back after any other answer. A ``ServiceError`` or ``RulesError`` a
view raises is answered by one handler -- the view's own answer when it declared one with
``@on_refusal``, the error page otherwise -- after the transaction is rolled back. These views
are registered by this module alone, on a blueprint of the edge, and write through a service.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, g
from sqlmodel import select

from dealer_assist import create_app, db
from dealer_assist.edge import PageBlueprint, Refused, on_refusal, public
from dealer_assist.models import GameTable
from dealer_assist.rules.errors import RulesError
from dealer_assist.services.errors import ValidationError
from tests.conftest import FAST_ARGON2
from tests.factories import make_table
from tests.web.conftest import Browser

PACKAGE = Path(__file__).resolve().parents[2] / "dealer_assist"
answered: list[tuple[str, dict[str, Any]]] = []


def _write(name: str) -> None:
    make_table(db.get_session(), name=name)  # a service call: it flushes, never commits


def _answer(err: Refused, number: int) -> Any:
    answered.append((err.message, {"number": number}))
    return f"refused {number}: {err.field}", 409


bp = PageBlueprint("edge_unit_test", __name__, url_prefix="/edge-unit-test")


@bp.post("/ok")
@public
def writes_and_redirects() -> Any:
    _write("T committed")
    return "", 303, {"Location": "/"}


@bp.post("/unhappy")
@public
def writes_and_answers_422() -> Any:
    _write("T never")
    return "no", 422


@bp.post("/rule")
@public
def breaks_a_rule() -> Any:
    _write("T broken rule")
    raise RulesError("the engine refuses", field="box")


@bp.post("/declared/<int:number>")
@on_refusal(_answer)
@public
def declared(number: int) -> Any:
    _write(f"T declared {number}")
    g.wrote = True
    raise ValidationError("No such thing.", field="thing")


@pytest.fixture
def app(db_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": db_url,
                      **FAST_ARGON2})
    app.register_blueprint(bp)
    answered.clear()
    yield app
    db.dispose(app)


def _tables(app: Flask) -> set[str]:
    with db.session_scope(app, write=False) as s:
        return set(s.exec(select(GameTable.name)).all())


def test_a_page_view_that_writes_and_redirects_is_committed_by_the_edge(
        app: Flask, browser: Browser) -> None:
    assert browser.post("/edge-unit-test/ok").status_code == 303
    assert "T committed" in _tables(app)


def test_a_view_answering_a_4xx_has_its_writes_rolled_back(app: Flask, browser: Browser) -> None:
    assert browser.post("/edge-unit-test/unhappy").status_code == 422
    assert "T never" not in _tables(app)


def test_a_rule_broken_in_a_page_view_is_a_422_page_with_nothing_written(
        app: Flask, browser: Browser) -> None:
    resp = browser.post("/edge-unit-test/rule")
    assert resp.status_code == 422
    assert "the engine refuses" in resp.get_data(as_text=True)
    assert "T broken rule" not in _tables(app)


def test_a_refusal_is_answered_by_the_views_declared_answer_after_the_rollback(
        app: Flask, browser: Browser) -> None:
    resp = browser.post("/edge-unit-test/declared/7")
    assert (resp.status_code, resp.get_data(as_text=True)) == (409, "refused 7: thing")
    assert answered == [("No such thing.", {"number": 7})]
    assert "T declared 7" not in _tables(app)


# --- the source: no view commits, no view maps a refusal by hand ------------------------------

#: ``except`` clauses naming a refusal that stay in web/: none answers the request; each turns
#: one error into another value or error (file, function)
KEPT = {
    ("web/admin.py", "_update_poker"),  # a stake the engine refuses -> the form's own field
    ("web/parlour_form.py", "_cards"),  # the engine's field -> the card grid's input
    ("web/poker_street.py", "refused_up_card"),  # which seat's card the engine refuses
    ("web/poker_street.py", "as_code"),  # a typed card that does not parse stays as typed
    ("web/relief.py", "_asked_for"),  # ``?who=`` that names no one: the page without him
}


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for package in ("web", "api"):
        for path in sorted((PACKAGE / package).rglob("*.py")):
            yield str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8"))


def _catches_a_refusal(handler: ast.ExceptHandler) -> bool:
    names = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "")
             for n in ast.walk(handler.type)} if handler.type else set()
    return bool(names & {"ServiceError", "RulesError", "Busy"})


def test_no_view_of_web_or_api_commits() -> None:
    commits = [f"{name}:{node.lineno}" for name, tree in _sources() for node in ast.walk(tree)
               if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
               and node.func.attr == "commit"]
    assert commits == []


def test_web_and_api_map_no_service_or_rules_error_by_hand() -> None:
    found = set()
    for name, tree in _sources():
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef):
                for node in ast.walk(fn):
                    if isinstance(node, ast.ExceptHandler) and _catches_a_refusal(node):
                        found.add((name, fn.name))
    assert found == KEPT
