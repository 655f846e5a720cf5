"""Theoretical against actual win on Russian poker and Big/Small tables.

Two checks: the shift report of a real Russian poker shift (random legal rounds with bonus bets
and insurance, stored through the services, on SQLite and PostgreSQL) compares the main game
with the stored house edge and lists the side wagers apart; and rounds played by the lab's
basic strategies but settled one by one by the rules engine land inside the 95 % range the
report computes from the lab's house edge, for both games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from flask import Flask
from sqlmodel import Session

from dealer_assist.lab import montecarlo, russian_mc, split_mc
from dealer_assist.lab.version import fingerprint
from dealer_assist.rules.games.russian import calculator as russian_request
from dealer_assist.rules.games.stud import split
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services import reports
from dealer_assist.services.figures import house_edge, theoretical
from tests.lab import test_russian_mc, test_split_mc
from tests.services.conftest_reports import make_floor, play_shift, stored_settlements


def _figures(profile: str, edge: float) -> dict[str, Any]:
    return {"profile": profile, "fingerprint": fingerprint(get_profile(profile)),
            "default_strategy": "basic", "strategies": {"basic": {"house_edge": edge}}}


def test_a_russian_shift_compares_the_main_game_and_lists_the_side_wagers_apart(
        app: Flask, session: Session, tmp_path: Path) -> None:
    floor = make_floor(session)
    assert floor.profile == "russian-classic"
    play_shift(session, floor, 40, seed=11)
    session.commit()
    house_edge.save(session, _figures(floor.profile, 0.18))  # in the database
    th = reports.build_shift_report(session, floor.shift_id)["theoretical"]
    boxes = [b for s in stored_settlements(session, floor.shift_id) for b in s["boxes"]]
    side = {name: sum(-b["wagers"][name]["net"] for b in boxes)
            for name in theoretical.SIDE_WAGERS}
    assert th["available"] and th["boxes"] == len(boxes)
    assert th["antes_wagered"] == sum(b["wagers"]["ante"]["stake"] for b in boxes)
    assert th["theoretical_win"] == round(0.18 * th["antes_wagered"])
    assert th["actual_win"] + sum(side.values()) == -sum(b["net"] for b in boxes)
    assert {k: v["actual_win"] for k, v in th["side_wagers"].items()} == \
        {k: v for k, v in side.items() if any(b["wagers"][k]["stake"] for b in boxes)}
    assert th["side_wagers"], "the random shift should hold a bonus or an insurance"


def _engine_rows(game: str, n: int) -> list[tuple[Any, dict[str, Any], int]]:
    """``n`` rounds chosen by the lab's basic strategy, settled by the rules engine."""
    rows = []
    if game == "russian":
        profile = get_profile("russian-classic")
        cards = montecarlo.deal(np.random.default_rng(77), n, russian_mc.CARDS)
        played = russian_mc.play(profile, cards, test_russian_mc.ANTE, test_russian_mc.CAP)
        for i in range(n):
            body = test_russian_mc.request(profile, cards, played, i)
            rows.append((None, russian_request.settle_request(body).to_dict(), 1))
        return rows
    cards = montecarlo.deal(np.random.default_rng(78), n, split_mc.CARDS)
    played_split = split_mc.play(split.SPLIT_CLASSIC, cards, test_split_mc.ANTE,
                                 test_split_mc.CAP)
    for i in range(n):
        body = test_split_mc.request(split.SPLIT_CLASSIC, cards, played_split, i)
        rows.append((None, split.settle_request(body).to_dict(), 1))
    return rows


@pytest.mark.parametrize(("game", "profile"), [("russian", "russian-classic"),
                                               ("split", "split-classic")])
def test_engine_settled_rounds_of_the_basic_strategy_fall_in_the_expected_range(
        app: Flask, tmp_path: Path, game: str, profile: str) -> None:
    # the edge at the same ANTE and cap as the rounds (ANTE 100, maximum payout 1,000)
    prof = get_profile(profile)
    edge = montecarlo.simulate(prof, rounds=200_000, seed=3, ante=test_russian_mc.ANTE,
                               max_payout=test_russian_mc.CAP).house_edge
    rows = _engine_rows(game, 600)
    th = theoretical.section(rows, profile, _figures(profile, edge))
    assert th["antes_wagered"] == 600 * test_russian_mc.ANTE
    assert th["actual_win"] == -sum(b["net"] for _r, s, _v in rows for b in s["boxes"])
    assert th["outside"] is False, th
