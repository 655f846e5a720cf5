"""The best strategy of a profile and its house edge, computed on a Dask cluster.

``compute(profile, client)`` runs the game's strategy computation as independent tasks (chunks
of hand classes), builds the strategy table, then measures its house edge by Monte Carlo
(:mod:`.best_mc`; Caribbean stud without replacement is counted exactly instead). The result
is a JSON-able entry for :mod:`.strategy_store` with wall time, the CPU time of every worker
and the number of workers, and the arrays to keep.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from distributed import Client

from ..rules.games.russian import RussianProfile
from ..rules.games.stud import CaribbeanProfile, SplitProfile
from ..rules.profiles import HouseProfile, load_profile, profile_data
from . import best_mc, cluster, house_edge, russian_best, split_best, strategy_store, stud_best
from .games import engine, pick
from .suits import hand_index
from .version import fingerprint

CHUNK = 8000
SIX_CHUNK = 40000
BOUGHT_CHUNK = 4000
#: rounds of the pilot run that measures the standard deviation (the default run size)
PILOT = 2_000_000


def timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` and the CPU seconds it took (a task's own accounting)."""
    cpu = time.process_time()
    out = fn(*args)
    return out, time.process_time() - cpu


def russian_five_task(data: Mapping[str, Any], lo: int, hi: int) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, RussianProfile)
    return timed(russian_best.five_card_values, profile, lo, hi)


def russian_six_task(data: Mapping[str, Any], rows: Any) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, RussianProfile)
    return timed(russian_best.six_card_values, profile, rows)


def _chunks(n: int, size: int) -> list[tuple[int, int]]:
    return [(lo, min(lo + size, n)) for lo in range(0, n, size)]


def russian_table(client: Client, profile: RussianProfile, classes: int | None,
             ) -> tuple[russian_best.RussianStrategy, float]:
    data = profile_data(profile)
    n = classes or len(hand_index())
    five = cluster.run(client, russian_five_task, [(data, lo, hi) for lo, hi in
                                                    _chunks(n, CHUNK)])
    six_reps, inverse = russian_best.six_card_classes()
    wanted = np.unique(inverse[:n * 47]) if classes else np.arange(len(six_reps))
    six = cluster.run(client, russian_six_task, [(data, wanted[lo:hi]) for lo, hi in
                                                  _chunks(len(wanted), SIX_CHUNK)])
    cpu = sum(c for _, c in five) + sum(c for _, c in six)
    bet_value = np.concatenate([v for (v, _), _ in five])
    insure = np.concatenate([i for (_, i), _ in five])
    if classes:  # a partial run (tests): the other classes fold
        bet_value = np.concatenate([bet_value, np.full(len(hand_index()) - n, -2.0)])
        insure = np.concatenate([insure, np.zeros(len(hand_index()) - n, dtype=bool)])
    six_value = np.full(len(six_reps), -2.0)  # a partial run: the classes left out fold
    six_insure = np.zeros(len(six_reps), dtype=bool)
    six_value[wanted] = np.concatenate([v for (v, _), _ in six])
    six_insure[wanted] = np.concatenate([i for (_, i), _ in six])
    return russian_best.strategy(profile, bet_value, insure, six_value, six_insure), cpu


def russian_arrays(table: russian_best.RussianStrategy) -> dict[str, np.ndarray]:
    """What is kept of a Russian table: per hand class the option, its value, the bet value
    of the hand as dealt and the insurance choice (the six-card part is recomputed)."""
    return {"best": table.best, "value": table.value.astype(np.float32),
            "bet_value": table.bet_value.astype(np.float32), "insure": table.insure}


def stud_r_task(data: Mapping[str, Any], lo: int, hi: int) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, CaribbeanProfile)
    return timed(stud_best.raise_table_rows, profile, lo, hi)


