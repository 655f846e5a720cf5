"""The rules engine stands alone: standard library only, nothing from the web or the database.

DESIGN.md: "`rules` imports nothing from the rest of the project; a test proves it (import it in a
subprocess, assert flask and sqlmodel are absent from `sys.modules`)."
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import dealer_assist.rules

RULES_DIR = Path(dealer_assist.rules.__file__).resolve().parent
PROJECT_DIR = RULES_DIR.parent.parent
FORBIDDEN = ("flask", "sqlmodel", "sqlalchemy", "jinja2", "weasyprint")


def rules_modules() -> list[str]:
    """``dealer_assist.rules`` and every module under it (games included), by dotted name."""
    names = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        parts = path.relative_to(RULES_DIR.parent.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def loaded_in_fresh_interpreter(prelude: str) -> list[str]:
    """Import every rules module in a new interpreter; return the forbidden modules it loaded."""
    script = prelude + (
        "import importlib, json, sys\n"
        f"for name in {rules_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {FORBIDDEN!r} if m in sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True,
        cwd=PROJECT_DIR,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_the_rules_modules_are_found() -> None:
    names = rules_modules()
    assert "dealer_assist.rules" in names
    assert "dealer_assist.rules.evaluator" in names
    assert "dealer_assist.rules.games" in names


def test_importing_the_rules_engine_loads_no_web_or_database_library() -> None:
    """Importing ``dealer_assist.rules`` runs ``dealer_assist/__init__.py`` first, so the parent
    package must not import the Flask app eagerly either (a lazy ``create_app`` is enough)."""
    assert loaded_in_fresh_interpreter("") == []


def test_the_rules_package_itself_loads_no_web_or_database_library() -> None:
    """The same, with the parent package's ``__init__`` bypassed: only the rules' own imports."""
    prelude = (
        "import sys, types\n"
        "parent = types.ModuleType('dealer_assist')\n"
        f"parent.__path__ = [{str(RULES_DIR.parent)!r}]\n"
        "sys.modules['dealer_assist'] = parent\n"
    )
    assert loaded_in_fresh_interpreter(prelude) == []


def imports_of(path: Path) -> list[tuple[str, int]]:
    """(module, level) for every import statement in a file, wherever it sits."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level))
    return found


def test_every_rules_module_imports_only_the_standard_library_and_the_rules_package() -> None:
    stdlib = sys.stdlib_module_names | {"__future__"}
    offenders = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        depth = len(path.relative_to(RULES_DIR).parts) - 1  # 0 in rules/, 1 in rules/games/
        for module, level in imports_of(path):
            if level == 0:
                ok = module.split(".")[0] in stdlib or module.startswith("dealer_assist.rules")
            else:
                ok = level <= depth + 1  # a relative import that stays inside dealer_assist.rules
            if not ok:
                offenders.append(f"{path.relative_to(RULES_DIR)}: {'.' * level}{module}")
    assert offenders == []


def test_the_import_check_would_catch_a_third_party_or_project_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import flask\nfrom ..services import rounds\nfrom .cards import Card\n")
    assert imports_of(sample) == [("flask", 0), ("services", 2), ("cards", 1)]
