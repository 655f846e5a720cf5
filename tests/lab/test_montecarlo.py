"""Monte Carlo figures: reproducible, within their stated error of independent runs and of the
exact Caribbean count."""

from __future__ import annotations

import math

import pytest

from dealer_assist.lab import montecarlo
from dealer_assist.rules.games import russian  # noqa: F401
from dealer_assist.rules.games.stud import split  # noqa: F401
from dealer_assist.rules.profiles import get_profile


def test_the_same_seed_gives_the_same_figures_and_another_seed_different_ones() -> None:
    profile = get_profile("oasis-classic")
    a = montecarlo.simulate(profile, rounds=40_000, seed=3)
    b = montecarlo.simulate(profile, rounds=40_000, seed=3)
    c = montecarlo.simulate(profile, rounds=40_000, seed=4)
    assert (a.house_edge, a.standard_error, a.hit_frequency) == \
        (b.house_edge, b.standard_error, b.hit_frequency)
    assert a.house_edge != c.house_edge


def test_house_rules_the_basic_strategy_cannot_follow_say_so() -> None:
    # the Russian strategy exchanges up to five cards; Big/Small buying has no second card
    with pytest.raises(NotImplementedError):
        montecarlo.simulate(russian.RussianProfile(name="russian-three", max_exchange=3),
                            rounds=10)
    with pytest.raises(NotImplementedError):
        montecarlo.simulate(split.SplitProfile(name="split-free-second",
                                               free_second_replacement=True), rounds=10)


def test_the_figures_do_not_depend_on_how_many_processes_share_the_batches() -> None:
    profile = get_profile("russian-classic")
    one = montecarlo.simulate(profile, rounds=60_000, batch=20_000, seed=9, workers=1)
    two = montecarlo.simulate(profile, rounds=60_000, batch=20_000, seed=9, workers=2)
    assert (one.house_edge, one.standard_error, one.hit_frequency, one.dealer_qualifies) == \
        (two.house_edge, two.standard_error, two.hit_frequency, two.dealer_qualifies)


@pytest.mark.parametrize("name", ["russian-classic", "split-classic", "oasis-classic"])
def test_the_payout_cap_binds_only_relative_to_the_ante(name: str) -> None:
    # the same seed deals the same cards; at the table minimum (10) a cap of 50,000 is 5,000
    # ANTEs and binds on no hand, at the table maximum (1,000) it is 50 ANTEs and binds
    profile = get_profile(name)
    low = montecarlo.simulate(profile, rounds=200_000, seed=5)
    high = montecarlo.simulate(profile, rounds=200_000, seed=5, ante=profile.max_ante)
    assert low.ante == profile.min_ante and low.capped_rate == 0
    assert high.cap_antes == profile.max_payout / profile.max_ante == 50
    assert high.capped_rate > 0
    assert high.house_edge > low.house_edge


@pytest.mark.slow
@pytest.mark.parametrize("name", ["caribbean-classic", "oasis-classic", "oasis-per-card",
                                  "oasis-one-card", "russian-classic", "russian-pair-game",
                                  "split-classic"])
def test_each_profile_is_within_its_stated_error_of_an_independent_longer_run(name: str) -> None:
    profile = get_profile(name)
    short = montecarlo.simulate(profile, rounds=300_000, seed=101)
    long = montecarlo.simulate(profile, rounds=900_000, seed=202)
    both = math.hypot(short.standard_error, long.standard_error)
    assert abs(short.house_edge - long.house_edge) < 3 * both
    assert abs(short.dealer_qualifies - long.dealer_qualifies) < 0.005


@pytest.mark.slow
def test_the_caribbean_monte_carlo_agrees_with_the_exact_count_within_its_error() -> None:
    # exact figures (tests/lab/test_caribbean_exact.py): AK or better 5.682 % of the ANTE,
    # pair or better 5.470 %; dealer qualifies in 56.319 % of deals
    profile = get_profile("caribbean-classic")
    for strategy, exact in (("ak-or-better", 0.05682), ("pair-or-better", 0.05470)):
        sim = montecarlo.simulate(profile, strategy=strategy, rounds=600_000, seed=7)
        assert abs(sim.house_edge - exact) < 3 * sim.standard_error
    se_q = math.sqrt(0.56319 * (1 - 0.56319) / sim.rounds)
    assert abs(sim.dealer_qualifies - 0.56319) < 3 * se_q
