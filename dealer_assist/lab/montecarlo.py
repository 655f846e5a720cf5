"""Monte Carlo house edge with a stated standard error, for the games exact counting cannot cover.

Rounds are dealt in numpy batches from one seeded generator (``numpy.random.default_rng(seed)``),
so a (profile, strategy, rounds, seed) quadruple always gives the same figures. Each round's net
result per ANTE is accumulated with its square, so the standard error of the mean comes with the
estimate (``se = sd / sqrt(rounds)``; the 95 % interval is ``edge +- 1.96 se``).

Covered: Caribbean stud (fixed strategies, as a cross-check of the exact figures) and Oasis
poker under the basic strategy of ``docs/rules/strategy.md``. Russian poker and the Big/Small
game raise ``NotImplementedError`` (their basic strategies are not simulated yet).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rules.games.caribbean import CaribbeanProfile
from ..rules.profiles import HouseProfile
from ..rules.ranking import Category
from .batch import rank_keys

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

    @property
    def interval95(self) -> tuple[float, float]:
        return (self.house_edge - 1.96 * self.standard_error,
                self.house_edge + 1.96 * self.standard_error)


def deal(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.int64]:
    """``n`` rounds of ``k`` distinct cards each (the first ``k`` of a shuffled deck)."""
    return np.argpartition(rng.random((n, 52)), k, axis=1)[:, :k].astype(np.int64)


def _strength(profile: HouseProfile, category: Category) -> int:
    return profile.ranking.strength(category)


def _four_flush_swap(player: I64) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Rows holding exactly four cards of one suit, and the column of the odd card."""
    suits = player // 13
    same = (suits[:, :, None] == suits[:, None, :]).sum(axis=2)  # cards sharing each card's suit
    four = (same == 4).any(axis=1)
    odd = np.argmin(same, axis=1)
    return four, odd


def _play_batch(profile: CaribbeanProfile, strategy: str, cards: I64,
                ) -> tuple[F64, I64, npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Net result per ANTE of each round, player's final key, dealer qualified, raised."""
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
    win = (1.0 if profile.ante_paid_on_win else 0.0) + profile.bet_multiple * mult[pk >> 24]
    played = np.where(~qualifies, float(profile.no_game_ante_multiplier),
                      np.where(pk > dk, win,
                               np.where(pk == dk, 0.0, -float(1 + profile.bet_multiple))))
    net = np.where(raised, played, -1.0) - fee
    return net, pk, qualifies, raised


def simulate(profile: HouseProfile, *, strategy: str = "basic", rounds: int = 2_000_000,
             seed: int = 14, batch: int = 250_000) -> MonteCarlo:
    """Simulate ``rounds`` rounds of one box against the dealer under ``strategy``."""
    if not isinstance(profile, CaribbeanProfile):
        raise NotImplementedError(f"Monte Carlo for {profile.game} ({profile.name}) is not "
                                  "implemented yet: its basic strategy is not simulated")
    if profile.buy_game_allowed:
        raise NotImplementedError("buying a game is not simulated")
    if strategy not in ("basic", "pair-or-better", "ak-or-better", "always-raise"):
        raise ValueError(f"unknown strategy {strategy!r}")
    start, cpu = time.perf_counter(), time.process_time()
    rng = np.random.default_rng(seed)
    total = total_sq = 0.0
    hits = np.zeros(len(profile.ranking.order), dtype=np.int64)
    qualified = raised_n = 0
    done = 0
    while done < rounds:
        n = min(batch, rounds - done)
        net, pk, qualifies, raised = _play_batch(profile, strategy, deal(rng, n, 11))
        total += float(net.sum())
        total_sq += float((net * net).sum())
        hits += np.bincount(pk >> 24, minlength=len(hits))
        qualified += int(qualifies.sum())
        raised_n += int(raised.sum())
        done += n
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    order = profile.ranking.order
    return MonteCarlo(profile.name, strategy, rounds, seed, -mean, math.sqrt(var / rounds),
                      {order[i].value: float(h) / rounds for i, h in enumerate(hits) if h},
                      qualified / rounds, raised_n / rounds, time.perf_counter() - start,
                      time.process_time() - cpu)
