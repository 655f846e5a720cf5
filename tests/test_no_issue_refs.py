"""No "issue N" in the code's comments and docstrings, no test file or test named after an
issue: the changelog and the commit messages keep the history (``scripts/no_issue_refs.py``;
after a merge, ``--fix`` rewrites what came back)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("no_issue_refs",
                                               ROOT / "scripts" / "no_issue_refs.py")
assert _spec and _spec.loader
refs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(refs)


def test_no_comment_docstring_test_file_or_test_names_an_issue() -> None:
    found = refs.findings()
    print(f"\nissue references: {len(found)}")
    assert found == []


@pytest.mark.parametrize(("before", "after"), [
    ("# the floor (issue 28)", "# the floor"),
    ("# a tablet (issue 28: the cookie) here", "# a tablet (the cookie) here"),
    ("# hold (ASVS L2, issue 12)", "# hold (ASVS L2)"),
    ("# slips, the hold report: issue 27)", "# slips, the hold report)"),
    ('"""Issue 12: revision 0005 gives."""', '"""Revision 0005 gives."""'),
    ("# issue 35 item 29: ~18 s of CPU", "# ~18 s of CPU"),
    ("# (issue 23's ratings and issue 28's floor page)", "# (the ratings and the floor page)"),
    ('"""Issue 27\'s API: a buy-in."""', '"""The API: a buy-in."""'),
    ("# issue 26 items 1 and 2", "# "),
])
def test_the_fix_drops_the_reference_and_keeps_the_sentence(before: str, after: str) -> None:
    assert refs.clean(before) == after


def test_a_reference_in_a_comment_or_docstring_is_found_but_not_one_in_data(
        tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Docs (issue 12)."""\n\nMESSAGE = "issue 12 is data"  # issue 13\n\n\n'
                      'def f():\n    """Issue 14."""\n')
    found = refs.references(module, refs.python_spans)
    assert [f.split(": ", 1)[1] for f in found] == ["issue 12", "issue 13", "Issue 14"]


def test_the_fix_removes_a_comment_that_was_only_a_reference(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("X = 1  # issue 35\n# issue 35\nY = 2  # kept (issue 35)\n")
    assert refs.fix_file(module, refs.python_spans)
    assert module.read_text() == "X = 1\nY = 2  # kept\n"


def test_a_test_file_named_after_an_issue_is_renamed_without_it() -> None:
    path = ROOT / "tests" / "web" / "test_issue35_language.py"
    assert refs.TEST_FILE.search(path.stem.removeprefix("test_"))
    assert refs.renamed(path).name == "test_language.py"
    assert refs.renamed(ROOT / "tests" / "web" / "test_house_screens_issue26.py").name == \
        "test_house_screens.py"


def test_a_reference_in_a_template_comment_is_found_but_not_one_in_its_text(
        tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text('{#- issue 28: the relief -#}\n<p>{{ _("issue 3 is words") }}</p>\n'
                    '{# a slip (issue 27) #}\n')
    found = refs.references(page, refs.template_spans)
    assert [f.split(": ", 1)[1] for f in found] == ["issue 28", "issue 27"]
    assert refs.fix_file(page, refs.template_spans)
    assert page.read_text() == ('{#- the relief -#}\n<p>{{ _("issue 3 is words") }}</p>\n'
                                '{# a slip #}\n')
