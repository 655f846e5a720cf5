"""Exact Caribbean stud reproduces the Wizard of Odds' figures (exhaustive counting)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dealer_assist.lab import batch, caribbean_exact, counting
from dealer_assist.rules.games.stud import CARIBBEAN_CLASSIC
from dealer_assist.rules.ranking import get_ranking

STANDARD = get_ranking("standard")


def test_counting_dealer_hands_by_inclusion_exclusion_equals_enumerating_them() -> None:
    hc = counting.hand_classes(STANDARD)
    player = np.array([[0, 5, 7, 13, 26]])  # 2s 7s 9s 2h 2d
    rest = np.setdiff1d(np.arange(52), player[0])
    dealer = rest[batch.combination_array(47, 5)]
    cls = np.searchsorted(hc.class_keys, batch.rank_keys(dealer, STANDARD))
    for c in (0, 100, 3000, 7000, 7462):
        assert hc.disjoint_below(player, np.array([c]))[0] == int((cls < c).sum())
    up = 9
    got = hc.disjoint_below(player, np.array([3000]), must=np.array([up]))[0]
    assert got == int(((cls < 3000) & (dealer == up).any(axis=1)).sum())


@pytest.mark.slow
def test_the_standard_pay_table_without_a_cap_gives_the_wizard_of_odds_figures() -> None:
    # RULES.md: "AK/pair 1, two pair 2, trips 3, straight 4, flush 5, full house 7, quads 20,
    # straight flush 50, royal 100"; Wizard of Odds, "Caribbean Stud Poker": optimal 5.224 %,
    # raise on any pair or better 5.470 %, on any ace/king or better 5.682 %, always 16.607 %
    # of the ANTE; total losses over 19,933,230,517,200 combinations as printed there.
    result = caribbean_exact.analyse(CARIBBEAN_CLASSIC, cap_antes=None)
    s = result.strategies
    assert round(s["optimal"].house_edge * 100, 3) == 5.224
    assert round(s["pair-or-better"].house_edge * 100, 3) == 5.470
    assert round(s["ak-or-better"].house_edge * 100, 3) == 5.682
    assert round(s["always-raise"].house_edge * 100, 3) == 16.607
    assert s["optimal"].total_loss == 1_041_372_912_372
    assert s["pair-or-better"].total_loss == 1_090_272_101_460
    assert s["ak-or-better"].total_loss == 1_132_600_203_540
    assert s["always-raise"].total_loss == 3_310_360_338_060
    assert round(s["optimal"].element_of_risk * 100, 3) == 2.555
    assert round(s["always-raise"].element_of_risk * 100, 3) == 5.536


@pytest.mark.slow
def test_a_stingier_pay_table_raises_the_fixed_strategy_house_edge() -> None:
    stingy = dataclasses.replace(CARIBBEAN_CLASSIC, name="caribbean-stingy",
                                 pay_table={**CARIBBEAN_CLASSIC.pay_table, "flush": 4})
    base = caribbean_exact.analyse(CARIBBEAN_CLASSIC, optimal=False).strategies
    worse = caribbean_exact.analyse(stingy, optimal=False).strategies
    assert "optimal" not in worse
    for name in ("pair-or-better", "ak-or-better", "always-raise"):
        assert worse[name].house_edge > base[name].house_edge
    # a pay-table change moves only the raise's win on flushes: the always-raise difference is
    # the flush share of wins x 2 ANTEs (the raise is 2 x ANTE), so it stays small and positive
    assert worse["always-raise"].house_edge - base["always-raise"].house_edge < 0.004
