"""Structure figures of the package (the before/after): module and function sizes, imports
of another module's private names, step engines and where a Russian poker step is checked.

    .venv/bin/python scripts/structure_counts.py [--list]

Standard library only (``ast``); read-only. The figures are printed last, one per line, as
``name: value``; ``--list`` prints what each figure counts first.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dealer_assist"
MODULE_MAX, FUNCTION_MAX = 400, 60
#: a step engine: a function that takes one step record and dispatches it to the step's code
ENGINE_NAMES = {"apply", "apply_generic", "verify_action", "play_hand"}
#: Russian poker's steps, by the name of the function that checks each (``verify_<step>``)
RUSSIAN_STEPS = ("place_box", "deal_box", "deal_dealer", "deal_up", "bet", "fold",
                 "reveal_dealer", "take_ante", "buy_game", "dealer_draw", "show", "exchange",
                 "sixth_card", "insure", "redeal")
#: a check of a step written outside its ``verify_*`` (services/steps.py before )
EXTRA_CHECKS = ("_no_surplus_card",)


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def long_modules() -> list[str]:
    out = []
    for path in modules():
        lines = len(path.read_text().splitlines())
        if lines > MODULE_MAX:
            out.append(f"{path.relative_to(ROOT)} {lines}")
    return out


def long_functions() -> list[str]:
    out = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > FUNCTION_MAX:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {size}")
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports() -> list[str]:
    """``from x import _name`` and ``module._name`` where ``module`` is an imported module of
    the project (a class's own ``self._x`` is not counted)."""
    out = []
    for path in modules():
        tree = ast.parse(path.read_text())
        aliases: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if _private(a.name):
                        out.append(f"{path.relative_to(ROOT)}:{node.lineno} {a.name}")
                    elif node.level or (node.module or "").startswith("dealer_assist"):
                        aliases.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("dealer_assist"):
                        aliases.add((a.asname or a.name).split(".")[0])
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) \
                    and isinstance(node.value, ast.Name) and node.value.id in aliases:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno} "
                           f"{node.value.id}.{node.attr}")
    return out


def step_engines() -> list[str]:
    out = []
    for path in modules():
        if "rules" not in path.parts:
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name in ENGINE_NAMES:
                out.append(f"{path.relative_to(ROOT)} {node.name}")
    return out


def russian_checks() -> list[str]:
    """Every definition of a Russian step's check: ``verify_<step>`` (one per step is the
    goal) and checks of a step written elsewhere."""
    names = {f"verify_{step}" for step in RUSSIAN_STEPS} | set(EXTRA_CHECKS)
    out = []
    for path in modules():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name in names:
                out.append(f"{path.relative_to(ROOT)} {node.name}")
    return out


def main() -> None:
    figures = {"modules over 400 lines": long_modules(),
               "functions over 60 lines": long_functions(),
               "imports of another module's private name": private_imports(),
               "step dispatchers in the rules engine": step_engines(),
               "definitions of a Russian step's check (15 steps)": russian_checks()}
    if "--list" in sys.argv:
        for name, items in figures.items():
            print(f"== {name}")
            for item in items:
                print(f"  {item}")
    for name, items in figures.items():
        print(f"{name}: {len(items)}")


if __name__ == "__main__":
    main()
