"""The house edge of a strategy table, by Monte Carlo on a Dask cluster.

Batch ``i`` of ``rounds`` deals from the ``i``-th child of ``SeedSequence(seed)``, as in
:mod:`.montecarlo`, so the figures do not depend on how many workers share the batches. Each
batch is a task (:func:`batch`) that plays the strategy table (scattered once to every worker)
and returns its sums and the CPU seconds it took.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
from distributed import Client

from ..rules.profiles import HouseProfile, load_profile, profile_data
from . import cluster, montecarlo, russian_play, split_play, stud_play
from .games import pick
from .montecarlo import MonteCarlo, Played, Tally

BATCH = 250_000


def _russian(profile: Any, table: Any, cards: Any, ante: int, cap: int) -> Played:
    r = russian_play.play(profile, table, cards, ante, cap)
    fees = -(r.improvement_net + r.buy_net) / ante
    # wagered: ANTE, BET and fees (an insurance stake, a side wager, is not counted)
    return Played(r.net / ante, 1 + profile.bet_multiple * r.bet + fees, r.final_key,
                  r.dealer_qualified, r.bet, r.capped)


def _stud(profile: Any, table: Any, cards: Any, ante: int, cap: int) -> Played:
    return stud_play.play(profile, table, cards, ante, cap)


def _split(profile: Any, table: Any, cards: Any, ante: int, cap: int) -> Played:
    return split_play.play(profile, table, cards, ante, cap)


#: lab engine (``lab/games.py``: the game's spec names it) -> (cards per round, batch player)
PLAYERS = {"russian": (17, _russian), "stud": (15, _stud), "split": (15, _split)}


def batch(data: Mapping[str, Any], table: Any, n: int, seed: np.random.SeedSequence,
          ante: int, cap: int) -> tuple[Tally, float]:
    """One batch of ``n`` rounds (a Dask task): its tally and CPU seconds."""
    cpu = time.process_time()
    profile = load_profile(data)
    width, play = pick(PLAYERS, profile, "strategy table player")
    cards = montecarlo.deal(np.random.default_rng(seed), n, width)
    result = montecarlo.tally(play(profile, table, cards, ante, cap))
    return result, time.process_time() - cpu


def simulate(client: Client, profile: HouseProfile, table: Any, *, rounds: int, seed: int,
             ante: int | None = None, cap: int | None = None,
             batch_size: int = BATCH) -> MonteCarlo:
    """The house edge of ``table`` over ``rounds`` rounds (wall and CPU seconds of every
    worker in the result)."""
    ante = profile.min_ante if ante is None else ante
    cap = profile.max_payout if cap is None else cap
    start = time.perf_counter()
    sizes = [min(batch_size, rounds - done) for done in range(0, rounds, batch_size)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    shared = client.scatter(table, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    data = profile_data(profile)
    out = cluster.run(client, batch, [(data, shared, n, s, ante, cap)
                                      for n, s in zip(sizes, seeds, strict=True)])
    tallies = [t for t, _ in out]
    return montecarlo.summarise(profile, "best", rounds, seed, tallies,
                                time.perf_counter() - start, sum(c for _, c in out), ante, cap)


def difference_batch(data: Mapping[str, Any], table_a: Any, table_b: Any, n: int,
                     seed: np.random.SeedSequence, ante: int, cap: int,
                     ) -> tuple[float, float, float]:
    """One batch played by two tables on the same cards (a Dask task): the sum and the sum of
    squares of (net under ``table_a`` - net under ``table_b``) per ANTE, and CPU seconds."""
    cpu = time.process_time()
    profile = load_profile(data)
    width, play = pick(PLAYERS, profile, "strategy table player")
    cards = montecarlo.deal(np.random.default_rng(seed), n, width)
    diff = play(profile, table_a, cards, ante, cap).net - play(profile, table_b, cards, ante,
                                                                cap).net
    return float(diff.sum()), float((diff * diff).sum()), time.process_time() - cpu


def compare(client: Client, profile: HouseProfile, table_a: Any, table_b: Any, *, rounds: int,
            seed: int, batch_size: int = BATCH) -> tuple[float, float]:
    """(mean, standard error) of the per-ANTE result under ``table_a`` minus ``table_b`` on
    the same ``rounds`` rounds: what one strategy gives up against the other (common random
    numbers make the difference far more precise than two separate runs)."""
    sizes = [min(batch_size, rounds - done) for done in range(0, rounds, batch_size)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    a = client.scatter(table_a, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    b = client.scatter(table_b, broadcast=True, hash=False)  # type: ignore[no-untyped-call]
    data = profile_data(profile)
    ante, cap = profile.min_ante, profile.max_payout
    out = cluster.run(client, difference_batch, [(data, a, b, n, s, ante, cap)
                                                 for n, s in zip(sizes, seeds, strict=True)])
    total, square = sum(o[0] for o in out), sum(o[1] for o in out)
    mean = total / rounds
    var = max(square / rounds - mean * mean, 0.0) / max(rounds - 1, 1)
    return mean, var ** 0.5
