"""Test data takes the record path production takes: no test module or benchmark writes a round,
its events or its settlement as rows.

A round written as rows is a round production never records (a clock set in the past, two
croupiers taking turns without a relief, a ``void`` event, a settlement nobody computed): the
report and floor tests would check the services against data they never meet. Rounds are
recorded through ``services.rounds`` (``tests/services/conftest_reports.store_round``,
``tests/factories.start_round``/``record_step``). Read from the AST of every ``tests/`` and
``benchmarks/`` module: a constructor call of the models ``Round``, ``RoundEvent`` or
``RoundSettlement``, a Core ``insert`` of them or of their tables, an ``INSERT INTO`` their
tables in SQL text, or ``insert_as_of_now`` naming their tables.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODELS = frozenset({"Round", "RoundEvent", "RoundSettlement"})
TABLES = frozenset({"game_round", "round_event", "round_settlement"})
SQL_INSERT = re.compile(r"\binsert\s+into\s+\"?(game_round|round_event|round_settlement)\b",
                        re.IGNORECASE)
#: the modules that may write these rows, and why (old data the record path no longer writes,
#: or the database itself under test)
ALLOWED = {
    # ``old_event``/``old_round``: a ``void`` event and a round without its own rules, as an
    # old database holds them, for the tests that read old data
    "tests/factories.py": "old data",
    # rows written at an old revision, then migrated (frozen migrations)
    "tests/services/test_migrations.py": "frozen migration",
    "tests/services/test_round_rules.py": "frozen migration",
}


def _models_named(tree: ast.AST) -> set[str]:
    """The local names of ``Round``/``RoundEvent``/``RoundSettlement`` imported from the
    application's models (a module's own class ``Round`` is not one)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "dealer_assist.models"):
            names |= {a.asname or a.name for a in node.names if a.name in MODELS}
    return names


def _is_model(node: ast.AST, names: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in names
    if isinstance(node, ast.Attribute):
        if node.attr == "__table__":
            return _is_model(node.value, names)
        return node.attr in MODELS and isinstance(node.value, ast.Name) \
            and node.value.id in {"models", "m"}
    return False


def _called(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def writes_rounds(source: str) -> list[str]:
    """Each place the module writes a round, an event or a settlement as a row."""
    tree = ast.parse(source)
    names = _models_named(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = _called(node)
            if _is_model(node.func, names):
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
            elif called == "insert" and (
                    any(_is_model(a, names) for a in node.args)
                    or (isinstance(node.func, ast.Attribute)
                        and _is_model(node.func.value, names))):
                found.append(f"line {node.lineno}: {ast.unparse(node)[:60]}")
            elif called == "insert_as_of_now" and any(
                    isinstance(a, ast.Constant) and a.value in TABLES for a in node.args):
                found.append(f"line {node.lineno}: insert_as_of_now(... {node.args[1:2]})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and SQL_INSERT.search(node.value):
            found.append(f"line {node.lineno}: {SQL_INSERT.search(node.value).group(0)}")
    return found


def _modules() -> list[Path]:
    return sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])


def test_no_test_module_or_benchmark_writes_rounds_events_or_settlements_as_rows() -> None:
    offenders = {}
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel in ALLOWED or rel == "tests/test_rounds_recorded.py":
            continue
        found = writes_rounds(path.read_text(encoding="utf-8"))
        if found:
            offenders[rel] = found
    assert offenders == {}, "record rounds through services.rounds (conftest_reports."\
        "store_round, factories.start_round/record_step), not as rows"


def test_each_allowed_exception_still_writes_rows_and_says_why() -> None:
    for rel, why in ALLOWED.items():
        assert why and writes_rounds((ROOT / rel).read_text(encoding="utf-8")), rel


def test_the_check_finds_each_way_a_round_is_written_as_a_row() -> None:
    source = '''
from dealer_assist.models import Round, RoundEvent as Ev, RoundSettlement
from sqlalchemy import insert, text
session.add(Round(table_id=1))
session.add(Ev(round_id=1))
conn.execute(insert(RoundSettlement).values())
conn.execute(RoundSettlement.__table__.insert())
conn.execute(text("INSERT INTO round_event (round_id) VALUES (1)"))
insert_as_of_now(conn, "game_round", id=1)
'''
    assert len(writes_rounds(source)) == 6, writes_rounds(source)
    # reading them, or a module's own class named Round, is no write
    assert writes_rounds('''
from dealer_assist.models import Round
class Round2: ...
session.exec(select(Round).where(Round.id == 1))
text("SELECT id FROM game_round")
''') == []
    assert writes_rounds("class Round: ...\nRound(api, rng)\n") == []
