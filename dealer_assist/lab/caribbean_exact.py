"""Exact Caribbean stud: house edge and element of risk of any ``caribbean``-like profile.

Every player hand is weighed against every dealer hand of the 47 cards left, and, for the optimal
strategy, against every choice of the dealer's up card among the dealer's five: the
19,933,230,517,200 (player, dealer, up card) combinations the Wizard of Odds counts. Nothing loops
over them: :mod:`.counting` counts the dealer hands weaker than, equal to and below the qualifier
of each player hand, for the 134,459 suit-classes of player hands.

Definitions (Wizard of Odds, "Caribbean Stud Poker"): the *house edge* is the player's expected
loss per ANTE; the *element of risk* is the expected loss per unit actually wagered (ANTE plus the
raise when raising). Totals are reported in ANTEs over all 19,933,230,517,200 combinations, as
the Wizard of Odds does, so the integers can be compared too.

Outcomes per ANTE of a raise (raise = ``bet_multiple`` ANTEs): dealer has no game -> +
``no_game_ante_multiplier``, raise returned; dealer qualifies and the player wins -> ANTE paid
(``ante_paid_on_win``) plus raise x pay table, the sum capped at ``cap_antes`` if given; tie ->
push; dealer wins -> both lost. A fold loses the ANTE.

The optimal strategy decides on each (player hand, up card) pair. Only hands whose up-card-blind
raise value lies within ``margin`` ANTEs of a fold's (0.2 by default: 12,600 of the 134,459
classes) are examined card by card; the rest decide blind. This is a cut, not a proof: the notes
give the largest distance at which a card-by-card decision was still mixed (0.184 with the
standard table), and the standard table's total loss equals the Wizard of Odds' exhaustive
1,041,372,912,372 ANTEs to the unit, which a missed flip would break.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import CaribbeanProfile
from ..rules.ranking import Category
from .counting import HandClasses, canonical_hands, colex, hand_classes

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
ALL_HANDS = comb(52, 5)
DEALER_HANDS = comb(47, 5)
UP_CARD_HANDS = comb(46, 4)
#: the fixed strategies: raise when the hand is at least this category (None: always raise)
FIXED: dict[str, Category | None] = {
    "pair-or-better": Category.one_pair,
    "ak-or-better": Category.ace_king,
    "always-raise": None,
}
STRATEGIES = ("optimal", *FIXED)


@dataclass(frozen=True)
class StrategyFigures:
    """One strategy's exact figures (loss in ANTEs over all 19,933,230,517,200 combinations)."""

    strategy: str
    house_edge: float
    element_of_risk: float
    raise_rate: float
    total_loss: float
    combinations: int


@dataclass(frozen=True)
class CaribbeanExact:
    profile: str
    strategies: dict[str, StrategyFigures]
    #: player hand category -> probability (every hand is dealt once)
    hit_frequency: dict[str, float]
    dealer_qualifies: float
    seconds: float
    notes: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0


@dataclass
class _Counts:
    """Dealer-hand counts per player hand (rows of ``hands``): no game, player wins, tie."""

    hands: npt.NDArray[np.integer]
    cls: I64
    no_game: I64
    win: I64
    tie: I64
    total: int

    @property
    def lose(self) -> I64:
        return self.total - self.no_game - self.win - self.tie


def _counts(hc: HandClasses, hands: npt.NDArray[np.integer], q0: int,
            must: npt.NDArray[np.integer] | None = None) -> _Counts:
    cls = hc.by_colex[colex(hands)]
    thresholds = np.stack([cls, cls + 1, np.full(len(hands), q0)], axis=1)
    below = hc.disjoint_below(hands, thresholds, must=must)
    below_c, below_c1, no_game = below[:, 0], below[:, 1], below[:, 2]
    plays = cls >= q0
    win = np.where(plays, below_c - no_game, 0)
    tie = np.where(plays, below_c1 - below_c, 0)
    total = DEALER_HANDS if must is None else UP_CARD_HANDS
    return _Counts(hands, cls, no_game, win, tie, total)


def _win_units(profile: CaribbeanProfile, hc: HandClasses, cap_antes: float | None) -> F64:
    """ANTEs won per class when the player beats a qualified dealer (ANTE + raise, capped)."""
    order = profile.ranking.order
    mult = np.array([profile.multiplier(order[s]) for s in range(len(order))], dtype=np.float64)
    ante = 1.0 if profile.ante_paid_on_win else 0.0
    win = ante + profile.bet_multiple * mult[hc.strength]
    return win if cap_antes is None else np.minimum(win, cap_antes)


def _raise_value(c: _Counts, profile: CaribbeanProfile, win_units: F64) -> F64:
    """Sum over the dealer hands of a raise's result, in ANTEs."""
    return (c.no_game * float(profile.no_game_ante_multiplier) + c.win * win_units[c.cls]
            - c.lose * float(1 + profile.bet_multiple))


