"""The shift report's theoretical win against actual win, with the 95 % range and its flag."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from flask import Flask

from dealer_assist.lab.version import fingerprint
from dealer_assist.rules import games  # noqa: F401  (registers the profile)
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services.reports import house_edge, theoretical


def _rows(nets: list[tuple[int, int]]) -> list[tuple[Any, dict[str, Any], int]]:
    """Settled rounds of one box each: (ANTE stake, player's net on the ANTE and raise)."""
    return [(None, {"boxes": [{"wagers": {"ante": {"stake": a, "net": n},
                                          "bet": {"stake": 2 * a, "net": 0}}}]}, 1)
            for a, n in nets]


def _edges(app: Flask) -> Path:
    """The app's store of house edges, as the report's callers name it."""
    return house_edge.store_path(app.config, app.instance_path)


def _store(app: Flask, tmp_path: Path, edge: float) -> None:
    path = tmp_path / "edges.json"
    app.config["HOUSE_EDGE_STORE"] = str(path)
    house_edge.save(path, {"profile": "caribbean-classic",
                           "fingerprint": fingerprint(get_profile("caribbean-classic")),
                           "default_strategy": "optimal",
                           "strategies": {"optimal": {"house_edge": edge}}})


def test_theoretical_win_is_the_house_edge_times_the_antes_and_the_range_comes_from_the_boxes(
        app: Flask, tmp_path: Path) -> None:
    _store(app, tmp_path, 0.05224)
    nets = [(100, -100), (100, 100), (100, -300), (200, 200), (100, 0)]
    got = theoretical.section(_rows(nets), "caribbean-classic", _edges(app))
    results = [-n for _a, n in nets]
    mean = sum(results) / len(results)
    sd = math.sqrt(sum((x - mean) ** 2 for x in results) / (len(results) - 1))
    assert got["theoretical_win"] == round(0.05224 * 600) == 31
    assert got["actual_win"] == 100
    assert got["house_edge_percent"] == "5.224"
    half = round(1.96 * sd * math.sqrt(len(results)))
    assert got["range"] == {"low": 31 - half, "high": 31 + half}
    assert got["outside"] is False


def test_an_actual_win_outside_the_expected_range_is_flagged(app: Flask,
                                                             tmp_path: Path) -> None:
    _store(app, tmp_path, 0.05)
    nets = [(100, -100)] * 40 + [(100, -300)] * 40  # the house wins every box
    got = theoretical.section(_rows(nets), "caribbean-classic", _edges(app))
    assert got["actual_win"] == 16000 and got["theoretical_win"] == 400
    assert got["outside"] is True


def test_figures_stored_for_other_rules_are_not_used(app: Flask, tmp_path: Path) -> None:
    _store(app, tmp_path, 0.05)
    assert theoretical.section(_rows([(100, 0)] * 3), "oasis-classic", _edges(app)) == \
        {"available": False, "profile": "oasis-classic"}
