"""The profile page shows the lab's stored figures for the profile's current rules only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.reports import house_edge as store
from tests.web.conftest import Browser, text


@pytest.fixture
def store_file(app: Flask, tmp_path: Path) -> Path:
    path = tmp_path / "house_edge.json"
    app.config["HOUSE_EDGE_STORE"] = str(path)
    return path


def test_the_profile_page_shows_stored_figures_of_the_current_rules_only(
        browser: Browser, admin: Any, app: Flask, store_file: Path) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["lab", "house-edge", "oasis-classic", "--rounds", "20000"]
                         ).exit_code == 0
    figures = json.loads(store_file.read_text())["oasis-classic"]
    # a stale entry (computed for other rules) must not be shown
    stale = dict(figures, profile="oasis-per-card", fingerprint="0" * 64)
    store.save(store_file, stale)
    browser.login("root")
    page = text(browser.get("/admin/profiles"))
    edge = f"{figures['strategies']['basic']['house_edge'] * 100:.3f} %"
    assert f"basic: {edge}" in page
    assert "flask lab house-edge oasis-per-card" in page


def test_the_profile_page_shows_russian_poker_and_big_small_figures_with_the_ante_assumed(
        browser: Browser, admin: Any, app: Flask, store_file: Path) -> None:
    runner = app.test_cli_runner()
    for name in ("russian-classic", "split-classic"):
        result = runner.invoke(args=["lab", "house-edge", name, "--rounds", "20000",
                                     "--workers", "1"])
        assert result.exit_code == 0, result.output
    stored = json.loads(store_file.read_text())
    browser.login("root")
    page = text(browser.get("/admin/profiles"))
    for name in ("russian-classic", "split-classic"):
        edge = f"{stored[name]['strategies']['basic']['house_edge'] * 100:.3f} %"
        assert f"basic: {edge}" in page
    assert "maximum payout applied to an ANTE of 10" in page
    assert "flask lab house-edge russian-pair-game" in page  # not computed yet
