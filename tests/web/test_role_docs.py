""""Docs contradict the declared roles ... One source of truth, tested." The
docs' role tables are made from the roles every view declares (``edge.role_tables``); these
tests fail when a table says anything else, when a page or API family has no such table, or
when a hand-written role table comes back beside them."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from dealer_assist.edge.role_tables import blocks, refresh, render, who

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: where each family of routes has its table (file -> the patterns it must cover)
REQUIRED = {"docs/reports.md": {"reports.*", "cage.*"}, "docs/api.md": {"api.*"},
            "docs/roles.md": {"*"}}
#: a Markdown table whose header names roles, outside a generated block
HAND_TABLE = re.compile(r"^\|[^\n]*\|\s*Roles\s*\|[^\n]*$", re.M | re.I)


def test_every_role_table_in_the_docs_says_what_the_views_declare(app: Flask) -> None:
    stale = [str(path.relative_to(ROOT)) for path in DOCS
             if refresh(app, text := path.read_text(encoding="utf-8")) != text]
    assert not stale, ("out of date; run `flask --app dealer_assist roles --write "
                       f"{' '.join(stale)}`")


def test_the_reports_the_cage_and_the_api_each_have_a_generated_role_table() -> None:
    for name, wanted in REQUIRED.items():
        found = {p for patterns, _body in blocks((ROOT / name).read_text(encoding="utf-8"))
                 for p in patterns}
        assert wanted <= found, (name, sorted(wanted - found))


def test_no_hand_written_role_table_is_left_beside_the_generated_ones() -> None:
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for _patterns, body in blocks(text):
            text = text.replace(body, "")
        assert not HAND_TABLE.search(text), (path.name, HAND_TABLE.search(text))


def test_the_tables_name_the_auditor_on_reports_and_audit_reads_and_the_admin_on_slips(
        app: Flask) -> None:
    """The contradictions the issue found, read from the generated tables."""
    table = render(app, ["reports.index", "reports.preview", "reports.download",
                         "api.list_disputes", "api.get_slip", "api.hold_report"])
    for line in table.splitlines()[2:]:
        assert "auditor" in line and "admin" in line, line
    assert who(frozenset({"count_team"})) == "count team"
