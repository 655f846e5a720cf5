"""The best Russian poker strategy: for every class of five-card hands, the option worth most.

Options per hand (codes kept in the strategy table): ``FOLD``; ``STAND`` (bet as dealt);
``EXCHANGE + m`` for each mask ``m`` of the cards kept (bit i = the i-th card of the canonical
hand, ascending; ``m = 0`` replaces all five, ``m = 31`` is no exchange and not an option);
``SIXTH`` (buy a sixth card). Each option's value, in ANTEs:

* fold: -1 (the ANTE);
* stand: the bet value of the dealt hand (:mod:`.russian_value`, exact), or -1 if lower;
* exchange: -fee + the mean over every draw of max(-1, bet value of the final hand), the mean
  exact over the draws (:mod:`.draws`), each final hand valued against the dealer hands its own
  five cards leave (the discards are not removed: the *ranking model*; the advisor corrects
  it, and ``docs/rules/strategy.md`` gives what the simplification costs);
* sixth card: -fee + the mean over the 47 sixth cards of max(-1, value of the six cards),
  exact (the dealer avoids all six).

The work is split into independent chunks (:func:`five_card_values`, :func:`six_card_values`)
so that :mod:`.best` can hand them to a Dask cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from .cache import per_version
from .draws import SIZES, hold_means, subset_sums
from .russian_value import RussianValuer
from .suits import codes, hand_index

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
FOLD, STAND, EXCHANGE, SIXTH = 0, 1, 2, 33
OPTIONS = 34
_VALUERS: dict[tuple[str, int, int], RussianValuer] = {}


def valuer(profile: RussianProfile, ante: int | None = None,
           cap: int | None = None) -> RussianValuer:
    """One valuer per (profile version, ANTE, cap) and process (its tables take seconds)."""
    return per_version(_VALUERS, RussianValuer, profile,
                       profile.min_ante if ante is None else ante,
                       profile.max_payout if cap is None else cap)


def five_card_values(profile: RussianProfile, lo: int, hi: int) -> tuple[F64, npt.NDArray[
        np.bool_]]:
    """Bet value and whether to insure, for the hand classes ``lo..hi``."""
    reps = hand_index().reps[lo:hi]
    v = valuer(profile)
    return v.values(reps), v.insures(reps)


@lru_cache(maxsize=1)
def six_card_classes() -> tuple[I64, I64]:
    """Every (hand class, sixth card) pair as a class of six-card hands: the classes'
    canonical six cards and, per pair (row-major over the 47 cards each hand leaves), the
    class index. About 963,000 classes for 6.3 million pairs."""
    reps = hand_index().reps
    free = np.ones((len(reps), 52), dtype=bool)
    free[np.arange(len(reps))[:, None], reps] = False
    sixth = np.nonzero(free)[1].reshape(len(reps), 47)
    six = np.sort(np.hstack([np.repeat(reps, 47, axis=0), sixth.reshape(-1, 1)]), axis=1)
    _, first, inverse = np.unique(codes(six), return_index=True, return_inverse=True)
    return six[first], inverse.reshape(-1).astype(np.int64)


@lru_cache(maxsize=1)
def six_card_codes() -> I64:
    """The sorted class codes of :func:`six_card_classes`."""
    return codes(six_card_classes()[0])


def six_card_values(profile: RussianProfile, rows: I64) -> tuple[F64, npt.NDArray[np.bool_]]:
    """Bet values and insurance of the six-card classes ``rows``."""
    return valuer(profile).evaluate(six_card_classes()[0][rows])


@dataclass(frozen=True)
class RussianStrategy:
    """The table of one profile: per hand class the best option, its value and the dealt
    hand's bet value and insurance choice (the bet/fold and insure decisions after an
    exchange look the final hand up here)."""

    best: npt.NDArray[np.uint8]
    value: F64  # value of the best option
    bet_value: F64  # value of betting the hand as it is (per class)
    insure: npt.NDArray[np.bool_]
    #: per class of six-card hands (:func:`six_card_classes`): bet value and insurance; empty
    #: when not computed in this process (the stored table keeps only the five-card part)
    six_value: F64 = field(default_factory=lambda: np.zeros(0))
    six_insure: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def six(self, hands: I64) -> tuple[F64, npt.NDArray[np.bool_]]:
        """Bet value and insurance of six-card hands (ascending card indices)."""
        cls = np.searchsorted(six_card_codes(), codes(hands))
        return self.six_value[cls], self.six_insure[cls]


def option_values(profile: RussianProfile, bet_value: F64, six_values: F64) -> F64:
    """(classes, OPTIONS) values of every option (NaN where the profile forbids it)."""
    index = hand_index()
    fee = float(profile.improvement_fee)
    out = np.full((len(index), OPTIONS), np.nan)
    out[:, FOLD] = -1.0
    out[:, STAND] = bet_value
    g = np.maximum(-1.0, bet_value)[index.of_all]
    means = hold_means(index.reps, subset_sums(g))
    exchanged = 5 - SIZES[:31]
    allowed = (exchanged >= 1) & (exchanged <= profile.max_exchange)
    out[:, EXCHANGE:EXCHANGE + 31] = np.where(allowed, means[:, :31] - fee, np.nan)
    if profile.sixth_card_allowed:
        _, inverse = six_card_classes()
        sixth = np.maximum(-1.0, six_values[inverse]).reshape(len(index), 47)
        out[:, SIXTH] = sixth.mean(axis=1) - fee
    return out


def strategy(profile: RussianProfile, bet_value: F64, insure: npt.NDArray[np.bool_],
             six_values: F64, six_insure: npt.NDArray[np.bool_]) -> RussianStrategy:
    values = option_values(profile, bet_value, six_values)
    best = np.nanargmax(values, axis=1).astype(np.uint8)
    return RussianStrategy(best, np.nanmax(values, axis=1), bet_value, insure, six_values,
                           six_insure)
