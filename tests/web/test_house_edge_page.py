"""The profile page shows the lab's stored figures for the profile's current rules only."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from dealer_assist import db
from dealer_assist.services.figures import house_edge as store
from tests.web.conftest import Browser, text


def stored(app: Flask) -> dict[str, Any]:
    """The lab's figures in the database: profile name -> figures."""
    with db.session_scope(app, write=False) as session:
        return store.load_all(session)


def test_the_profile_page_shows_stored_figures_of_the_current_rules_only(
        browser: Browser, admin: Any, app: Flask) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["lab", "house-edge", "oasis-classic", "--rounds", "20000"]
                         ).exit_code == 0
    figures = stored(app)["oasis-classic"]
    # a stale entry (computed for other rules) must not be shown
    stale = dict(figures, profile="oasis-per-card", fingerprint="0" * 64)
    with db.session_scope(app) as session:
        store.save(session, stale)
    browser.login("root")
    page = text(browser.get("/admin/profiles"))
    edge = f"{figures['strategies']['basic']['house_edge'] * 100:.3f} %"
    # named, and once: oasis-classic's own, never the stale copy under oasis-per-card
    assert page.count(f"basic strategy: {edge}") == 1
    # oasis-per-card shows the figures kept with the code for its rules (the basic
    # strategy's too)
    from dealer_assist.lab import strategy_store
    from dealer_assist.rules.profiles import get_profile

    per_card = strategy_store.figures(get_profile("oasis-per-card"))
    assert per_card is not None and set(per_card["strategies"]) == {"basic", "best"}
    for name in ("basic", "best"):
        edge = per_card["strategies"][name]["house_edge"] * 100
        assert f"{name} strategy: {edge:.3f} %" in page


def test_the_profile_page_shows_russian_poker_and_big_small_figures_with_the_ante_assumed(
        browser: Browser, admin: Any, app: Flask) -> None:
    runner = app.test_cli_runner()
    for name in ("russian-classic", "split-classic"):
        result = runner.invoke(args=["lab", "house-edge", name, "--rounds", "20000",
                                     "--workers", "1"])
        assert result.exit_code == 0, result.output
    figures = stored(app)
    browser.login("root")
    page = text(browser.get("/admin/profiles"))
    for name in ("russian-classic", "split-classic"):
        edge = f"{figures[name]['strategies']['basic']['house_edge'] * 100:.3f} %"
        assert f"basic strategy: {edge}" in page  # named
    assert "maximum payout applied to an ANTE of 10" in page
    # every shipped profile comes with its figures (russian-pair-game's basic
    # strategy is not in the database, but kept with the code)
    assert "lab house-edge russian-pair-game" not in page
    from dealer_assist.lab import strategy_store
    from dealer_assist.rules.profiles import get_profile

    kept = strategy_store.figures(get_profile("russian-pair-game"))
    assert kept is not None
    assert f"basic strategy: {kept['strategies']['basic']['house_edge'] * 100:.3f} %" in page


def test_a_profile_without_figures_names_the_exact_command_that_computes_them(
        browser: Browser, admin: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """"a missing figure must say exactly what computes it" (the page said
    "flask lab house-edge", which does not run without --app)."""
    # rules nobody computed
    monkeypatch.setattr(store.strategy_store, "figures", lambda profile: None)
    browser.login("root")
    page = text(browser.get("/admin/profiles"))
    assert "flask --app dealer_assist lab house-edge russian-pair-game" in page
