"""The ``flask lab house-edge PROFILE`` command: three-decimal percentages, stored figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask

from dealer_assist.lab.version import fingerprint
from dealer_assist.rules.profiles import get_profile


@pytest.fixture
def store_file(app: Flask, tmp_path: Path) -> Path:
    path = tmp_path / "house_edge.json"
    app.config["HOUSE_EDGE_STORE"] = str(path)
    return path


def test_the_command_prints_three_decimal_percentages_and_stores_them(
        app: Flask, store_file: Path) -> None:
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", "oasis-one-card", "--rounds", "30000", "--seed", "5"])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.output.splitlines() if x.startswith("basic:"))
    assert re.search(r"house edge -?\d+\.\d{3} %", line)
    assert re.search(r"standard error \d+\.\d{3} %", line)
    saved = json.loads(store_file.read_text())["oasis-one-card"]
    assert saved["fingerprint"] == fingerprint(get_profile("oasis-one-card"))
    assert f"{saved['strategies']['basic']['house_edge'] * 100:.3f} %" in line


def test_an_unknown_profile_is_refused_and_nothing_is_stored(app: Flask,
                                                             store_file: Path) -> None:
    result = app.test_cli_runner().invoke(args=["lab", "house-edge", "russian-nonesuch"])
    assert result.exit_code != 0 and "russian-nonesuch" in result.output
    assert not store_file.exists()


@pytest.mark.parametrize("name", ["russian-classic", "split-classic"])
def test_russian_poker_and_big_small_are_simulated_and_stored_with_the_ante_assumed(
        app: Flask, store_file: Path, name: str) -> None:
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", name, "--rounds", "40000", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"basic: house edge -?\d+\.\d{3} %.*standard error \d+\.\d{3} %",
                     result.output)
    assert "payout cap: maximum payout 50000 on a box of ANTE 10 (the table minimum)" in \
        result.output
    saved = json.loads(store_file.read_text())[name]
    assert saved["ante"] == 10 and saved["method"] == "monte-carlo"
    assert saved["fingerprint"] == fingerprint(get_profile(name))


def test_the_figures_are_printed_in_the_configured_language(app: Flask,
                                                             store_file: Path) -> None:
    """Issue 13: the CLI's user-facing output is translated; the numbers stay as computed."""
    app.config["BABEL_DEFAULT_LOCALE"] = "ru"
    result = app.test_cli_runner().invoke(
        args=["lab", "house-edge", "oasis-one-card", "--rounds", "20000", "--seed", "5",
              "--no-store"])
    assert result.exit_code == 0, result.output
    assert re.search(r"basic: преимущество заведения -?\d+\.\d{3} %.*"
                     r"стандартная ошибка \d+\.\d{3} %", result.output)
    assert "у дилера есть игра:" in result.output and "Две пары" in result.output
    assert "house edge" not in result.output and "dealer qualifies" not in result.output
