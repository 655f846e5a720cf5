"""The package's import structure, read from its source (``ast``), so what was cleaned up cannot
come back: no cycle between packages, no use of another module's private name, and imports
inside functions only where a comment says why (at most ``FUNCTION_IMPORTS_MAX``).

A *package* here is a directory of ``dealer_assist`` (``rules``, ``rules.games.stud``,
``services.rounds``, ...) or a top-level module (``pdf``, ``db``); every import, at module level
or inside a function, is an edge from the importer's package to the imported module's. A cycle
is a strongly connected set of two or more packages. Migrations are scripts, not modules: they
are left out here and fenced by their own import-linter contract (``pyproject.toml``).

Run ``pytest -s tests/test_architecture.py`` to see the figures; the last tests prove each
check fails on a small tree that breaks it.
"""

from __future__ import annotations

import ast
import importlib.util
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dealer_assist"
#: imports inside a function, each with a comment saying why (the issue's ceiling)
FUNCTION_IMPORTS_MAX = 10

_spec = importlib.util.spec_from_file_location("private_imports",
                                               ROOT / "scripts" / "private_imports.py")
assert _spec and _spec.loader
private_imports = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(private_imports)
modules = private_imports.modules
resolve = private_imports.resolve


def package_of(mods: dict[str, tuple[Path, bool]], root: str, module: str) -> str:
    """A package module is its own package; a module belongs to its directory's, except the
    root's own modules (``pdf``, ``db``), each a package of its own."""
    if mods[module][1]:
        return module
    parent = module.rsplit(".", 1)[0]
    return module if parent == root else parent


def imports(mods: dict[str, tuple[Path, bool]], module: str) -> list[list[str]]:
    """The modules of the package each import statement of ``module`` names (at module level
    or inside a function)."""
    path, package = mods[module]
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(module, package, node.level, node.module)
            targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in mods else source
                       for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        targets = sorted({t for t in targets if t in mods})
        if targets:
            out.append(targets)
    return out


def package_cycles(mods: dict[str, tuple[Path, bool]], root: str) -> list[list[str]]:
    """The strongly connected sets of two or more packages (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module in mods:
        for targets in imports(mods, module):
            for target in targets:
                a, b = package_of(mods, root, module), package_of(mods, root, target)
                if a != b:
                    graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = [stack.pop()]
            while part[-1] != v:
                part.append(stack.pop())
            if len(part) > 1:
                cycles.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(cycles)


def function_imports(mods: dict[str, tuple[Path, bool]]) -> list[tuple[str, bool]]:
    """Each import inside a function, of the package or not (WeasyPrint, numpy, Alembic):
    ("file:line", whether a comment on its line or the line above says why)."""
    out = []
    for module, (path, _package) in mods.items():
        text = path.read_text()
        lines = text.splitlines()
        name = path.relative_to(path.parents[len(module.split(".")) - 1])
        for function in ast.walk(ast.parse(text)):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    said = "#" in lines[node.lineno - 1] or \
                        lines[node.lineno - 2].strip().startswith("#")
                    out.append((f"{name}:{node.lineno}", said))
    return sorted(set(out))


def figures(root: Path) -> tuple[list[list[str]], set[tuple[str, str, str]],
                                 list[tuple[str, bool]]]:
    mods = modules(root)
    return (package_cycles(mods, root.name), private_imports.private_uses(mods),
            function_imports(mods))


def test_the_package_has_no_cycle_no_private_cross_import_and_few_function_imports() -> None:
    cycles, private, inside = figures(PACKAGE)
    print(f"\npackage cycles: {len(cycles)}\nprivate cross-imports: {len(private)}\n"
          f"function-level imports: {len(inside)}")
    assert cycles == []
    assert sorted(private) == []
    assert len(inside) <= FUNCTION_IMPORTS_MAX, inside


def test_every_import_inside_a_function_has_a_comment_saying_why() -> None:
    assert [where for where, said in figures(PACKAGE)[2] if not said] == []


def application_imports(path: Path) -> list[str]:
    """What a migration script imports of the application (``dealer_assist`` and below),
    at module level or inside a function."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return sorted(n for n in names if n == "dealer_assist" or n.startswith("dealer_assist."))


def test_no_migration_depends_on_application_code_that_can_change_after_it() -> None:
    """A revision freezes what it needs in its own file: an old migration must not change
    when the code does (``env.py``, Alembic's environment, reads the current models)."""
    versions = sorted((PACKAGE / "migrations" / "versions").glob("*.py"))
    assert len(versions) > 10
    assert {p.name: application_imports(p) for p in versions
            if application_imports(p)} == {}


def test_a_migration_importing_live_code_is_named(tmp_path: Path) -> None:
    script = tmp_path / "0099_x.py"
    script.write_text("import json\n\ndef upgrade():\n"
                      "    from dealer_assist.audit import chain\n")
    assert application_imports(script) == ["dealer_assist.audit"]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


@pytest.mark.parametrize("files", [
    {"__init__.py": "", "a/__init__.py": "", "a/x.py": "from ..b import y\n",
     "b/__init__.py": "", "b/y.py": "def f():\n    from ..a import x  # late: a cycle\n"},
    {"__init__.py": "", "top.py": "from .a import x\n", "a/__init__.py": "",
     "a/x.py": "from .. import top\n"},
])
def test_a_cycle_between_two_packages_is_found_even_through_a_late_import(
        tmp_path: Path, files: dict[str, str]) -> None:
    assert len(figures(write(tmp_path, files))[0]) == 1


def test_a_package_importing_its_own_subpackage_alone_is_no_cycle(tmp_path: Path) -> None:
    files = {"__init__.py": "", "a/__init__.py": "from .b import y\n",
             "a/b/__init__.py": "", "a/b/y.py": "X = 1\n"}
    assert figures(write(tmp_path, files))[0] == []


def test_a_private_name_of_another_module_is_counted(tmp_path: Path) -> None:
    files = {"__init__.py": "", "a.py": "_X = 1\n", "b.py": "from .a import _X\n"}
    assert len(figures(write(tmp_path, files))[1]) == 1


def test_an_import_inside_a_function_without_a_comment_is_named(tmp_path: Path) -> None:
    files = {"__init__.py": "", "a.py": "X = 1\n",
             "b.py": "def f():\n    from .a import X\n    return X\n\n\n"
                     "def g():\n    # late: why\n    from .a import X\n    return X\n"}
    assert figures(write(tmp_path, files))[2] == [("pkg/b.py:2", False), ("pkg/b.py:8", True)]
