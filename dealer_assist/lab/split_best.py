"""The best Big/Small strategy: for every class of five-card hands, the option worth most.

Options (codes): ``FOLD``; ``BET`` (no extra cards: no Small Hand); ``FREE`` (two free extra
cards, dealt blind, which oblige the BET); ``BOUGHT`` (two extra cards for the fee, then the
best split of the seven cards, or a fold). Values, in ANTEs, from the model of
:mod:`.split_value` (the dealer avoids the Big Hand's cards; a Small Hand wins against a
dealer Small Hand of two other cards): bet ``V(hand, 0)``, free ``V(hand, p_free)``, bought
``-fee + mean over every pair of extra cards of max(-1, best of the 21 splits)``, the mean
exact over the 1,081 pairs. The table is blind to the dealer's up card (one decision per hand
class, as the issue asks; the advisor looks at the up card): ``docs/rules/strategy.md`` says
what that costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import SplitProfile
from .batch import combination_array
from .cache import per_version
from .counting import BINOM
from .split_mc import SPLITS
from .split_value import SplitValuer, free_chance, interpolate, small_chance, small_keys
from .suits import hand_index

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
FOLD, BET, FREE, BOUGHT = 0, 1, 2, 3
_VALUERS: dict[tuple[str], SplitValuer] = {}


def valuer(profile: SplitProfile) -> SplitValuer:
    return per_version(_VALUERS, SplitValuer, profile)


def grid_values(profile: SplitProfile, lo: int, hi: int) -> F64:
    """The model's grid values (:meth:`SplitValuer.grid`) of the hand classes ``lo..hi``."""
    return valuer(profile).grid(hand_index().reps[lo:hi])


@lru_cache(maxsize=1)
def small_chances() -> F64:
    """P(win or tie) of every Small Hand, by its key (the model: no other card removed)."""
    pairs = combination_array(52, 2).astype(np.int64)
    keys = small_keys(pairs)
    out = np.zeros(int(keys.max()) + 1)
    out[keys] = small_chance(pairs)
    return out


@lru_cache(maxsize=1)
def _pair_chance() -> F64:
    """(52, 52) the model's Small Hand chance of every two cards."""
    c = np.arange(52)
    keys = small_keys(np.stack(np.meshgrid(c, c, indexing="ij"), axis=-1).reshape(-1, 2))
    out: F64 = small_chances()[keys].reshape(52, 52)
    return out


def best_splits(grid: F64, seven: I64) -> tuple[F64, I64]:
    """For rows of seven cards: the best split's model value and its index in ``SPLITS``
    (positions of the row sorted ascending).

    With the row sorted, every split's Big Hand is sorted too, and its colex rank is a sum of
    per-card terms that depend only on how many Small Hand cards precede the card: three
    prefix sums give all 21 ranks without sorting a hand."""
    n = len(seven)
    cards = np.sort(seven, axis=1)
    pos = np.arange(7)
    terms = [BINOM[cards, np.clip(pos + 1 - shift, 0, 6)] * (pos + 1 - shift > 0)
             for shift in range(3)]
    prefix = [np.hstack([np.zeros((n, 1), dtype=np.int64), np.cumsum(t, axis=1)])
              for t in terms]
    by_colex = hand_index().by_colex
    pair_chance = _pair_chance()
    flat = grid.reshape(-1)
    width = grid.shape[1]
    values = np.empty((n, len(SPLITS)))
    for k, split in enumerate(SPLITS):
        i, j = int(split[0]), int(split[1])
        colex = (prefix[0][:, i] + prefix[1][:, j] - prefix[1][:, i + 1]
                 + prefix[2][:, 7] - prefix[2][:, j + 1])
        cls = by_colex[colex].astype(np.int64) * width
        x = pair_chance[cards[:, i], cards[:, j]] * (width - 1)
        m = np.minimum(x.astype(np.int64), width - 2)
        frac = x - m
        values[:, k] = flat[cls + m] * (1 - frac) + flat[cls + m + 1] * frac
    pick = np.argmax(values, axis=1)
    return values[np.arange(n), pick], pick


def bought_values(profile: SplitProfile, grid: F64, lo: int, hi: int, step: int = 16) -> F64:
    """The bought-extra option of the hand classes ``lo..hi`` (fee included)."""
    reps = hand_index().reps[lo:hi]
    free = np.ones((len(reps), 52), dtype=bool)
    free[np.arange(len(reps))[:, None], reps] = False
    rest = np.nonzero(free)[1].reshape(len(reps), 47)
    pairs = combination_array(47, 2).astype(np.int64)  # 1,081 draws
    out = np.empty(len(reps))
    for s in range(0, len(reps), step):
        part = slice(s, min(s + step, len(reps)))
        n = part.stop - part.start
        extra = rest[part][:, pairs].reshape(n * len(pairs), 2)
        seven = np.hstack([np.repeat(reps[part], len(pairs), axis=0), extra])
        value, _ = best_splits(grid, seven)
        out[part] = np.maximum(-1.0, value).reshape(n, len(pairs)).mean(axis=1)
    return out - float(profile.extra_fee)


@dataclass(frozen=True)
class SplitStrategy:
    """Per hand class: the best option and its value; the model's grid values (for the split
    choice after buying and the bet with seven cards)."""

    best: npt.NDArray[np.uint8]
    value: F64
    grid: F64


def strategy(profile: SplitProfile, grid: F64, bought: F64) -> SplitStrategy:
    n = len(grid)
    values = np.full((n, 4), np.nan)
    values[:, FOLD] = -1.0
    values[:, BET] = grid[:, 0]
    if profile.free_extra_allowed:
        values[:, FREE] = interpolate(grid, np.full(n, free_chance()))
    if profile.bought_extra_allowed:
        values[:, BOUGHT] = bought
    return SplitStrategy(np.nanargmax(values, axis=1).astype(np.uint8),
                         np.nanmax(values, axis=1), grid)
