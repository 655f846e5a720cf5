"""Count dealer hands by strength among the cards a player's hand leaves, without looping over them.

Exact Caribbean stud needs, for each player hand P, how many of the C(47,5) dealer hands disjoint
from P are weaker than, equal to, or below the qualifier of P: 2.6 million x 1.5 million pairs.
Inclusion-exclusion turns "disjoint from P" into sums over the subsets S of P of "contains S":

    #{D : D n P = {}, class(D) < c} = sum over S subset of P of (-1)^|S| #{D : D >= S, class(D) < c}

and "#hands containing S with class < c" is one binary search in a pre-sorted table: for each
subset size k, every (k-subset, class) pair of every hand, packed as ``subset_index << 13 |
class`` and sorted. Every k-subset lies in exactly C(52-k, 5-k) hands, so subset s's segment
starts at ``s * C(52-k, 5-k)`` and the count is a ``searchsorted`` minus that offset.

Classes number the distinct hand values (7,462 in the standard ranking) from weakest up.
Subsets are numbered by the combinatorial number system (colex rank of the sorted cards).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.ranking import Ranking
from .batch import all_five_card_hands, rank_keys

I64 = npt.NDArray[np.int64]
#: BINOM[n, k] = C(n, k) for n < 53, k < 7
BINOM = np.array([[comb(n, k) for k in range(7)] for n in range(53)], dtype=np.int64)
CLASS_BITS = 13


def colex(cards: npt.NDArray[np.integer]) -> I64:
    """Colex rank of each row of ascending card indices (row i of k cards: sum C(c_j, j+1))."""
    c = np.asarray(cards, dtype=np.int64)
    out = np.zeros(c.shape[0], dtype=np.int64)
    for j in range(c.shape[1]):
        out += BINOM[c[:, j], j + 1]
    return out


class HandClasses:
    """Every five-card hand's class, indexed by colex rank, and the class tables per subset size."""

    def __init__(self, ranking: Ranking) -> None:
        hands = all_five_card_hands()
        keys = rank_keys(hands, ranking)
        self.class_keys, cls = np.unique(keys, return_inverse=True)
        if len(self.class_keys) >= 1 << CLASS_BITS:
            raise NotImplementedError("more hand classes than the packed tables hold")
        self.by_colex = np.empty(len(hands), dtype=np.int64)
        self.by_colex[colex(hands)] = cls
        self.hand_class = cls.astype(np.int64)  # in the lexicographic order of the hands
        self.strength = (self.class_keys >> 24).astype(np.int64)  # category strength per class
        self.sorted0 = np.sort(self.hand_class)
        self.tables = {k: self._subset_table(hands, k) for k in range(1, 5)}

    def _subset_table(self, hands: npt.NDArray[np.int8], k: int) -> npt.NDArray[np.uint32]:
        parts = []
        for pos in combinations(range(5), k):
            idx = colex(hands[:, list(pos)])
            parts.append(((idx << CLASS_BITS) | self.hand_class).astype(np.uint32))
        table = np.concatenate(parts)
        table.sort()
        return table

    def below(self, subsets: npt.NDArray[np.integer], classes: I64) -> I64:
        """How many hands contain each subset (rows of ascending cards, 0..5 columns) and have a
        class below the matching entry of ``classes`` (shape (n,) or (n, m): m thresholds)."""
        k = subsets.shape[1]
        idx = colex(subsets) if k else np.zeros(len(subsets), dtype=np.int64)
        return self._below(k, idx, np.asarray(classes, dtype=np.int64))

    def _below(self, k: int, idx: I64, c: I64) -> I64:
        if c.ndim == 2:
            return np.stack([self._below(k, idx, c[:, j]) for j in range(c.shape[1])], axis=1)
        if k == 0:
            return np.searchsorted(self.sorted0, c).astype(np.int64)
        if k == 5:
            return (self.by_colex[idx] < c).astype(np.int64)
        query = ((idx << CLASS_BITS) + c).astype(np.uint32)
        pos = np.searchsorted(self.tables[k], query).astype(np.int64)
        out: I64 = pos - idx * BINOM[52 - k, 5 - k]
        return out

    def disjoint_below(self, avoid: npt.NDArray[np.integer], classes: I64,
                       must: npt.NDArray[np.integer] | None = None) -> I64:
        """Hands disjoint from each row of ``avoid`` (ascending cards), containing the card
        ``must[i]`` when given, with class below ``classes[i]`` (or each of ``classes[i, :]``):
        inclusion-exclusion over the subsets of the avoided cards."""
        a = np.asarray(avoid, dtype=np.int64)
        c = np.asarray(classes, dtype=np.int64)
        total = np.zeros(c.shape, dtype=np.int64)
        for k in range(min(a.shape[1], 5) + 1):  # no five-card hand contains six cards
            for pos in combinations(range(a.shape[1]), k):
                sub = a[:, list(pos)]
                if must is not None:
                    if k + 1 > 5:
                        continue
                    sub = np.sort(np.hstack([sub, np.asarray(must)[:, None]]), axis=1)
                total += (-1) ** k * self.below(sub, c)
        return total


@lru_cache(maxsize=2)
def hand_classes(ranking: Ranking) -> HandClasses:
    return HandClasses(ranking)


def canonical_hands() -> tuple[npt.NDArray[np.int8], I64]:
    """One representative per suit-permutation class of five-card hands, and its class size.

    A hand's canonical code is its four per-suit rank masks sorted: permuting suits permutes the
    masks, so equal codes are exactly the hands one relabelling of suits apart (134,459 classes
    instead of 2,598,960 hands; every count in Caribbean stud is invariant under relabelling).
    """
    hands = all_five_card_hands().astype(np.int64)
    masks = np.zeros((len(hands), 4), dtype=np.int64)
    for j in range(5):
        np.add.at(masks, (np.arange(len(hands)), hands[:, j] // 13), 1 << (hands[:, j] % 13))
    masks.sort(axis=1)
    code = masks[:, 0] | masks[:, 1] << 13 | masks[:, 2] << 26 | masks[:, 3] << 39
    _, first, counts = np.unique(code, return_index=True, return_counts=True)
    return all_five_card_hands()[first], counts.astype(np.int64)