def analyse(profile: CaribbeanProfile, *, cap_antes: float | None = None,
            margin: float = 0.2, chunk: int = 4000, optimal: bool = True) -> CaribbeanExact:
    """Exact figures for every strategy in ``STRATEGIES`` under ``profile``.

    ``cap_antes`` caps a win at that many ANTEs (``max_payout / ante`` for a given ANTE); None
    means no cap, as in the Wizard of Odds' figures. ``optimal=False`` skips the card-by-card
    optimal strategy (the fixed strategies alone take a fraction of the time).
    """
    if profile.replace_fees or profile.buy_game_allowed:
        raise NotImplementedError("exact counting covers Caribbean stud without card replacement "
                                  "or buying a game; use the Monte Carlo estimate")
    start, cpu = time.perf_counter(), time.process_time()
    hc = hand_classes(profile.ranking)
    reps, weight = canonical_hands()
    q0 = int(np.searchsorted(hc.strength, profile.ranking.strength(profile.qualifier)))
    win_units = _win_units(profile, hc, cap_antes)
    counts = _counts(hc, reps, q0)
    value = _raise_value(counts, profile, win_units)
    fold = -float(DEALER_HANDS)
    strength = hc.strength[counts.cls]
    out: dict[str, StrategyFigures] = {}
    for name, least in FIXED.items():
        raises = (np.ones(len(reps), dtype=bool) if least is None
                  else strength >= profile.ranking.strength(least))
        total = float(np.sum(weight * np.where(raises, value, fold)))
        rate = float(np.sum(weight * raises)) / ALL_HANDS
        out[name] = _figures(name, total * 5, rate, profile.bet_multiple)
    notes: list[str] = []
    if optimal:
        out["optimal"], notes = _optimal(hc, reps, weight, value, q0, profile, win_units,
                                         margin, chunk)
    cats = profile.ranking.order
    hit = {cats[s].value: float(np.sum(weight[strength == s])) / ALL_HANDS
           for s in range(len(cats)) if np.any(strength == s)}
    qualifies = 1 - float(np.sum(weight * counts.no_game)) / (ALL_HANDS * DEALER_HANDS)
    return CaribbeanExact(profile.name, {s: out[s] for s in STRATEGIES if s in out}, hit,
                          qualifies, time.perf_counter() - start, notes,
                          time.process_time() - cpu)


def _figures(name: str, total: float, raise_rate: float, bet_multiple: int) -> StrategyFigures:
    combos = ALL_HANDS * DEALER_HANDS * 5
    edge = -total / combos
    return StrategyFigures(name, edge, edge / (1 + bet_multiple * raise_rate), raise_rate,
                           -total, combos)


def _optimal(hc: HandClasses, reps: npt.NDArray[np.int8], weight: I64, value: F64, q0: int,
             profile: CaribbeanProfile, win_units: F64, margin: float, chunk: int,
             ) -> tuple[StrategyFigures, list[str]]:
    """Raise or fold per (hand, up card); hands far from the fence decide blind."""
    fold = -float(DEALER_HANDS)
    distance = np.abs(value / DEALER_HANDS + 1)
    near = distance < margin
    blind = ~near
    total = float(np.sum((weight * np.maximum(value, fold))[blind])) * 5
    raised = float(np.sum((weight * (value > fold))[blind])) * 47
    mixed_distance = 0.0
    idx = np.flatnonzero(near)
    for lo in range(0, len(idx), chunk):
        part = idx[lo:lo + chunk]
        hands = reps[part].astype(np.int64)
        ups = np.array([np.setdiff1d(np.arange(52), h) for h in hands])  # 47 per hand
        rows = np.repeat(hands, 47, axis=0)
        c = _counts(hc, rows, q0, must=ups.reshape(-1))
        v = _raise_value(c, profile, win_units).reshape(len(part), 47)
        w = weight[part]
        total += float(np.sum(w[:, None] * np.maximum(v, -float(UP_CARD_HANDS))))
        decide = v > -float(UP_CARD_HANDS)
        raised += float(np.sum(w[:, None] * decide))
        mixed = decide.any(axis=1) & ~decide.all(axis=1)
        if mixed.any():
            mixed_distance = max(mixed_distance, float(distance[part][mixed].max()))
    rate = raised / (ALL_HANDS * 47)
    notes = [f"{len(idx)} of {len(reps)} hand classes examined card by card (within {margin} "
             f"ANTE of a fold); the farthest with a mixed decision was {mixed_distance:.3f}"]
    if mixed_distance > 0.95 * margin:
        notes.append("WARNING: a mixed decision lies near the margin; widen it")
    return _figures("optimal", total, rate, profile.bet_multiple), notes
