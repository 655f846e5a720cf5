"""Russian poker's two-combination payout for arrays of 5- and 6-card hands, by table look-up.

What a winning box is paid (``combinations.paid_combinations``: the best one or two
combinations, the second needing a significant card the first lacks) depends on the cards only
through their ranks and which of them form a flush, because every combination but the flushes
is defined by ranks, and relabelling suits maps one hand's combinations onto the other's. So a
hand's total multiplier is a function of:

* its rank multiset, when no suit holds five cards (indexed by a per-rank weight sum, as in
  :mod:`.batch`);
* the rank mask of its suited cards, when they all share one suit (5 or 6 cards);
* the rank mask of the five suited cards plus the odd card's rank, for six cards with five in
  one suit.

Every table entry is filled by calling ``paid_combinations`` itself on a representative hand,
so the look-up agrees with the rules engine by construction, and the settlement test
(``tests/lab/test_russian_mc.py``) checks it on random rounds one by one.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from ..rules.cards import Card, Suit
from ..rules.combinations import paid_combinations
from ..rules.games.russian import RussianProfile
from .batch import WEIGHTS, no_flush_hand
from .version import fingerprint

I64 = npt.NDArray[np.int64]
_W = np.array([WEIGHTS[i % 13] for i in range(52)], dtype=np.int64)


class PayTables:
    """The total multiplier of a winning hand, by the three look-ups of the module docstring."""

    def __init__(self, profile: RussianProfile) -> None:
        self.profile = profile
        self.multi = {n: self._multiset_table(n) for n in (5, 6)}
        self.flush = {n: np.zeros(1 << 13, dtype=np.int64) for n in (5, 6)}
        self.flush_odd = np.zeros((1 << 13) * 13, dtype=np.int64)
        for n in (5, 6):
            for ranks in combinations(range(13), n):
                mask = sum(1 << r for r in ranks)
                self.flush[n][mask] = self._total([Card(r + 2, Suit.spades) for r in ranks])
        for ranks in combinations(range(13), 5):
            mask = sum(1 << r for r in ranks)
            suited = [Card(r + 2, Suit.spades) for r in ranks]
            for odd in range(13):
                self.flush_odd[mask * 13 + odd] = self._total([*suited, Card(odd + 2,
                                                                             Suit.hearts)])

    def _total(self, cards: list[Card]) -> int:
        p = self.profile
        combos = paid_combinations(cards, p.multiplier, p.ranking, p.max_combinations)
        return sum(p.multiplier(c.category) for c in combos)

    def _multiset_table(self, n: int) -> I64:
        table = np.full(n * WEIGHTS[-1] + 1, -1, dtype=np.int64)
        for multiset in combinations_with_replacement(range(13), n):
            if any(multiset.count(r) > 4 for r in set(multiset)):
                continue
            table[sum(WEIGHTS[r] for r in multiset)] = self._total(no_flush_hand(multiset))
        return table

    def totals(self, hands: npt.ArrayLike) -> I64:
        """The total multiplier paid on each row (card indices, 5 or 6 columns) when it wins."""
        h = np.asarray(hands, dtype=np.int64)
        n = h.shape[1]
        if n not in (5, 6):
            raise ValueError(f"Russian poker hands have 5 or 6 cards, got {n}")
        weights, suit_acc = _W[h[:, 0]].copy(), np.int64(1) << (4 * (h[:, 0] // 13))
        for c in range(1, n):
            weights += _W[h[:, c]]
            suit_acc += np.int64(1) << (4 * (h[:, c] // 13))
        out: I64 = self.multi[n][weights]
        top = np.max([suit_acc >> (4 * s) & 15 for s in range(4)], axis=0)
        flushy = np.flatnonzero(top >= 5)
        if len(flushy) == 0:
            return out
        fh, suits = h[flushy], h[flushy] // 13
        rank_bit = np.int64(1) << (fh % 13)
        own = suit_acc[flushy, None] >> (4 * suits) & 15
        inside = own >= 5
        mask = np.where(inside, rank_bit, 0).sum(axis=1)
        whole = top[flushy] == n
        out[flushy[whole]] = self.flush[n][mask[whole]]
        if n == 6:
            part = ~whole
            odd = np.where(inside, 0, fh % 13).sum(axis=1)
            out[flushy[part]] = self.flush_odd[mask[part] * 13 + odd[part]]
        return out


_BUILT: dict[str, PayTables] = {}


def pay_tables(profile: RussianProfile) -> PayTables:
    """The tables of one profile version (built once per process: about 45,000 engine calls;
    keyed by the profile's fingerprint, as a profile with dict fields is not hashable)."""
    key = fingerprint(profile)
    if key not in _BUILT:
        _BUILT[key] = PayTables(profile)
    return _BUILT[key]
