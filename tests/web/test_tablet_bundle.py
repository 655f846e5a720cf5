"""The engine bundle a tablet runs offline is this checkout's pure Python, exactly
(``dealer_assist/__init__.py``, the rules engine, the tablet's package and the compiled
catalogs: nothing more, nothing less), and the same files always make the same bytes."""

from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

from dealer_assist.config import PROJECT_ROOT
from dealer_assist.web import tablet_bundle


def _package_files(root: Path) -> set[str]:
    """What the bundle must hold, walked by hand (not by the bundle's own patterns)."""
    found = {"dealer_assist/__init__.py"}
    for top in ("dealer_assist/rules", "dealer_assist/tablet"):
        for folder, dirs, files in os.walk(root / top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found |= {(Path(folder) / f).relative_to(root).as_posix()
                      for f in files if f.endswith(".py")}
    for language in (root / "dealer_assist/translations").iterdir():
        mo = language / "LC_MESSAGES" / "messages.mo"
        if mo.is_file():
            found.add(mo.relative_to(root).as_posix())
    return found


def test_the_bundle_holds_exactly_the_engines_files_byte_for_byte() -> None:
    bundle = tablet_bundle.build(PROJECT_ROOT)
    with zipfile.ZipFile(io.BytesIO(bundle.data)) as zf:
        names = zf.namelist()
        assert set(names) == _package_files(PROJECT_ROOT)
        assert names == sorted(names) == list(bundle.names)
        for name in names:
            assert zf.read(name) == (PROJECT_ROOT / name).read_bytes(), name
            assert zf.getinfo(name).date_time == tablet_bundle.EPOCH
            # stored: deflate's bytes depend on the machine's zlib, a stored entry's do not
            assert zf.getinfo(name).compress_type == zipfile.ZIP_STORED
    assert "dealer_assist/rules/evaluator.py" in names
    assert "dealer_assist/tablet/offline.py" in names
    assert "dealer_assist/translations/ru/LC_MESSAGES/messages.mo" in names
    assert not [n for n in names if n.startswith(("dealer_assist/services",
                                                  "dealer_assist/models", "dealer_assist/web"))]


def test_the_same_files_make_the_same_bytes_whenever_and_wherever_they_were_written(
        tmp_path: Path) -> None:
    first = tablet_bundle.build(PROJECT_ROOT)
    assert tablet_bundle.build(PROJECT_ROOT) == first
    for name in first.names:  # a fresh checkout: other timestamps, another directory
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROJECT_ROOT / name, tmp_path / name)
        os.utime(tmp_path / name, (1_000_000_000, 1_000_000_000))
    (tmp_path / "dealer_assist/rules/__pycache__").mkdir()
    (tmp_path / "dealer_assist/rules/__pycache__/cards.cpython-311.py").write_text("x = 1\n")
    copy = tablet_bundle.build(tmp_path)
    assert copy.hash == first.hash and copy.data == first.data
    assert first.hash == tablet_bundle.sha256(first.data)


def test_one_changed_byte_of_a_rule_changes_the_hash(tmp_path: Path) -> None:
    first = tablet_bundle.build(PROJECT_ROOT)
    for name in first.names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(PROJECT_ROOT / name, tmp_path / name)
    rule = tmp_path / "dealer_assist/rules/settlement.py"
    rule.write_bytes(rule.read_bytes() + b" ")
    assert tablet_bundle.build(tmp_path).hash != first.hash


def test_the_process_builds_its_bundle_once() -> None:
    assert tablet_bundle.current() is tablet_bundle.current()
    assert tablet_bundle.current().hash == tablet_bundle.build(PROJECT_ROOT).hash


def test_the_pyodide_version_is_the_one_the_lock_pins() -> None:
    assert tablet_bundle.pyodide_version() == "0.27.7"
