"""Every refusal of the engine is a catalog message id with values, said in both languages.

The test reads the rules package's source: every ``RulesError`` (or subclass) the engine can
raise is built from a literal message id (``"box %(box)s is already in play"``) or a ``Phrase``
of one, never an f-string or a sentence put together at run time, and every such message id --
with every ``Phrase`` the engine builds, which the errors carry as values -- is in the Russian
and the English catalog (``make translations`` re-extracts them). A croupier on a Russian screen
then never reads English, whichever game refuses the step.
"""

from __future__ import annotations

import ast
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "dealer_assist" / "rules"
CATALOGS = ROOT / "dealer_assist" / "translations"
#: error classes whose first argument is the message id (the others build theirs inside)
MESSAGE_ERRORS = {"RulesError", "IllegalActionError", "StakeError", "HouseRulesError",
                  "RequestError"}
#: error classes that build a catalog message themselves from values (``errors.py``)
VALUE_ERRORS = {"CardParseError", "DuplicateCardError", "CardNotInDeckError", "CardCountError"}


def _name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr if func.attr != "counted" else "Phrase.counted"
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _message_ids(node: ast.expr) -> list[str] | None:
    """The message id(s) of an error's first argument, or None when it is not a catalog
    message (an f-string, a variable, a sentence joined at run time)."""
    found = _literal(node)
    if found is not None:
        return [found]
    if isinstance(node, ast.Call) and _name(node) in ("Phrase", "Phrase.counted"):
        ids = [_literal(a) for a in node.args[:2 if _name(node) == "Phrase.counted" else 1]]
        return None if any(i is None for i in ids) else [i for i in ids[:1] if i]
    return None


def refusals() -> tuple[dict[str, list[str]], list[str]]:
    """message id -> where it is raised; and every refusal that is not a catalog message."""
    ids: dict[str, list[str]] = {}
    bad: list[str] = []
    for path in sorted(RULES.rglob("*.py")):
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node)
            if name in ("Phrase", "Phrase.counted"):
                for message in _message_ids(node) or []:
                    ids.setdefault(message, []).append(f"{where}:{node.lineno}")
            if name not in MESSAGE_ERRORS or not node.args:
                continue
            messages = _message_ids(node.args[0])
            if messages is None and path.name != "errors.py":
                bad.append(f"{where}:{node.lineno} {name}({ast.unparse(node.args[0])[:60]})")
            for message in messages or []:
                ids.setdefault(message, []).append(f"{where}:{node.lineno}")
    return ids, bad


def _catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=language)


def _has(catalog: Catalog, message: str, translated: bool) -> bool:
    for entry in catalog:
        key = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        if key == message:
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            return not translated or all(strings)
    return False


def test_every_refusal_of_the_engine_is_a_literal_catalog_message_id() -> None:
    _ids, bad = refusals()
    assert not bad, "refusals that are not catalog message ids:\n" + "\n".join(bad)


def test_the_scan_sees_the_refusals_of_every_game() -> None:
    ids, _bad = refusals()
    places = {p.split(":")[0] for where in ids.values() for p in where}
    for family in ("stud", "russian", "poker", "parlour"):
        assert any(f"rules/games/{family}/" in p for p in places), family
    assert "box %(box)s is already in play" in ids  # the shared placing, written once
    assert "this game has no bonus bet" in ids


def test_every_message_id_of_the_engine_is_in_the_russian_and_english_catalogs() -> None:
    ids, _bad = refusals()
    for language, translated in (("ru", True), ("en", False)):
        catalog = _catalog(language)
        missing = sorted(m for m in ids if not _has(catalog, m, translated))
        assert not missing, (f"not in the {language} catalog (run `make translations`):\n"
                             + "\n".join(f"{m!r} at {ids[m][0]}" for m in missing))
