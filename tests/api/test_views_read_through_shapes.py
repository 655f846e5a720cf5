"""The API's views read their bodies only through their request shapes, and build their answers
with their answer shapes, read from the source (``ast``) so the old way cannot come back:

- no module of ``dealer_assist/api`` outside ``api/shapes/`` imports ``rules.fields`` or reads
  the raw body (``json_body``, ``request.get_json``, ``request.json``, ``request.get_data``);
- ``operations.checked`` (the check whose parsed model was thrown away) is gone;
- every operation that documents a body reads it with ``parsed(<that shape>)``, and that shape
  is a ``Request`` with its own reader;
- every operation whose 200/201 answer is a shape builds it with ``answer(<that shape>, ...)``,
  directly or through the helpers of the API it calls.
"""

from __future__ import annotations

import ast
from pathlib import Path

import dealer_assist.api  # noqa: F401  (registers every operation)
from dealer_assist.api import shapes
from dealer_assist.api.operations import OPERATIONS

API = Path(__file__).resolve().parents[2] / "dealer_assist" / "api"
RAW_READERS = {"json_body", "get_json", "get_data"}


def view_modules() -> dict[str, ast.Module]:
    return {p.name: ast.parse(p.read_text()) for p in sorted(API.glob("*.py"))}


def raw_reads(tree: ast.Module) -> list[str]:
    """What in ``tree`` reads a body by hand: ``rules.fields`` imported, a raw reader called."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("rules.fields"):
            found.append(f"imports {node.module}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("rules") and any(
                a.name == "fields" for a in node.names):
            found.append("imports rules.fields")
        elif isinstance(node, ast.Import) and any(a.name.endswith("rules.fields")
                                                  for a in node.names):
            found.append("imports rules.fields")
        elif isinstance(node, ast.Call) and _called(node) in RAW_READERS:
            found.append(f"calls {_called(node)}")
        elif (isinstance(node, ast.Attribute) and node.attr == "json"
              and isinstance(node.value, ast.Name) and node.value.id == "request"):
            found.append("reads request.json")
    return found


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else "")


def functions(trees: dict[str, ast.Module]) -> dict[str, tuple[str, ast.FunctionDef]]:
    return {node.name: (name, node) for name, tree in trees.items()
            for node in tree.body if isinstance(node, ast.FunctionDef)}


def calls_with(fn: ast.FunctionDef, callee: str) -> set[str]:
    """The first argument's name of every call of ``callee`` in ``fn``."""
    return {node.args[0].id for node in ast.walk(fn)
            if isinstance(node, ast.Call) and _called(node) == callee and node.args
            and isinstance(node.args[0], ast.Name)}


def called_names(fn: ast.FunctionDef) -> set[str]:
    return {_called(node) for node in ast.walk(fn) if isinstance(node, ast.Call)}


def test_no_view_module_reads_a_body_by_hand() -> None:
    found = {name: raw_reads(tree) for name, tree in view_modules().items()}
    assert {name: reads for name, reads in found.items() if reads} == {}


def test_the_check_that_threw_its_parsed_model_away_is_gone() -> None:
    defined = {fn for fn, _ in functions(view_modules()).items()}
    called = {c for _, fn in functions(view_modules()).values() for c in called_names(fn)}
    assert "checked" not in defined | called


def test_every_operation_with_a_body_reads_it_through_its_shape() -> None:
    fns = functions(view_modules())
    wrong = {}
    for op in OPERATIONS.values():
        if op.body is None:
            continue
        _, fn = fns[op.operation_id]
        is_request = issubclass(op.body, getattr(shapes, "Request", ()))
        if calls_with(fn, "parsed") != {op.body.__name__} or not is_request \
                or "read" not in vars(op.body):
            wrong[op.operation_id] = (op.body.__name__, sorted(calls_with(fn, "parsed")))
    assert wrong == {}
    assert sum(op.body is not None for op in OPERATIONS.values()) >= 15


def test_every_answer_shape_is_built_by_that_shape() -> None:
    fns = functions(view_modules())

    def built(name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """The shapes ``answer`` is called with in ``name`` and the helpers it calls."""
        fn = fns[name][1]
        out = calls_with(fn, "answer")
        for helper in (called_names(fn) & set(fns)) - seen - {name}:
            out |= built(helper, seen | {name})
        return out

    wrong = {}
    for op in OPERATIONS.values():
        shapes = {a.__name__ for s, a in op.answers.items()
                  if s in ("200", "201") and not isinstance(a, str)}
        if shapes and not shapes <= built(op.operation_id):
            wrong[op.operation_id] = (sorted(shapes), sorted(built(op.operation_id)))
    assert wrong == {}
