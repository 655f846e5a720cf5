"""Exact averages over replacement draws, for every hand and every choice of cards to keep.

A box that keeps the cards ``H`` of its hand ``h`` and replaces the other ``k`` draws ``k`` of
the cards it has not seen; its final hand is ``H`` plus the draw. The mean of any per-final-hand
value ``g`` over those draws is, as in video poker analysis, an inclusion-exclusion over the
discards ``D = h - H``::

    sum over final hands F >= H avoiding D of g(F) = sum over Y <= D of (-1)^|Y| S(H + Y)

where ``S(Y)`` is the sum of ``g`` over every five-card hand containing ``Y``. The ``S`` tables
(one per subset size 0..5, indexed by the subset's colex rank) are built once from ``g`` over
all 2,598,960 hands, after which each (hand, kept cards) pair costs at most 32 look-ups. The
draw counts are exact: every final hand is weighed once, and hands containing an excluded
card (the dealer's up card) are given ``g = 0`` and left out of the count.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from .batch import all_five_card_hands
from .counting import colex

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
#: the 32 subsets of a hand's five positions, as bit masks (bit i = the i-th card, ascending)
MASKS = np.arange(32)
POSITIONS = [[i for i in range(5) if m >> i & 1] for m in range(32)]
SIZES = np.array([len(p) for p in POSITIONS])


def subset_sums(g_all: F64) -> list[F64]:
    """``S[j][colex(Y)]`` = sum of ``g`` over the hands containing the j-subset ``Y``;
    ``g_all`` is given per hand of ``all_five_card_hands()`` (lexicographic order)."""
    hands = all_five_card_hands()
    sums: list[F64] = [np.array([float(g_all.sum())])]
    for j in range(1, 6):
        acc = np.zeros(comb(52, j))
        for pos in combinations(range(5), j):
            acc += np.bincount(colex(hands[:, list(pos)]), weights=g_all, minlength=comb(52, j))
        sums.append(acc)
    return sums


def hold_sums(hands: npt.ArrayLike, sums: list[F64]) -> F64:
    """(n, 32): for each hand (ascending card indices) and each kept-card mask, the sum of
    ``g`` over the final hands that keep exactly those cards (the draws avoid the discards)."""
    h = np.asarray(hands, dtype=np.int64)
    out = np.empty((len(h), 32))
    for m, pos in enumerate(POSITIONS):
        out[:, m] = sums[0][0] if not pos else sums[len(pos)][colex(h[:, pos])]
    for bit in range(5):  # superset Moebius transform: alternate signs over the discards
        without = MASKS[(MASKS >> bit & 1) == 0]
        out[:, without] -= out[:, without | 1 << bit]
    return out


def draw_counts(unseen: int) -> F64:
    """Per kept-card mask: how many draws (``comb(unseen, k)`` for ``k`` cards replaced)."""
    return np.array([comb(unseen, 5 - int(s)) for s in SIZES], dtype=np.float64)


def hold_means(hands: npt.ArrayLike, sums: list[F64], unseen: int = 47) -> F64:
    """(n, 32) mean of ``g`` over the draws of each kept-card mask; ``unseen`` is the number
    of cards the draws come from (47, or 46 when the dealer's up card is shown)."""
    means: F64 = hold_sums(hands, sums) / draw_counts(unseen)
    return means
