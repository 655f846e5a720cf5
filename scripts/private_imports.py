"""List every use of another module's private name inside a package (there should be
none). A use is (importer, owner, name) where the name starts with one underscore, the owner is a
different module of the package, and it is reached by ``from owner import _name`` or by
``owner._name`` on an imported module. Prints one line per use, then ``total: N``.

usage: python scripts/private_imports.py [PACKAGE_DIR]   (default: dealer_assist)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package), migrations left out (scripts, not modules)."""
    out = {}
    for path in root.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def resolve(module: str, package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.split(".")[: None if package else -1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(mods: dict[str, tuple[Path, bool]]) -> set[tuple[str, str, str]]:
    found: set[tuple[str, str, str]] = set()
    for module, (path, package) in mods.items():
        tree = ast.parse(path.read_text())
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = resolve(module, package, node.level, node.module)
                for alias in node.names:
                    if f"{source}.{alias.name}" in mods:
                        aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif private(alias.name) and source != module and source in mods:
                        found.add((module, source, alias.name))
            elif isinstance(node, ast.Import):
                aliases.update({a.asname: a.name for a in node.names
                                if a.asname and a.name in mods})
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and aliases.get(node.value.id, module) != module and private(node.attr)):
                found.add((module, aliases[node.value.id], node.attr))
    return found


if __name__ == "__main__":
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "dealer_assist")
    uses = sorted(private_uses(modules(root)))
    for importer, owner, name in uses:
        print(f"{importer} uses {owner}.{name}")
    print(f"total: {len(uses)}")