def stud_up_task(datas: list[Mapping[str, Any]], r_table: Any, up: int) -> tuple[Any, float]:
    profiles = [load_profile(d) for d in datas]
    return timed(stud_best.options_for_up, profiles, r_table, up)


def _raise_key(profile: CaribbeanProfile) -> str:
    """Profiles with equal keys share the raise table ``R`` (they differ in fees only)."""
    data = profile_data(profile)
    for name in ("name", "game", "replace_fees", "forced_raise_replacing"):
        data.pop(name, None)
    return json.dumps(data, sort_keys=True)


def stud_tables(client: Client, profiles: list[CaribbeanProfile], classes: int | None,
          ) -> tuple[list[stud_best.StudStrategy], list[float], float]:
    """Tables of profiles sharing one ``R``; per profile its exact value under the model."""
    n = classes or len(hand_index())
    rows = cluster.run(client, stud_r_task, [(profile_data(profiles[0]), lo, hi)
                                              for lo, hi in _chunks(n, CHUNK)])
    r_table = np.full((len(hand_index()), 52), np.nan)
    r_table[:n] = np.concatenate([r for r, _ in rows])
    if classes:
        r_table[n:] = -2.0
    shared = client.scatter(r_table, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    datas = [profile_data(p) for p in profiles]
    per_up = cluster.run(client, stud_up_task, [(datas, shared, up) for up in range(52)])
    cpu = sum(c for _, c in rows) + sum(c for _, c in per_up)
    tables, values = [], []
    for i in range(len(profiles)):
        best = np.stack([out[i][0] for out, _ in per_up], axis=1)
        value = np.stack([out[i][1] for out, _ in per_up], axis=1)
        tables.append(stud_best.StudStrategy(best, r_table))
        values.append(-stud_best.edge_of(value))
    return tables, values, cpu


def split_grid_task(data: Mapping[str, Any], lo: int, hi: int) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, SplitProfile)
    return timed(split_best.grid_values, profile, lo, hi)


def split_bought_task(data: Mapping[str, Any], grid: Any, lo: int, hi: int,
                      ) -> tuple[Any, float]:
    profile = load_profile(data)
    assert isinstance(profile, SplitProfile)
    return timed(split_best.bought_values, profile, grid, lo, hi)


