"""The layering is a checked contract (DESIGN.md "Dependencies point one way").

``make test`` runs ``lint-imports`` on the contracts in ``pyproject.toml`` ([tool.importlinter]).
These tests read the same contracts and prove they hold on the package as it is and that each
one *fails* when the import it forbids appears (an import added to a copy of the import graph,
as if someone had written it): a contract that cannot fail would prove nothing.
"""

from __future__ import annotations

import copy
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter import api
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract

import dealer_assist

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
TYPES: dict[str, Any] = {"layers": LayersContract, "independence": IndependenceContract,
                         "forbidden": ForbiddenContract}


@cache
def config() -> dict[str, Any]:
    return api.read_configuration(str(PYPROJECT))


@cache
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("dealer_assist", include_external_packages=True, cache_dir=None)


def contract(contract_id: str) -> Any:
    (options,) = [c for c in config()["contracts_options"] if c.get("id") == contract_id]
    return TYPES[options["type"]](name=options["name"],
                                  session_options=config()["session_options"],
                                  contract_options=options)


def kept(contract_id: str, *added: tuple[str, str]) -> bool:
    """Whether the contract holds on the package's graph with the imports ``added``."""
    g = copy.deepcopy(graph())
    for importer, imported in added:
        g.add_import(importer=importer, imported=imported, line_number=1,
                     line_contents=f"import {imported}")
    return bool(contract(contract_id).check(g, verbose=False).kept)


def test_every_contract_holds_on_the_package() -> None:
    ids = [c["id"] for c in config()["contracts_options"]]
    assert ids == ["layers", "web-api", "pure-rules", "pure-tablet", "no-flask-in-services",
                   "lab", "i18n", "audit", "pdf", "cli"]
    assert {i: kept(i) for i in ids} == dict.fromkeys(ids, True)


@pytest.mark.parametrize(("contract_id", "importer", "imported"), [
    ("web-api", "dealer_assist.web.admin", "dealer_assist.api.rounds"),
    ("web-api", "dealer_assist.api.rounds", "dealer_assist.web.forms"),
    ("layers", "dealer_assist.web.admin", "dealer_assist.api.rounds"),
    ("layers", "dealer_assist.edge.guard", "dealer_assist.web.auth"),
    ("layers", "dealer_assist.services.shifts.shifts", "dealer_assist.edge.status"),
    ("layers", "dealer_assist.models.rounds", "dealer_assist.services.errors"),
    ("layers", "dealer_assist.rules.cards", "dealer_assist.models.base"),
    ("pure-rules", "dealer_assist.rules.cards", "dealer_assist.i18n.wording"),
    ("pure-rules", "dealer_assist.rules.evaluator", "numpy"),
    ("no-flask-in-services", "dealer_assist.services.shifts.shifts", "flask"),
    ("pure-tablet", "dealer_assist.tablet.offline", "dealer_assist.services.errors"),
    ("pure-tablet", "dealer_assist.tablet.offline", "flask"),
    # indirect too: a module of the project that imports Flask is as forbidden as Flask
    ("no-flask-in-services", "dealer_assist.services.shifts.shifts", "dealer_assist.audit.app"),
    ("no-flask-in-services", "dealer_assist.services.rounds.txn", "dealer_assist.db"),
    ("lab", "dealer_assist.lab.advice", "dealer_assist.models.lab"),
    ("lab", "dealer_assist.lab.house_edge", "sqlalchemy"),
    ("i18n", "dealer_assist.i18n.wording", "dealer_assist.services.errors"),
    ("audit", "dealer_assist.audit.capture", "dealer_assist.services.rounds.store"),
    ("pdf", "dealer_assist.pdf", "dealer_assist.services.reports.poker"),
    ("cli", "dealer_assist.cli.report", "dealer_assist.web.tables"),
])
def test_each_contract_fails_on_the_import_it_forbids(contract_id: str, importer: str,
                                                      imported: str) -> None:
    assert kept(contract_id)
    assert not kept(contract_id, (importer, imported))


def test_the_pure_rules_contract_names_every_other_part_of_the_package() -> None:
    """A new top-level package must be added to the rules' forbidden list, or the contract
    would silently let the engine import it."""
    root = Path(dealer_assist.__file__).parent
    parts = {p.stem for p in root.glob("*.py") if p.stem != "__init__"} | {
        p.parent.name for p in root.glob("*/__init__.py")}
    (options,) = [c for c in config()["contracts_options"] if c.get("id") == "pure-rules"]
    named = {m.split(".", 1)[1] for m in options["forbidden_modules"]
             if m.startswith("dealer_assist.")}
    assert parts - {"rules"} == named


def test_the_pure_tablet_contract_names_every_other_part_of_the_package() -> None:
    """The tablet runs only what its bundle holds (``rules/``, ``tablet/``)."""
    root = Path(dealer_assist.__file__).parent
    parts = {p.stem for p in root.glob("*.py") if p.stem != "__init__"} | {
        p.parent.name for p in root.glob("*/__init__.py")}
    (options,) = [c for c in config()["contracts_options"] if c.get("id") == "pure-tablet"]
    named = {m.split(".", 1)[1] for m in options["forbidden_modules"]
             if m.startswith("dealer_assist.")}
    assert parts - {"rules", "tablet"} == named
def test_importing_every_service_module_loads_no_flask() -> None:
    """What the contract says, in a fresh interpreter: every module of ``services`` (the record
    path included) imports, and neither Flask nor Werkzeug is loaded."""
    code = ("import pkgutil, sys, importlib\n"
            "import dealer_assist.services as s\n"
            "for m in pkgutil.walk_packages(s.__path__, 'dealer_assist.services.'):\n"
            "    importlib.import_module(m.name)\n"
            "print(sorted(n for n in ('flask', 'werkzeug', 'flask_babel') if n in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[1])
    assert done.stdout.strip() == "[]"
