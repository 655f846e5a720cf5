"""The best strategy of a profile and its house edge, computed on a Dask cluster.

``compute(profile, client)`` runs the game's strategy computation as independent tasks (chunks
of hand classes), builds the strategy table, then measures its house edge by Monte Carlo
(:mod:`.best_mc`; Caribbean stud without replacement is counted exactly instead). The result
is a JSON-able entry for :mod:`.strategy_store` with wall time, the CPU time of every worker
and the number of workers, and the arrays to keep.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from distributed import Client

from ..rules.games.caribbean import CaribbeanProfile
from ..rules.games.russian_profile import RussianProfile
from ..rules.games.split import SplitProfile
from ..rules.profiles import HouseProfile, load_profile, profile_data
from . import best_mc, cluster, house_edge, russian_best
from .suits import hand_index
from .version import fingerprint

CHUNK = 8000
SIX_CHUNK = 40000


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the CPU seconds it took (a task's own accounting)."""
    cpu = time.process_time()
    out = fn(*args)
    return out, time.process_time() - cpu


def russian_five_task(data: Mapping[str, Any], lo: int, hi: int) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, RussianProfile)
    return timed(russian_best.five_card_values, profile, lo, hi)


def russian_six_task(data: Mapping[str, Any], lo: int, hi: int) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, RussianProfile)
    return timed(russian_best.six_card_values, profile, lo, hi)


def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + size, n)) for lo in range(0, n, size)]


def _russian(client: Client, profile: RussianProfile, classes: int | None,
             ) -> tuple[russian_best.RussianStrategy, float]:
    data = profile_data(profile)
    n = classes or len(hand_index())
    five = cluster.run(client, russian_five_task, [(data, lo, hi) for lo, hi in
                                                    _chunks(n, CHUNK)])
    six_reps, _ = russian_best.six_card_classes()
    six = cluster.run(client, russian_six_task, [(data, lo, hi) for lo, hi in
                                                  _chunks(len(six_reps), SIX_CHUNK)])
    cpu = sum(c for _, c in five) + sum(c for _, c in six)
    bet_value = np.concatenate([v for (v, _), _ in five])
    insure = np.concatenate([i for (_, i), _ in five])
    if classes:  # a partial run (tests): the other classes fold
        bet_value = np.concatenate([bet_value, np.full(len(hand_index()) - n, -2.0)])
        insure = np.concatenate([insure, np.zeros(len(hand_index()) - n, dtype=bool)])
    six_value = np.concatenate([v for (v, _), _ in six])
    six_insure = np.concatenate([i for (_, i), _ in six])
    return russian_best.strategy(profile, bet_value, insure, six_value, six_insure), cpu


def russian_arrays(table: russian_best.RussianStrategy) -> dict[str, np.ndarray]:
    """What is kept of a Russian table: per hand class the option, its value, the bet value
    of the hand as dealt and the insurance choice (the six-card part is recomputed)."""
    return {"best": table.best, "value": table.value.astype(np.float32),
            "bet_value": table.bet_value.astype(np.float32), "insure": table.insure}


def compute(profile: HouseProfile, client: Client, *, rounds: int | None = None,
            seed: int = 14, classes: int | None = None) -> tuple[dict[str, Any],
                                                                 dict[str, np.ndarray], Any]:
    """(figures entry, arrays to keep, strategy table) of ``profile``'s best strategy.

    ``rounds`` None means the game's default (standard error <= 0.05 % of the ANTE);
    ``classes`` limits the table to the first hand classes (a quick test of the machinery)."""
    start, cpu = time.perf_counter(), time.process_time()
    rounds = rounds or house_edge.default_rounds(profile)
    if isinstance(profile, RussianProfile):
        table, task_cpu = _russian(client, profile, classes)
        arrays = russian_arrays(table)
        model = float(np.sum(hand_index().weights * table.value) / hand_index().weights.sum())
    elif isinstance(profile, (CaribbeanProfile, SplitProfile)):
        raise NotImplementedError(f"the best strategy of {profile.game} is not computed yet")
    else:
        raise NotImplementedError(f"no best strategy for {profile.game} ({profile.name})")
    table_seconds = time.perf_counter() - start
    sim = best_mc.simulate(client, profile, table, rounds=rounds, seed=seed)
    entry = {
        "profile": profile.name, "game": profile.game, "fingerprint": fingerprint(profile),
        "strategies": {"best": {
            "house_edge": sim.house_edge, "standard_error": sim.standard_error,
            "element_of_risk": sim.element_of_risk, "raise_rate": sim.raise_rate,
            "method": "monte-carlo", "rounds": rounds, "seed": seed,
            "dealer_qualifies": sim.dealer_qualifies, "hit_frequency": sim.hit_frequency,
            "model_value": model, "table_seconds": table_seconds,
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu + task_cpu + sim.cpu_seconds,
            "workers": cluster.workers_of(client)}},
    }
    return entry, arrays, table
