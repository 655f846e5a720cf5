"""The best Caribbean stud / Oasis strategy: per (hand class, dealer's up card), the best option.

Options (codes in the table): ``FOLD``, ``RAISE`` (as dealt) and ``REPLACE + m`` for each mask
``m`` of the cards kept (bit i = the i-th card of the canonical hand, ascending), offered when
the profile's fee schedule prices ``5 - |m|`` cards. After a replacement the box raises when its
final hand's raise value beats a fold, or always when the replacement forces the raise.

Values, in ANTEs: fold -1; raise: the exact raise value (:mod:`.stud_value`); a replacement:
-fee + the mean over every draw (from the 46 cards the hand and the up card leave) of the final
hand's value, the mean exact (:mod:`.draws`), each final hand valued against the dealer hands
its own five cards and the up card leave (the discards are not removed: the ranking model, as
for Russian poker). The raise values of every (hand class, up card) pair form the table ``R``
(:func:`raise_table_rows`, 134,459 x 52); the options of every hand for one up card come from
:func:`options_for_up` -- both are independent tasks for :mod:`.best`. The up card is carried
into each hand's canonical frame (:func:`.suits.relabel` with ``up``), so ``R[class, up']``
covers every pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import CaribbeanProfile
from .batch import all_five_card_hands
from .cache import per_version
from .counting import colex
from .draws import MASKS, POSITIONS, SIZES
from .stud_value import StudValuer
from .suits import apply, hand_index, relabel

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
FOLD, RAISE, REPLACE = 0, 1, 2
NONE = 255  # no entry: the up card is one of the hand's cards
_VALUERS: dict[tuple[str], StudValuer] = {}


def valuer(profile: CaribbeanProfile) -> StudValuer:
    return per_version(_VALUERS, StudValuer, profile)


def raise_table_rows(profile: CaribbeanProfile, lo: int, hi: int) -> F64:
    """Rows ``lo..hi`` of ``R``: (hi - lo, 52) raise values, NaN where the up card is in the
    hand."""
    reps = hand_index().reps[lo:hi]
    free = np.ones((len(reps), 52), dtype=bool)
    free[np.arange(len(reps))[:, None], reps] = False
    up = np.nonzero(free)[1]
    values = valuer(profile).values(np.repeat(reps, 47, axis=0), up)
    out = np.full((len(reps), 52), np.nan)
    out[free] = values
    return out


@lru_cache(maxsize=1)
def _subset_colex() -> list[tuple[int, npt.NDArray[np.int32]]]:
    """(subset size, colex rank) of every subset of every hand, per subset position tuple."""
    hands = all_five_card_hands()
    return [(j, colex(hands[:, list(pos)]).astype(np.int32))
            for j in range(1, 6) for pos in combinations(range(5), j)]


def _hold_means(g: F64, reps: I64) -> F64:
    """(len(reps), 32) mean of ``g`` (per hand of ``all_five_card_hands``) over the draws of
    each kept-card mask, the draws coming from 46 cards (``g`` is 0 for hands holding the up
    card, which no draw reaches)."""
    sums = [np.array([float(g.sum())])] + [np.zeros(comb(52, j)) for j in range(1, 6)]
    for j, idx in _subset_colex():
        sums[j] += np.bincount(idx, weights=g, minlength=comb(52, j))
    out = np.empty((len(reps), 32))
    for m, pos in enumerate(POSITIONS):
        out[:, m] = sums[0][0] if not pos else sums[len(pos)][colex(reps[:, pos])]
    for bit in range(5):
        without = MASKS[(MASKS >> bit & 1) == 0]
        out[:, without] -= out[:, without | 1 << bit]
    counts = np.array([comb(46, 5 - int(s)) for s in SIZES], dtype=np.float64)
    means: F64 = out / counts
    return means


def lookup(r_table: F64, hands: I64, up: I64) -> F64:
    """``R`` of arbitrary (five-card hand, up card) pairs."""
    rel = relabel(hands, up)
    return r_table[hand_index().classes(hands), apply(rel, up)]


def options_for_up(profiles: list[CaribbeanProfile], r_table: F64, up: int,
                   ) -> list[tuple[npt.NDArray[np.uint8], F64]]:
    """For the up card ``up`` (a card of the canonical frame) and every hand class: each
    profile's best option and its value (``NONE``/NaN where ``up`` is in the hand)."""
    index = hand_index()
    hands = all_five_card_hands().astype(np.int64)
    holds = ~(hands == up).any(axis=1)
    r = np.zeros(len(hands))
    r[holds] = lookup(r_table, hands[holds], np.full(int(holds.sum()), up))
    reps = index.reps
    valid = ~(reps == up).any(axis=1)
    free = _hold_means(np.where(holds, np.maximum(-1.0, r), 0.0), reps[valid])
    forced = _hold_means(r, reps[valid]) if any(p.forced_raise_replacing for p in profiles) \
        else free
    out = []
    for p in profiles:
        values = np.full((int(valid.sum()), REPLACE + 31), np.nan)
        values[:, FOLD] = -1.0
        values[:, RAISE] = r_table[np.flatnonzero(valid), up]
        for m in range(31):
            n = 5 - int(SIZES[m])
            if n not in p.replace_fees:
                continue
            means = forced if p.forced_raise_replacing and n >= p.forced_raise_replacing \
                else free
            values[:, REPLACE + m] = means[:, m] - p.replace_fees[n]
        best = np.full(len(reps), NONE, dtype=np.uint8)
        value = np.full(len(reps), np.nan)
        best[valid] = np.nanargmax(values, axis=1)
        value[valid] = np.nanmax(values, axis=1)
        out.append((best, value))
    return out


@dataclass(frozen=True)
class StudStrategy:
    """Per (hand class, up card of the canonical frame): the best option; and ``R`` for the
    raise decision after a replacement (empty when not computed in this process)."""

    best: npt.NDArray[np.uint8]  # (classes, 52)
    r_table: F64


def edge_of(value: F64) -> float:
    """The house edge of a table of best values per (hand class, up card)."""
    index = hand_index()
    per_hand = np.nansum(value, axis=1) / 47
    return -float(np.sum(index.weights * per_hand) / index.weights.sum())
