"""Monte Carlo house edge with a stated standard error, for the games exact counting cannot cover.

Rounds are dealt in numpy batches from one seeded generator (``numpy.random.default_rng(seed)``),
so a (profile, strategy, rounds, seed) quadruple always gives the same figures. Each round's net
result per ANTE is accumulated with its square, so the standard error of the mean comes with the
estimate (``se = sd / sqrt(rounds)``; the 95 % interval is ``edge +- 1.96 se``).

Covered: Caribbean stud (fixed strategies, as a cross-check of the exact figures), and Oasis
poker, Russian poker (:mod:`.russian_mc`) and the Big/Small game (:mod:`.split_mc`) under the
basic strategies of ``docs/rules/strategy.md``. The maximum payout is applied to a box of a
stated ANTE (default: the table minimum), since a cap in chips binds only relative to a stake.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from ..rules.games.stud import CaribbeanProfile, SplitProfile
from ..rules.profiles import HouseProfile
from ..rules.ranking import Category
from . import russian_mc, split_mc
from .batch import rank_keys
from .games import pick

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MonteCarlo:
    profile: str
    strategy: str
    rounds: int
    seed: int
    house_edge: float
    standard_error: float
    #: player's final hand category -> share of rounds
    hit_frequency: dict[str, float]
    dealer_qualifies: float
    raise_rate: float
    seconds: float
    #: CPU seconds of this process (the wall time includes other work on a shared machine)
    cpu_seconds: float = 0.0
    #: the box's ANTE the maximum payout was applied to, the cap in ANTEs, share capped
    ante: int = 0
    cap_antes: float = 0.0
    capped_rate: float = 0.0
    #: mean amount wagered per round in ANTEs (ANTE, BET when betting, fees)
    wagered: float = 1.0

    @property
    def element_of_risk(self) -> float:
        """Expected loss per unit wagered (Wizard of Odds' definition; fees count as wagered)."""
        return self.house_edge / self.wagered

    @property
    def interval95(self) -> tuple[float, float]:
        return (self.house_edge - 1.96 * self.standard_error,
                self.house_edge + 1.96 * self.standard_error)


def deal(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.int64]:
    """``n`` rounds of ``k`` distinct cards each: the first ``k`` cards of a Fisher-Yates
    shuffle of each row's deck (``k`` swaps per row, not a sort of 52 random keys)."""
    deck = np.tile(np.arange(52, dtype=np.int8), (n, 1))
    rows = np.arange(n)
    for i in range(k):
        j = rng.integers(i, 52, n)
        drawn = deck[rows, j]
        deck[rows, j] = deck[:, i]
        deck[:, i] = drawn
    return deck[:, :k].astype(np.int64)


def _strength(profile: HouseProfile, category: Category) -> int:
    return profile.ranking.strength(category)


def _four_flush_swap(player: I64) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Rows holding exactly four cards of one suit, and the column of the odd card."""
    suits = player // 13
    same = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)  # cards sharing each card's suit
    four = (same == 4).any(axis=1)
    odd = np.argmin(same, axis=1)
    return four, odd


def _play_batch(profile: CaribbeanProfile, strategy: str, cards: I64, cap_antes: float,
                ) -> tuple[F64, I64, npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                           npt.NDArray[np.bool_], F64]:
    """Net result per ANTE of each round, player's final key, dealer qualified, raised,
    whether the maximum payout cut the win (ANTE win plus raise win, fees not counted), and
    the fee paid (in ANTEs)."""
    ranking = profile.ranking
    player, dealer = cards[:, :5].copy(), cards[:, 5:10]
    pk = rank_keys(player, ranking)
    fee = np.zeros(len(cards))
    if strategy == "basic" and profile.replace_fees:
        below_ak = (pk >> 24) < _strength(profile, Category.ace_king)
        four, odd = _four_flush_swap(player)
        swap = below_ak & four & (1 in profile.replace_fees)
        rows = np.flatnonzero(swap)
        player[rows, odd[rows]] = cards[rows, 10]
        pk[rows] = rank_keys(player[rows], ranking)
        fee[rows] = profile.replace_fees.get(1, 0)
    least = {"pair-or-better": Category.one_pair, "ak-or-better": Category.ace_king,
             "basic": Category.ace_king}.get(strategy)
    raised = (np.ones(len(cards), dtype=bool) if least is None
              else (pk >> 24) >= _strength(profile, least))
    dk = rank_keys(dealer, ranking)
    qualifies = (dk >> 24) >= _strength(profile, profile.qualifier)
    order = ranking.order
    mult = np.array([profile.multiplier(c) for c in order], dtype=np.float64)
    raw = (1.0 if profile.ante_paid_on_win else 0.0) + profile.bet_multiple * mult[pk >> 24]
    win = np.minimum(raw, cap_antes)
    no_game = min(float(profile.no_game_ante_multiplier), cap_antes)
    wins = raised & qualifies & (pk > dk)
    played = np.where(~qualifies, no_game,
                      np.where(pk > dk, win,
                               np.where(pk == dk, 0.0, -float(1 + profile.bet_multiple))))
    net = np.where(raised, played, -1.0) - fee
    return net, pk, qualifies, raised, wins & (raw > cap_antes), fee


@dataclass(frozen=True)
class Played:
    """One batch's results: net and amount wagered (ANTE, BET, fees) per ANTE, final key,
    dealer qualified, raised, capped."""

    net: F64
    wagered: F64
    key: I64
    qualifies: npt.NDArray[np.bool_]
    raised: npt.NDArray[np.bool_]
    capped: npt.NDArray[np.bool_]


Player = Callable[[I64], Played]


def _caribbean(profile: CaribbeanProfile, strategy: str, cap_antes: float) -> tuple[int, Player]:
    if profile.buy_game_allowed:
        raise NotImplementedError("buying a game is not simulated for Caribbean stud or Oasis")
    if strategy not in ("basic", "pair-or-better", "ak-or-better", "always-raise"):
        raise ValueError(f"unknown strategy {strategy!r}")

    def run(cards: I64) -> Played:
        net, pk, qualifies, raised, capped, fee = _play_batch(profile, strategy, cards,
                                                              cap_antes)
        return Played(net, 1 + profile.bet_multiple * raised + fee, pk, qualifies, raised,
                      capped)
    return 11, run


def _russian(profile: RussianProfile, strategy: str, ante: int, cap: int) -> tuple[int, Player]:
    if strategy != "basic":
        raise ValueError(f"Russian poker is simulated under the basic strategy only, not "
                         f"{strategy!r}")

    def run(cards: I64) -> Played:
        r = russian_mc.play(profile, cards, ante, cap)
        fees = -(r.improvement_net + r.buy_net) / ante
        return Played(r.net / ante, 1 + profile.bet_multiple * r.bet + fees, r.final_key,
                      r.dealer_qualified, r.bet, r.capped)
    return russian_mc.CARDS, run


def _split(profile: SplitProfile, strategy: str, ante: int, cap: int) -> tuple[int, Player]:
    if strategy != "basic":
        raise ValueError(f"Big/Small is simulated under the basic strategy only, not "
                         f"{strategy!r}")

    def run(cards: I64) -> Played:
        r = split_mc.play(profile, cards, ante, cap)
        fees = -(r.extra_net + r.buy_net) / ante
        return Played(r.net / ante, 1 + profile.bet_multiple * r.bet + fees, r.big_key,
                      r.dealer_qualified, r.bet, r.capped)
    return split_mc.CARDS, run


def player(profile: HouseProfile, strategy: str, ante: int,
           cap: int | None = None) -> tuple[int, Player]:
    """(cards per round, batch player) of ``profile`` for a box of ANTE ``ante`` at a table
    whose maximum payout is ``cap`` (None: the profile's default)."""
    cap = profile.max_payout if cap is None else cap
    return pick(_PLAYERS, profile, "Monte Carlo")(profile, strategy, ante, cap)


#: each lab engine's batch player (``lab/games.py``: the game's spec names its engine)
_PLAYERS: dict[str, Callable[[Any, str, int, int], tuple[int, Player]]] = {
    "stud": lambda profile, strategy, ante, cap: _caribbean(profile, strategy, cap / ante),
    "russian": lambda *played: _russian(*played), "split": lambda *played: _split(*played)}


#: the batch player of the simulation in progress, inherited by forked worker processes
_JOB: dict[str, tuple[int, Player]] = {}


Tally = tuple[float, float, I64, int, int, int, float]


def tally(played: Played) -> Tally:
    """One batch's sums: net and net squared, category hits, dealer qualified, raised,
    capped, and the sum wagered."""
    hits = np.bincount(played.key >> 24, minlength=16)
    return (float(played.net.sum()), float((played.net * played.net).sum()), hits,
            int(played.qualifies.sum()), int(played.raised.sum()), int(played.capped.sum()),
            float(played.wagered.sum()))


def _tally(n: int, seed: np.random.SeedSequence) -> Tally:
    """One batch of ``n`` rounds from its own seed."""
    width, run = _JOB["run"]
    return tally(run(deal(np.random.default_rng(seed), n, width)))


def _batches(rounds: int, batch: int, seed: int, workers: int) -> list[Tally]:
    """Every batch's tally, in batch order. Batch ``i`` draws from the ``i``-th child of the
    seed, so the figures do not depend on how many processes share the work."""
    sizes = [min(batch, rounds - done) for done in range(0, rounds, batch)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    if workers <= 1 or len(sizes) == 1:
        return [_tally(n, s) for n, s in zip(sizes, seeds, strict=True)]
    context = multiprocessing.get_context("fork")  # workers inherit the built tables
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(_tally, sizes, seeds))


def simulate(profile: HouseProfile, *, strategy: str = "basic", rounds: int = 2_000_000,
             seed: int = 14, batch: int = 250_000, ante: int | None = None,
             workers: int = 1, max_payout: int | None = None) -> MonteCarlo:
    """Simulate ``rounds`` rounds of one box against the dealer under ``strategy``.

    ``ante`` is the box's ANTE, which the maximum payout is measured against (the cap binds
    only relative to a stake); None means the table minimum, the smallest ANTE a box can hold
    and so the one for which the cap binds least. ``workers`` processes share the batches
    (the same figures for any number of them). ``max_payout`` is the table's maximum payout
    (None: the profile's default).
    """
    ante = profile.min_ante if ante is None else ante
    if ante < 1:
        raise ValueError(f"the ANTE must be at least 1, got {ante}")
    start, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    cap = profile.max_payout if max_payout is None else max_payout
    width, run = player(profile, strategy, ante, cap)
    run(deal(np.random.default_rng(0), 8, width))  # build the look-up tables before forking
    _JOB["run"] = (width, run)
    try:
        tallies = _batches(rounds, batch, seed, workers)
    finally:
        _JOB.clear()
    cpu_used = time.process_time() - cpu + _children_cpu() - children
    return summarise(profile, strategy, rounds, seed, tallies, time.perf_counter() - start,
                     cpu_used, ante, cap)


def summarise(profile: HouseProfile, strategy: str, rounds: int, seed: int,
              tallies: list[Tally], seconds: float, cpu_seconds: float, ante: int,
              cap: int) -> MonteCarlo:
    """The figures of a simulation from its batches' tallies."""
    total = sum(t[0] for t in tallies)
    total_sq = sum(t[1] for t in tallies)
    hits = np.sum([t[2] for t in tallies], axis=0)
    qualified, raised_n, capped_n = (sum(int(t[i]) for t in tallies) for i in (3, 4, 5))
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    order = profile.ranking.order
    return MonteCarlo(profile.name, strategy, rounds, seed, -mean, math.sqrt(var / rounds),
                      {order[i].value: float(h) / rounds for i, h in enumerate(hits) if h},
                      qualified / rounds, raised_n / rounds, seconds, cpu_seconds, ante,
                      cap / ante, capped_n / rounds, sum(t[6] for t in tallies) / rounds)


def _children_cpu() -> float:
    """CPU seconds of the worker processes reaped so far (cumulative for this process)."""
    t = os.times()
    return t.children_user + t.children_system
