"""The lab chooses its per-game code by the game's ``GameSpec.lab`` (``lab/games.py``), never
by an ``isinstance`` chain on the profile nor a list of game names of its own."""

from __future__ import annotations

import pytest

from dealer_assist.cli import lab_best
from dealer_assist.lab import advice, best, best_mc, games, house_edge, montecarlo
from dealer_assist.rules.games.registry import games as registered
from dealer_assist.rules.profiles import profiles
from dealer_assist.services.decisions import judge, warm


def test_every_lab_engine_a_spec_names_has_all_its_parts() -> None:
    named = {s.lab for s in registered() if s.lab is not None}
    assert named == set(games.ENGINES)
    for table in (advice._ADVISORS, montecarlo._PLAYERS, best._BUILT, best._STORED,
                  best_mc.PLAYERS, house_edge.DEFAULT_ROUNDS, judge._JUDGES, warm._WARM):
        assert set(table) == named


def test_the_games_the_lab_covers_are_the_registrys() -> None:
    assert games.lab_games() == ("russian", "caribbean", "oasis", "split")
    covered = {p.game for p in profiles() if p.name in lab_best._default_profiles()}
    assert covered == set(games.lab_games())


def test_a_game_without_a_lab_engine_is_refused_by_its_name() -> None:
    with pytest.raises(games.NoLab, match="the lab has no figures for game 'americana'"):
        games.engine("americana")
