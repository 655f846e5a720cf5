"""No "issue N" in the code: the changelog and the commit messages keep the history.

    python scripts/no_issue_refs.py --check   # list every reference; exit 1 if there is one
    python scripts/no_issue_refs.py --fix     # rewrite them, then list what is left

Looked at: the comments and docstrings of the Python files of ``dealer_assist/``, ``tests/``,
``scripts/`` and ``benchmarks/`` (migrations left out: a revision does not change), the comments
of ``static/*.js`` and ``static/*.css``, the Jinja comments of ``templates/``, the names of
test files (``test_issue35_x.py``) and of test functions (``test_x_of_issue_6``). A string
that is data (a message, a stored payload) is not a comment and is left alone.

``--fix`` drops the reference and keeps the sentence: ``(issue 25)`` goes, ``(issue 28: the
cookie)`` becomes ``(the cookie)``, ``issue 12: revision 0005 ...`` becomes ``revision 0005
...``; a test file loses the issue from its name (``git mv``) unless that name is taken. A test
function is only listed: its new name is a sentence someone writes.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY_DIRS = ("dealer_assist", "tests", "scripts", "benchmarks")
WEB_GLOBS = ("static/*.js", "static/*.css")
TEMPLATE_GLOB = "templates/**/*.html"
SELF = Path(__file__).resolve()
NUMS = r"\d+(?:[ \t]*(?:,|and|-|–|to)[ \t]*\d+)*"
REF = (rf"[Ii]ssues?[ \t]+#?{NUMS}(?:'s)?(?:[ \t]*,?[ \t]+items?[ \t]+{NUMS})?"
       rf"(?:[ \t]*(?:,|and|;)[ \t]*(?:[Ii]ssues?[ \t]+)?#?\d+"
       rf"(?:[ \t]+items?[ \t]+{NUMS})?)*(?:'s)?")
FOUND = re.compile(rf"\b{REF}")
POSSESSIVE = rf"[Ii]ssues?[ \t]+#?\d+(?:[ \t]+items?[ \t]+{NUMS})?'s"


def _lead(m: re.Match[str]) -> str:
    """What stands for a dropped lead-in: the next word, capitalized where the reference was."""
    nxt = m.group("next") or ""
    return nxt.upper() if m.group(0)[0] == "I" else nxt


#: (pattern, replacement), in order: the whole parenthesis, its head, its tail, a possessive
#: ("issue 23's ratings": "the ratings"), a lead-in ("issue 28: the cookie"), what is left
RULES: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(rf"[ \t]?\([ \t]*(?:see[ \t]+)?{REF}[ \t]*\)"), ""),
    (re.compile(rf"\([ \t]*{REF}[ \t]*[:;,.][ \t]*"), "("),
    (re.compile(rf"[ \t]*[,;:][ \t]*{REF}[ \t]*(?=\))"), ""),
    (re.compile(rf"(?<![\w-]){POSSESSIVE}"), lambda m: "The" if m.group(0)[0] == "I" else "the"),
    (re.compile(rf"(?<![\w-]){REF}[ \t]*[:;,.][ \t]*(?P<next>\S)?"), _lead),
    (re.compile(rf"[ \t]*[-–]+[ \t]*{REF}\b"), ""),
    (re.compile(rf"[ \t]+(?:since|from|by|in|of|for|as in|per)[ \t]+{REF}\b"), ""),
    (re.compile(rf"(?<![\w-]){REF}[ \t]*(?P<next>\S)?"), _lead),
    (re.compile(r"\([ \t]*\)"), ""),
]
#: a comment left empty: it goes, with the spaces before it
EMPTY_COMMENT = re.compile(r"^#[\s:;,.-]*$")
TEST_FILE = re.compile(r"_?issue_?\d+_?")
TEST_FUNCTION = re.compile(r"def (test_\w*issue_?\d+\w*)")


def clean(text: str) -> str:
    for pattern, replacement in RULES:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type]
    return text


def python_files() -> Iterator[Path]:
    for folder in PY_DIRS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" not in path.parts and path.resolve() != SELF:
                yield path


def docstring_lines(tree: ast.AST) -> set[int]:
    """The first line of every docstring (module, class, function)."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value,
                                                                            str):
            out.add(body[0].lineno)
    return out


def python_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the comments and docstrings of a Python source."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    docs = docstring_lines(ast.parse(text))
    spans = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start[0] in docs):
            spans.append((starts[tok.start[0] - 1] + tok.start[1],
                          starts[tok.end[0] - 1] + tok.end[1]))
    return spans


WEB_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", re.S)


def web_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in WEB_COMMENT.finditer(text)]


JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)


def template_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in JINJA_COMMENT.finditer(text)]


def files() -> Iterator[tuple[Path, Callable[[str], list[tuple[int, int]]]]]:
    for path in python_files():
        yield path, python_spans
    for pattern in WEB_GLOBS:
        for path in sorted(ROOT.glob(pattern)):
            yield path, web_spans
    for path in sorted(ROOT.glob(TEMPLATE_GLOB)):
        yield path, template_spans


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def references(path: Path, spans: Callable[[str], list[tuple[int, int]]]) -> list[str]:
    text = path.read_text()
    out = []
    for start, end in spans(text):
        for m in FOUND.finditer(text, start, end):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{shown(path)}:{line}: {m.group(0)}")
    return out


def fix_file(path: Path, spans: Callable[[str], list[tuple[int, int]]]) -> bool:
    text = path.read_text()
    new = text
    for start, end in reversed(spans(text)):
        part = new[start:end]
        if FOUND.search(part):
            cleaned = clean(part)
            if EMPTY_COMMENT.match(cleaned):
                cleaned = ""
                while start and new[start - 1] in " \t":
                    start -= 1
                if (not start or new[start - 1] == "\n") and new[end:end + 1] == "\n":
                    end += 1  # the comment was the whole line
            new = new[:start] + re.sub(r"[ \t]+\n", "\n", cleaned) + new[end:]
    if new != text:
        path.write_text(new)
    return new != text


def test_files() -> list[Path]:
    return [p for p in sorted((ROOT / "tests").rglob("test_*.py"))
            if TEST_FILE.search(p.stem.removeprefix("test_"))]


def renamed(path: Path) -> Path:
    stem = TEST_FILE.sub("_", path.stem.removeprefix("test_")).strip("_")
    return path.with_name(f"test_{stem}.py")


def test_functions() -> list[str]:
    out = []
    for path in python_files():
        if "tests" in path.relative_to(ROOT).parts[:1]:
            for n, line in enumerate(path.read_text().splitlines(), start=1):
                m = TEST_FUNCTION.search(line)
                if m:
                    out.append(f"{path.relative_to(ROOT)}:{n}: {m.group(1)}")
    return out


def findings() -> list[str]:
    out = [r for path, spans in files() for r in references(path, spans)]
    out += [f"{p.relative_to(ROOT)}: a test file named after an issue" for p in test_files()]
    out += [f"{f}: a test named after an issue" for f in test_functions()]
    return out


def fix() -> None:
    for path, spans in files():
        fix_file(path, spans)
    for path in test_files():
        target = renamed(path)
        if target.exists():
            print(f"{path.relative_to(ROOT)}: {target.name} is taken, name it by hand")
            continue
        subprocess.run(["git", "mv", str(path), str(target)], cwd=ROOT, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--fix", action="store_true")
    args = parser.parse_args(argv)
    if args.fix:
        fix()
    found = findings()
    for line in found:
        print(line)
    print(f"issue references: {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