def split_table(client: Client, profile: SplitProfile, classes: int | None,
           ) -> tuple[split_best.SplitStrategy, float]:
    data = profile_data(profile)
    total = len(hand_index())
    grids = cluster.run(client, split_grid_task, [(data, lo, hi)
                                                   for lo, hi in _chunks(total, CHUNK)])
    grid = np.concatenate([g for g, _ in grids])
    shared = client.scatter(grid, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    n = classes or total
    bought = cluster.run(client, split_bought_task, [(data, shared, lo, hi)
                                                      for lo, hi in _chunks(n, BOUGHT_CHUNK)])
    values = np.concatenate([b for b, _ in bought] + [np.full(total - n, -9.0)])
    cpu = sum(c for _, c in grids) + sum(c for _, c in bought)
    return split_best.strategy(profile, grid, values), cpu


def _entry(profile: HouseProfile, figures: dict[str, Any]) -> dict[str, Any]:
    return {"profile": profile.name, "game": profile.game,
            "fingerprint": fingerprint(profile), "strategies": {"best": figures}}


@dataclass(frozen=True)
class Built:
    """One profile's strategy table, its value under the model, the arrays to keep, and the
    wall and CPU seconds its table took (a share of its group's)."""

    profile: HouseProfile
    table: Any
    model: float
    arrays: dict[str, np.ndarray]
    seconds: float
    cpu: float


def _stud_built(client: Client, group: list[Any], classes: int | None) -> list[Built]:
    start, cpu = time.perf_counter(), time.process_time()
    tables, models, task_cpu = stud_tables(client, group, classes)
    share = (time.perf_counter() - start) / len(group)
    share_cpu = (time.process_time() - cpu + task_cpu) / len(group)
    return [Built(p, table, model, {"best": table.best}, share, share_cpu)
            for p, table, model in zip(group, tables, models, strict=True)]


def _model(value: np.ndarray) -> float:
    return float(np.sum(hand_index().weights * value) / hand_index().weights.sum())


def _russian_built(client: Client, group: list[Any], classes: int | None) -> list[Built]:
    (p,) = group
    start, cpu = time.perf_counter(), time.process_time()
    russian, task_cpu = russian_table(client, p, classes)
    return [Built(p, russian, _model(russian.value), russian_arrays(russian),
                  time.perf_counter() - start, time.process_time() - cpu + task_cpu)]


def _split_built(client: Client, group: list[Any], classes: int | None) -> list[Built]:
    (p,) = group
    start, cpu = time.perf_counter(), time.process_time()
    split, task_cpu = split_table(client, p, classes)
    arrays: dict[str, np.ndarray] = {
        "best": split.best, "value": split.value.astype(np.float32),
        "grid": split.grid.astype(np.float16)}
    return [Built(p, split, _model(split.value), arrays, time.perf_counter() - start,
                  time.process_time() - cpu + task_cpu)]


#: each lab engine's best-strategy tables (``lab/games.py``: the game's spec names the engine),
#: and how it groups profiles that share their work (Caribbean stud and Oasis: one ``R``)
_BUILT: dict[str, Callable[[Client, list[Any], int | None], list[Built]]] = {
    "stud": _stud_built, "russian": _russian_built, "split": _split_built}
_SHARED: dict[str, Callable[[Any], str]] = {"stud": _raise_key}


def compute_all(profiles: list[HouseProfile], client: Client, *, rounds: int | None = None,
                seed: int = 14, classes: int | None = None,
                on_table: Callable[[HouseProfile, dict[str, np.ndarray]], None] | None = None,
                ) -> Iterator[tuple[HouseProfile, dict[str, Any], dict[str, np.ndarray]]]:
    """(profile, figures entry, arrays to keep) of each profile's best strategy.

    ``rounds`` None means each game's default (standard error <= 0.05 % of the ANTE);
    ``classes`` limits the tables to the first hand classes (a quick test of the machinery:
    the other hands fold). Profiles that share a raise table are computed together.
    ``on_table(profile, arrays)`` is called as soon as a table is ready, before its Monte
    Carlo (the command stores it then: an interrupted run keeps the tables done)."""
    groups: dict[tuple[str, str], list[HouseProfile]] = {}
    for p in profiles:
        pick(_BUILT, p, "best strategy")  # a game without one is refused by name, before any work
        lab = engine(p.game)
        key = _SHARED[lab](p) if lab in _SHARED else p.name
        groups.setdefault((lab, key), []).append(p)
    for (lab, _), group in groups.items():
        built = _BUILT[lab](client, group, classes)
        for b in built:
            if on_table:
                on_table(b.profile, b.arrays)
        for b in built:
            yield b.profile, *_measure(client, b.profile, b.table, b.model, rounds, seed,
                                       b.seconds, b.cpu, b.arrays)


def _measure(client: Client, profile: HouseProfile, table: Any, model: float,
             rounds: int | None, seed: int, table_seconds: float, table_cpu: float,
             arrays: dict[str, np.ndarray]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The table's house edge: exact for Caribbean stud (no replacement: the model is exact),
    by Monte Carlo otherwise."""
    figures: dict[str, Any] = {"model_value": model, "table_seconds": table_seconds,
                               "workers": cluster.workers_of(client)}
    if house_edge.exact(profile):
        figures.update(house_edge=-model, standard_error=0.0, method="exact",
                       seconds=table_seconds, cpu_seconds=table_cpu)
        return _entry(profile, figures), arrays
    if not rounds:  # enough for the target: a pilot's standard deviation decides how many
        pilot = best_mc.simulate(client, profile, table, rounds=PILOT, seed=seed)
        sd = pilot.standard_error * PILOT ** 0.5
        rounds = max(house_edge.default_rounds(profile),
                     int(np.ceil((sd / (0.98 * house_edge.TARGET_SE)) ** 2 / 1e6)) * 1_000_000)
        table_cpu += pilot.cpu_seconds
        table_seconds += pilot.seconds
    sim = best_mc.simulate(client, profile, table, rounds=rounds, seed=seed)
    figures.update(
        house_edge=sim.house_edge, standard_error=sim.standard_error,
        element_of_risk=sim.element_of_risk, raise_rate=sim.raise_rate, method="monte-carlo",
        rounds=rounds, seed=seed, dealer_qualifies=sim.dealer_qualifies,
        hit_frequency=sim.hit_frequency, seconds=table_seconds + sim.seconds,
        cpu_seconds=table_cpu + sim.cpu_seconds, mc_seconds=sim.seconds,
        mc_cpu_seconds=sim.cpu_seconds)
    return _entry(profile, figures), arrays


def stored_table(client: Client, profile: HouseProfile,
                 shared: dict[str, Any] | None = None) -> Any:
    """The stored table of ``profile`` as its players need it, the parts not kept rebuilt on
    the cluster (Russian poker: the six-card values; Oasis: the raise table ``R``, computed
    once for the profiles that share it when ``shared`` is given)."""
    arrays = strategy_store.load(profile)
    if arrays is None:
        raise LookupError(f"no stored best strategy for {profile.name}: run lab best-strategy")
    return pick(_STORED, profile, "best strategy")(client, profile, arrays, shared)


def _russian_stored(client: Client, profile: Any, arrays: dict[str, np.ndarray],
                    shared: dict[str, Any] | None) -> Any:
    six_reps, _ = russian_best.six_card_classes()
    rows = np.arange(len(six_reps))
    six = cluster.run(client, russian_six_task, [(profile_data(profile), rows[lo:hi])
                                                  for lo, hi in _chunks(len(rows), SIX_CHUNK)])
    return russian_best.RussianStrategy(
        arrays["best"], arrays["value"].astype(np.float64),
        arrays["bet_value"].astype(np.float64), arrays["insure"],
        np.concatenate([v for (v, _), _ in six]), np.concatenate([i for (_, i), _ in six]))


def _stud_stored(client: Client, profile: Any, arrays: dict[str, np.ndarray],
                 shared: dict[str, Any] | None) -> Any:
    shared = {} if shared is None else shared
    key = _raise_key(profile)
    if key not in shared:
        parts = cluster.run(client, stud_r_task, [(profile_data(profile), lo, hi) for lo, hi
                                                   in _chunks(len(hand_index()), CHUNK)])
        shared[key] = np.concatenate([r for r, _ in parts])
    return stud_best.StudStrategy(arrays["best"], shared[key])


def _split_stored(client: Client, profile: Any, arrays: dict[str, np.ndarray],
                  shared: dict[str, Any] | None) -> Any:
    return split_best.SplitStrategy(arrays["best"], arrays["value"].astype(np.float64),
                                    arrays["grid"].astype(np.float64))


#: each lab engine's stored table, rebuilt as its players need it
_STORED: dict[str, Callable[[Client, Any, dict[str, np.ndarray], dict[str, Any] | None], Any]] = {
    "russian": _russian_stored, "stud": _stud_stored, "split": _split_stored}


def reproduce(client: Client, profile: HouseProfile, *, rounds: int, seed: int,
              shared: dict[str, Any] | None = None) -> dict[str, Any]:
    """The stored table's house edge by an independent Monte Carlo run (another seed)."""
    sim = best_mc.simulate(client, profile, stored_table(client, profile, shared),
                           rounds=rounds, seed=seed)
    return {"house_edge": sim.house_edge, "standard_error": sim.standard_error,
            "rounds": rounds, "seed": seed, "seconds": sim.seconds,
            "cpu_seconds": sim.cpu_seconds}
