"""The best-strategy computation runs unchanged on a Dask cluster (issue 24, item 3).

A local cluster of two worker processes computes a partial Russian poker table (the first 100
hand classes) and its Monte Carlo; the same computation on a one-worker cluster
gives the very same table and figures: tasks are pure, and Monte Carlo batch ``i`` draws from
the ``i``-th child of the seed whichever worker runs it.
"""

from __future__ import annotations

import numpy as np

from dealer_assist.lab import best, cluster
from dealer_assist.rules.games import russian  # noqa: F401  (registers the profiles)
from dealer_assist.rules.profiles import get_profile


def _run(workers: int) -> tuple[dict, dict]:
    profile = get_profile("russian-classic")
    with cluster.connect(workers=workers) as client:
        assert cluster.workers_of(client) == workers
        [(_p, entry, arrays)] = list(best.compute_all([profile], client, rounds=20_000,
                                                      seed=5, classes=100))
    return entry, arrays


def test_the_strategy_computation_gives_the_same_figures_on_two_workers_as_on_one() -> None:
    two, arrays2 = _run(2)
    one, arrays1 = _run(1)
    b2, b1 = two["strategies"]["best"], one["strategies"]["best"]
    assert b2["workers"] == 2 and b1["workers"] == 1
    assert b2["house_edge"] == b1["house_edge"] and b2["rounds"] == 20_000
    assert b2["standard_error"] > 0 and b2["method"] == "monte-carlo"
    for name in arrays2:
        assert np.array_equal(arrays2[name], arrays1[name]), name
    assert len(arrays2["best"]) == 134_459 and (arrays2["best"][:100] != 0).any()
