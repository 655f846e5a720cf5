"""What a final Russian poker hand is worth when it bets, before the dealer opens his cards.

For a box's final hand ``F`` (five cards, or six after a sixth card) the dealer's five cards are
any five of the cards ``F`` leaves, all equally likely. Counted exactly by strength
(:mod:`.counting`, inclusion-exclusion over ``F``'s cards): ``no_game`` (below the qualifier),
``win`` (a game below ``F``), ``tie`` (equal: "stay") and ``lose``. Per ANTE::

    value = (win x W - lose x (1 + bet_multiple) + no_game x (take + buy gain)) / hands
            + insurance

with ``W`` = the BET's pay-table total (two combinations, ``russian_pay``) x ``bet_multiple``,
capped at the maximum payout, plus the ANTE when the profile pays it; ``take`` = the no-game
ANTE multiplier; ``buy gain`` = what the option to buy a game adds, counted exactly with the
box's cards (``seen``) out of the deck the bought card comes from (:mod:`.buy_exact`, issue
35); ``insurance`` = the presumptive payout x
max(0, P(no game) - P(a game below the box)) for a box that may insure (the stake is the
player's choice, the value linear in it, so the best stake is the largest or none).

By default the box has seen ``F`` alone; ``seen`` adds its discards. The first-order model of
:mod:`.advise_russian` values a final hand against other card sets (:meth:`from_counts`
without ``gains``), where the buy gain is the per-class table of :mod:`.buy_value` (the box's
cards not removed): it only corrects an exact value there.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from .batch import rank_keys
from .buy_exact import buy_gains, most_below, seen_mask
from .buy_value import BuyOutcomes, key_classes, qualifier_class
from .cache import per_version
from .counting import HandClasses, hand_classes
from .russian_pay import pay_tables

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
_CHUNK = 20000


class RussianValuer:
    """Bet values of final hands under one profile, for a box of ANTE ``ante``."""

    def __init__(self, profile: RussianProfile, ante: int | None = None,
                 cap: int | None = None) -> None:
        if profile.dealer_up_cards:
            raise NotImplementedError("the lab values Russian poker with the dealer's five "
                                      "cards all face down (dealer_up_cards = 0)")
        self.profile = profile
        self.ante = profile.min_ante if ante is None else ante
        self.cap = profile.max_payout if cap is None else cap
        self.hc: HandClasses = hand_classes(profile.ranking)
        self.buy = _buy_outcomes(profile)
        self.q0 = qualifier_class(profile)
        self.pay = pay_tables(profile)
        self.insure_from = profile.ranking.strength(profile.insurance_min_category)
        #: buy gain per (hand class, pay-table total), filled as needed
        self._gains = np.full((len(self.hc.class_keys), 512), np.nan)

    @property
    def lose(self) -> float:
        return float(1 + self.profile.bet_multiple)

    def win_amounts(self, totals: I64) -> F64:
        """ANTEs won by a box with these pay-table totals when it beats a dealer with a game."""
        p = self.profile
        bet = np.minimum(p.bet_multiple * totals.astype(np.float64), self.cap / self.ante)
        out: F64 = bet + (1.0 if p.ante_paid_on_win else 0.0)
        return out

    def classes_and_totals(self, hands: I64) -> tuple[I64, I64]:
        keys = rank_keys(hands, self.profile.ranking)
        return key_classes(keys, self.profile.ranking), self.pay.totals(hands)

    def values(self, hands: npt.ArrayLike, seen: npt.ArrayLike | None = None) -> F64:
        """The bet value (ANTEs) of each final hand: rows of 5 or 6 ascending card indices.

        ``seen`` (rows of ascending card indices) are the cards the dealer's hand cannot
        hold; by default the final hand's own."""
        return self.evaluate(hands, seen)[0]

    def insures(self, hands: npt.ArrayLike) -> npt.NDArray[np.bool_]:
        """Whether each final hand insures (the largest stake) when it bets."""
        return self.evaluate(hands)[1]

    def evaluate(self, hands: npt.ArrayLike, seen: npt.ArrayLike | None = None,
                 ) -> tuple[F64, npt.NDArray[np.bool_]]:
        """(bet value, insures) of each final hand, in chunks."""
        h = np.asarray(hands, dtype=np.int64)
        s = h if seen is None else np.asarray(seen, dtype=np.int64)
        if not len(h):
            return np.zeros(0), np.zeros(0, dtype=bool)
        parts = [self._evaluate(h[lo:lo + _CHUNK], s[lo:lo + _CHUNK])
                 for lo in range(0, len(h), _CHUNK)]
        return (np.concatenate([p[0] for p in parts]),
                np.concatenate([p[1] for p in parts]))

    def _evaluate(self, h: I64, seen: I64) -> tuple[F64, npt.NDArray[np.bool_]]:
        k, totals = self.classes_and_totals(h)
        thresholds = np.stack([np.full(len(h), self.q0), k, k + 1], axis=1)
        gains = self.exact_gains(k, self.win_amounts(totals), seen)
        return self.from_counts(k, totals, self.hc.disjoint_below(seen, thresholds),
                                float(comb(52 - seen.shape[1], 5)), gains)

    def exact_gains(self, k: I64, win: F64, seen: I64) -> F64:
        """Per box: the sum over the dealer hands without a game avoiding ``seen`` (rows of
        card indices) of what buying adds to taking the ANTE (:mod:`.buy_exact`). Skipped
        where no dealer hand can make buying worth more (:func:`.buy_exact.most_below`)."""
        p = self.profile
        out = np.zeros(len(k))
        m = 47.0 - seen.shape[1]
        fee, take = float(p.buy_game_fee), float(p.no_game_ante_multiplier)
        most = most_below(p.ranking, p.qualifier)[k]
        reach = -fee + win * most / m * (1 + 3 / (m - 1)) - take
        rows = np.flatnonzero(reach > 0)
        if len(rows):
            out[rows] = buy_gains(p.ranking, p.qualifier, k=k[rows], win=win[rows],
                                  lose=self.lose, fee=fee, take=take,
                                  seen=seen_mask(seen[rows]),
                                  free_second=p.free_second_replacement)
        return out

    def _gain(self, k: I64, totals: I64, w: F64, take: float) -> F64:
        """The buy option's gain per (class, pay total), computed once per pair and kept."""
        t = np.minimum(totals, self._gains.shape[1] - 1)
        out = self._gains[k, t]
        missing = np.flatnonzero(np.isnan(out))
        if len(missing):
            pairs, first = np.unique(k[missing] * 4096 + t[missing], return_index=True)
            rows = missing[first]
            self._gains[k[rows], t[rows]] = self.buy.gain(k[rows], w[rows], self.lose, take)
            out = self._gains[k, t]
        return out

    def from_counts(self, k: I64, totals: I64, below: I64, hands: float,
                    gains: F64 | None = None) -> tuple[F64, npt.NDArray[np.bool_]]:
        """Values from the dealer-hand counts below the qualifier, ``k`` and ``k + 1``;
        ``gains``: the buy option's exact sums (:meth:`exact_gains`), else the per-class
        table's mean gain x the dealer hands without a game (the box's cards not removed)."""
        p = self.profile
        no_game = below[:, 0].astype(np.float64)
        plays = k >= self.q0
        win = np.where(plays, below[:, 1] - below[:, 0], 0).astype(np.float64)
        tie = np.where(plays, below[:, 2] - below[:, 1], 0).astype(np.float64)
        lose = hands - no_game - win - tie
        w = self.win_amounts(totals)
        take = float(p.no_game_ante_multiplier)
        gain = no_game * self._gain(k, totals, w, take) if gains is None else gains
        value = (win * w - lose * self.lose + no_game * take + gain) / hands
        unit = (no_game * p.insurance_multiplier - win) / hands
        insure = (self.hc.strength[k] >= self.insure_from) & (totals > 0) & (unit > 0)
        stake = np.minimum(p.bet_multiple * totals, self.cap / self.ante)
        out: F64 = value + np.where(insure, stake * unit, 0.0)
        return out, insure


_BUY: dict[tuple[str], BuyOutcomes] = {}


def _buy_outcomes(profile: RussianProfile) -> BuyOutcomes:
    """One table per profile version and process."""
    return per_version(_BUY, BuyOutcomes, profile)
