"""The ``flask lab house-edge PROFILE`` command: three-decimal percentages, stored figures."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer_assist import create_app, db
from dealer_assist.lab.version import fingerprint
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services.figures import house_edge
from tests.conftest import FAST_ARGON2


@pytest.fixture
def app(tmp_path: Path, sqlite_template: Path) -> Iterator[Flask]:
    """The CLI stores the figures in the app's database: a migrated one."""
    path = tmp_path / "lab.sqlite3"
    shutil.copyfile(sqlite_template, path)
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                      "DATABASE_URL": f"sqlite:///{path}", **FAST_ARGON2})
    yield app
    db.dispose(app)


def stored(app: Flask) -> dict[str, Any]:
    """What the database holds: profile name -> figures."""
    with db.session_scope(app, write=False) as session:
        return house_edge.load_all(session)


def test_the_command_prints_three_decimal_percentages_and_stores_them(
        app: Flask) -> None:
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", "oasis-one-card", "--rounds", "30000", "--seed", "5"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("basic:"))
    assert re.search(r"house edge -?\d+\.\d{3} %", line)
    assert re.search(r"standard error \d+\.\d{3} %", line)
    saved = stored(app)["oasis-one-card"]
    assert saved["fingerprint"] == fingerprint(get_profile("oasis-one-card"))
    assert f"{saved['strategies']['basic']['house_edge'] * 100:.3f} %" in line


def test_an_unknown_profile_is_refused_and_nothing_is_stored(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["lab", "house-edge", "russian-nonesuch"])
    assert result.exit_code != 0 and "russian-nonesuch" in result.output
    assert stored(app) == {}


@pytest.mark.parametrize("name", ["russian-classic", "split-classic"])
def test_russian_poker_and_big_small_are_simulated_and_stored_with_the_ante_assumed(
        app: Flask, name: str) -> None:
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", name, "--rounds", "40000", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"basic: house edge -?\d+\.\d{3} %.*standard error \d+\.\d{3} %",
                     result.output)
    assert "payout cap: maximum payout 50000 on a box of ANTE 10 (the table minimum)" in \
        result.output
    saved = stored(app)[name]
    assert saved["ante"] == 10 and saved["method"] == "monte-carlo"
    assert saved["fingerprint"] == fingerprint(get_profile(name))


def test_the_figures_are_printed_in_the_configured_language(app: Flask) -> None:
    """The CLI's user-facing output is translated; the numbers stay as computed."""
    app.config["BABEL_DEFAULT_LOCALE"] = "ru"
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", "oasis-one-card", "--rounds", "20000", "--seed", "5",
              "--no-store"])
    assert result.exit_code == 0, result.output
    assert re.search(r"basic: преимущество заведения -?\d+\.\d{3} %.*"
                     r"стандартная ошибка \d+\.\d{3} %", result.output)
    assert "у дилера есть игра:" in result.output and "Две пары" in result.output
    assert "house edge" not in result.output and "dealer qualifies" not in result.output


def test_the_old_file_store_is_imported_into_the_database(app: Flask, tmp_path: Path) -> None:
    """Figures computed before sat in a JSON file of one machine's instance folder;
    ``flask lab import-figures FILE`` stores them for every machine (not over newer ones)."""
    figures = {"profile": "oasis-one-card", "fingerprint": fingerprint(get_profile(
        "oasis-one-card")), "default_strategy": "basic",
        "strategies": {"basic": {"house_edge": 0.0123}}}
    old = tmp_path / "house_edge.json"
    old.write_text(json.dumps({"oasis-one-card": figures}))
    result = app.test_cli_runner().invoke(args=["lab", "import-figures", str(old)])
    assert result.exit_code == 0 and "oasis-one-card" in result.output, result.output
    assert stored(app)["oasis-one-card"] == figures
    again = app.test_cli_runner().invoke(args=["lab", "import-figures", str(old)])
    assert again.exit_code == 0 and "oasis-one-card" not in again.output.split("from")[0]


@pytest.mark.parametrize("args", [["house-edge", "oasis-one-card", "--rounds", "2000"],
                                  ["import-figures", "old.json"]])
def test_a_database_never_migrated_gets_a_message_naming_init_db_not_a_traceback(
        tmp_path: Path, args: list[str]) -> None:
    """"flask lab house-edge on a database without migrations ends in a
    traceback (no such table: lab_figure): a clear message naming flask init-db"."""
    (tmp_path / "old.json").write_text(json.dumps({"oasis-one-card": {
        "profile": "oasis-one-card", "fingerprint": "x", "strategies": {}}}))
    args = [str(tmp_path / a) if a == "old.json" else a for a in args]
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret",
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
                      **FAST_ARGON2})
    try:
        result = app.test_cli_runner().invoke(args=["lab", *args])
    finally:
        db.dispose(app)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a ClickException, not a traceback
    assert "flask --app dealer_assist init-db" in result.output
    assert "lab_figure" in result.output and "--no-store" in result.output


def test_keep_writes_the_figures_beside_the_best_strategys_not_in_the_database(
        app: Flask, tmp_path: Path) -> None:
    """The basic strategy's figures of every shipped profile are kept with the
    code (``lab house-edge PROFILE --keep``), with how they were made."""
    result = app.test_cli_runner().invoke(args=[
        "lab", "house-edge", "oasis-one-card", "--rounds", "20000", "--seed", "5",
        "--workers", "1", "--keep", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    kept = json.loads((tmp_path / "figures.json").read_text())
    entry = kept[fingerprint(get_profile("oasis-one-card"))]
    basic = entry["strategies"]["basic"]
    assert entry["profile"] == "oasis-one-card"
    assert basic["rounds"] == 20000 and basic["seed"] == 5 and basic["workers"] == 1
    assert basic["method"] == "monte-carlo" and basic["standard_error"] > 0
    assert basic["seconds"] > 0 and "hit_frequency" in basic
    assert stored(app) == {}  # not the database
