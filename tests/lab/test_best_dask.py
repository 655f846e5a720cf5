"""The best-strategy computation runs unchanged on a Dask cluster.

``flask lab best-strategy`` on a local cluster of two worker processes computes a partial
Russian poker table (the first 100 hand classes), its Monte Carlo, and stores both by the
profile's fingerprint; the same computation on a one-worker cluster gives the very same table
and figures: tasks are pure, and Monte Carlo batch ``i`` draws from the ``i``-th child of the
seed whichever worker runs it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from flask import Flask

from dealer_assist.lab import best, cluster, strategy_store
from dealer_assist.rules.games import russian  # noqa: F401  (registers the profiles)
from dealer_assist.rules.profiles import get_profile


def _run(workers: int) -> tuple[dict, dict]:
    profile = get_profile("russian-classic")
    with cluster.connect(workers=workers) as client:
        assert cluster.workers_of(client) == workers
        [(_p, entry, arrays)] = list(best.compute_all([profile], client, rounds=20_000,
                                                      seed=5, classes=100))
    return entry, arrays


def test_the_command_runs_on_a_local_two_worker_cluster(app: Flask, tmp_path: Path) -> None:
    result = app.test_cli_runner().invoke(args=[
        "lab", "best-strategy", "russian-classic", "--workers", "2", "--classes", "100",
        "--rounds", "20000", "--seed", "5", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "cluster: 2 workers" in result.output
    figures = strategy_store.figures(get_profile("russian-classic"), tmp_path)
    assert figures is not None
    b = figures["strategies"]["best"]
    assert b["workers"] == 2 and b["rounds"] == 20_000 and b["standard_error"] > 0
    assert f"house edge {b['house_edge'] * 100:.3f} %" in result.output
    one, arrays1 = _run(1)  # the same on one worker: the same table and figures
    assert one["strategies"]["best"]["house_edge"] == b["house_edge"]
    stored = strategy_store.load(get_profile("russian-classic"), tmp_path)
    assert stored is not None
    for name in ("best", "insure"):
        assert np.array_equal(stored[name], arrays1[name]), name
