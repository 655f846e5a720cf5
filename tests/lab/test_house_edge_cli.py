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


def test_the_command_says_which_games_have_no_method_yet(app: Flask, store_file: Path) -> None:
    result = app.test_cli_runner().invoke(args=["lab", "house-edge", "russian-classic"])
    assert result.exit_code != 0 and "no house-edge method" in result.output
    assert not store_file.exists()
