"""The shift report's theoretical win against actual win, with the 95 % range and its flag."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from flask import Flask
from sqlmodel import Session

from dealer_assist.lab.version import fingerprint
from dealer_assist.rules import games  # noqa: F401  (registers the profile)
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services.figures import house_edge, theoretical


def _rows(nets: list[tuple[int, int]]) -> list[tuple[Any, dict[str, Any], int]]:
    """Settled rounds of one box each: (ANTE stake, player's net on the ANTE and raise)."""
    return [(None, {"boxes": [{"wagers": {"ante": {"stake": a, "net": n},
                                          "bet": {"stake": 2 * a, "net": 0}}}]}, 1)
            for a, n in nets]


def _figures(edge: float) -> dict[str, Any]:
    """Caribbean stud's figures as the lab stores them (``house_edge.stored`` hands them over)."""
    return {"profile": "caribbean-classic",
            "fingerprint": fingerprint(get_profile("caribbean-classic")),
            "default_strategy": "optimal", "strategies": {"optimal": {"house_edge": edge}}}


def test_theoretical_win_is_the_house_edge_times_the_antes_and_the_range_comes_from_the_boxes(
        app: Flask, tmp_path: Path) -> None:
    nets = [(100, -100), (100, 100), (100, -300), (200, 200), (100, 0)]
    got = theoretical.section(_rows(nets), "caribbean-classic", _figures(0.05224))
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
    nets = [(100, -100)] * 40 + [(100, -300)] * 40  # the house wins every box
    got = theoretical.section(_rows(nets), "caribbean-classic", _figures(0.05))
    assert got["actual_win"] == 16000 and got["theoretical_win"] == 400
    assert got["outside"] is True


def test_figures_stored_for_other_rules_are_not_used(session: Session) -> None:
    """The figures live in the database; a profile's are its own, and only while
    they were computed for its current rules. The best strategy's figures kept with the code
    (``lab.strategy_store``) are merged in: Caribbean's ``best`` is kept there."""
    house_edge.save(session, _figures(0.05))
    got = house_edge.stored(session, "caribbean-classic")
    assert got is not None and got["strategies"]["optimal"] == {"house_edge": 0.05}
    assert got["default_strategy"] == "optimal"
    oasis = house_edge.stored(session, "oasis-classic")  # nothing in the database: the
    assert oasis is not None and set(oasis["strategies"]) == {"basic", "best"}  # code's
    house_edge.save(session, dict(_figures(0.05), fingerprint="0" * 64))  # other rules
    got = house_edge.stored(session, "caribbean-classic")
    assert got is None or "optimal" not in got["strategies"]  # only the kept 'best' is left
    # no figures at all (rules of a profile nobody computed): the section says what computes
    # them
    assert theoretical.section(_rows([(100, 0)] * 3), "oasis-classic", None, "best") == \
        {"available": False, "profile": "oasis-classic", "strategy": "best",
         "command": "flask --app dealer_assist lab best-strategy oasis-classic"}
    assert theoretical.section(_rows([(100, 0)] * 3), "oasis-classic", None, "basic")[
        "command"] == "flask --app dealer_assist lab house-edge oasis-classic"


def test_the_tables_strategy_chooses_the_figure_and_is_named(session: Session) -> None:
    # a table assumes 'basic' or 'best'; the Caribbean exact count calls
    # its best strategy 'optimal' and its basic one 'ak-or-better'
    house_edge.save(session, {"profile": "caribbean-classic",
                              "fingerprint": fingerprint(get_profile("caribbean-classic")),
                              "default_strategy": "optimal",
                              "strategies": {"optimal": {"house_edge": 0.05224},
                                             "ak-or-better": {"house_edge": 0.05682}}})
    figures = house_edge.stored(session, "caribbean-classic")
    rows = _rows([(100, -100)] * 10)
    best = theoretical.section(rows, "caribbean-classic", figures, "best")
    basic = theoretical.section(rows, "caribbean-classic", figures, "basic")
    assert (best["strategy"], best["house_edge_percent"]) == ("best", "5.224")
    assert (basic["strategy"], basic["house_edge_percent"]) == ("basic", "5.682")


def test_every_shipped_profile_has_a_figure_for_every_strategy_a_table_can_choose(
        session: Session) -> None:
    """"Every shipped profile must come with figures for every strategy a
    table can choose (stored with the code like the best strategy's), the default must be one
    that has figures". A database nobody ran the lab on holds no figure at all."""
    from dealer_assist.lab.games import lab_games
    from dealer_assist.models.tables import GameTable
    from dealer_assist.rules.profiles import profiles
    shipped = [p.name for p in profiles() if p.game in lab_games()]
    assert len(shipped) >= 7
    default = GameTable.model_fields["strategy"].default
    assert default == "basic"
    for name in shipped:
        figures = house_edge.stored(session, name)
        assert figures is not None, name
        for strategy in ("basic", "best"):  # the table's choices (models.Table's check)
            found = theoretical.edge_of(figures, strategy)
            assert found is not None and 0 < found[0] < 0.5, (name, strategy)
        assert theoretical.strategy_named(figures, None) in ("basic", "ak-or-better")
        section = theoretical.section(_rows([(100, -100), (100, 300)]), name, figures, default)
        assert section["available"] is True, name


def test_a_players_rating_reads_the_figures_kept_with_the_code(session: Session) -> None:
    """"ratings and the rating-slip CSV have no theoretical win" on a database
    nobody ran the lab on: the rating's house edge (``players.played.EdgeBook``) is the basic
    strategy's figure every shipped profile comes with."""
    from fractions import Fraction

    from dealer_assist.lab.strategy_store import figures
    from dealer_assist.rules.profiles import profile_data
    from dealer_assist.services.players.played import EdgeBook
    book = EdgeBook(session)
    for name in ("russian-classic", "caribbean-classic", "split-classic"):
        profile = get_profile(name)
        kept = figures(profile)
        assert kept is not None
        basic = "ak-or-better" if name == "caribbean-classic" else "basic"
        edge = book.edge({"profile": profile_data(profile), "profile_hash": name}, "basic")
        assert edge is not None, name
        assert edge.per_ante == Fraction(str(kept["strategies"][basic]["house_edge"]))
