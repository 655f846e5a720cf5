"""What a Big/Small position is worth: a Big Hand and a Small Hand (or none) against the dealer.

When the Big Hand beats a dealer with a game, the BET is paid at the Big Hand's coefficient if
the Small Hand beats (or ties) the dealer's Small Hand, else the ANTE is. With ``p`` the chance
the Small Hand wins, a betting box of Big Hand ``B`` is worth, per ANTE::

    V(B, p) = (win x W(p) - lose x (1 + bet_multiple) + no_game x take + buy gain) / hands
    W(p)    = (1 - p) x coef(B) + p x bet_multiple x coef(B)      (each capped)

``buy gain``: the sum over the dealer hands without a game of what buying adds to taking the
ANTE, the bought card drawn from the cards neither the box has seen nor the dealer holds
(:mod:`.buy_exact`; before, from the 47 cards the dealer's hand leaves, the box's
own among them).

``no_game``, ``win``, ``tie``, ``lose`` count the dealer's five-card hands by strength exactly
(:mod:`.counting`): against the cards the Big Hand leaves (the model), or against the cards the
box has seen with the dealer's up card forced in (:meth:`SplitValuer.exact`). ``p`` is counted
over the dealer's possible Small Hands (two cards of the rest); free extra cards are a random
Small Hand, which wins or ties with ``p_free = (1 + P(tie)) / 2`` by symmetry.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import SplitProfile
from .batch import combination_array, rank_keys
from .buy_exact import buy_gains, most_below, seen_mask
from .buy_value import key_classes, qualifier_class
from .counting import hand_classes

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
#: the Small Hand's chance grid of the model (values between are interpolated linearly)
GRID = np.linspace(0.0, 1.0, 5)
_CHUNK = 20000


def small_keys(cards: npt.ArrayLike) -> I64:
    """``evaluate_small``'s key of rows of two card indices."""
    c = np.asarray(cards, dtype=np.int64)
    a, b = c[..., 0] % 13 + 2, c[..., 1] % 13 + 2
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    out: I64 = (hi << 4 | lo) + ((hi == lo) << 8)
    return out


@lru_cache(maxsize=1)
def _pairs() -> tuple[I64, I64]:
    """Every two-card hand (1,326 rows) and its key."""
    pairs = combination_array(52, 2).astype(np.int64)
    return pairs, small_keys(pairs)


def small_chance(small: npt.ArrayLike, seen: npt.ArrayLike | None = None,
                 tie_wins: bool = True) -> F64:
    """P(the Small Hand wins or ties) against a dealer Small Hand of two cards from those not
    in ``seen`` (rows; by default the Small Hand's own two cards)."""
    s = np.asarray(small, dtype=np.int64)
    seen_rows = s if seen is None else np.asarray(seen, dtype=np.int64)
    pairs, keys = _pairs()
    own = small_keys(s)
    blocked = np.zeros((len(s), 52), dtype=bool)
    blocked[np.arange(len(s))[:, None], seen_rows] = True
    ok = ~(blocked[:, pairs[:, 0]] | blocked[:, pairs[:, 1]])
    better = own[:, None] > keys[None, :] if not tie_wins else own[:, None] >= keys[None, :]
    out: F64 = (ok & better).sum(axis=1) / ok.sum(axis=1)
    return out


@lru_cache(maxsize=1)
def free_chance() -> float:
    """P(a random Small Hand wins or ties against another, disjoint, random one)."""
    pairs, keys = _pairs()
    a, b = pairs[:, None, :], pairs[None, :, :]
    disjoint = ~((a[..., 0] == b[..., 0]) | (a[..., 0] == b[..., 1])
                 | (a[..., 1] == b[..., 0]) | (a[..., 1] == b[..., 1]))
    wins = (keys[:, None] >= keys[None, :]) & disjoint
    return float(wins.sum() / disjoint.sum())


class SplitValuer:
    """Values of Big/Small positions under one profile, for a box of ANTE ``ante``."""

    def __init__(self, profile: SplitProfile, ante: int | None = None,
                 cap: int | None = None) -> None:
        if profile.dealer_up_cards != 1 or profile.free_second_replacement:
            raise NotImplementedError("the lab values Big/Small with one dealer card face up "
                                      "and no free second replacement")
        self.profile = profile
        self.ante = profile.min_ante if ante is None else ante
        self.cap = profile.max_payout if cap is None else cap
        self.hc = hand_classes(profile.ranking)
        self.q0 = qualifier_class(profile)
        order = profile.ranking.order
        self.coef = np.array([profile.multiplier(c) for c in order], dtype=np.float64)

    def win_amount(self, k: I64, p: F64) -> F64:
        """ANTEs won when the Big Hand (class ``k``) beats a dealer with a game."""
        coef = self.coef[self.hc.strength[k]]
        limit = self.cap / self.ante
        out: F64 = ((1 - p) * np.minimum(coef, limit)
                    + p * np.minimum(self.profile.bet_multiple * coef, limit))
        return out

    def from_counts(self, k: I64, below: I64, hands: float, p: F64, gains: F64) -> F64:
        """Values from the dealer-hand counts below the qualifier, ``k`` and ``k + 1``, and
        ``gains``: the buy option's exact sums over the dealer hands (:meth:`exact_gains`)."""
        no_game = below[:, 0].astype(np.float64)
        plays = k >= self.q0
        win = np.where(plays, below[:, 1] - below[:, 0], 0)
        tie = np.where(plays, below[:, 2] - below[:, 1], 0)
        lose_amount = float(1 + self.profile.bet_multiple)
        lose = hands - no_game - win - tie
        w = self.win_amount(k, p)
        take = float(self.profile.no_game_ante_multiplier)
        out: F64 = (win * w - lose * lose_amount + no_game * take + gains) / hands
        return out

    def exact_gains(self, k: I64, p: F64, seen: I64, up: I64 | None) -> F64:
        """Per box: the sum over the dealer hands without a game (holding ``up`` when given,
        avoiding ``seen``) of what buying adds to taking the ANTE, the bought card drawn from
        the cards neither the box has seen nor the dealer holds (:mod:`.buy_exact`).
        Skipped where no dealer hand can make buying worth more
        (:func:`.buy_exact.most_below`)."""
        prof = self.profile
        out = np.zeros(len(k))
        if not prof.buy_game_allowed:
            return out
        win = self.win_amount(k, p)
        m = 47.0 - seen.shape[1]  # the deck after the dealer's five (``up`` among them)
        fee, take = float(prof.buy_game_fee), float(prof.no_game_ante_multiplier)
        lose = float(1 + prof.bet_multiple)
        reach = -fee + win * most_below(prof.ranking, prof.qualifier)[k] / m - take
        rows = np.flatnonzero(reach > 0)
        if not len(rows):
            return out
        mask = seen_mask(seen[rows])

        def gains(hand_avoids: npt.NDArray[np.bool_]) -> F64:
            return buy_gains(prof.ranking, prof.qualifier, k=k[rows], win=win[rows], lose=lose,
                             fee=fee, take=take, seen=hand_avoids, free_second=False,
                             deck_seen=mask)
        if up is None:
            out[rows] = gains(mask)
            return out
        # the hands holding the up card: those avoiding ``seen`` less those avoiding it too,
        # the deck being, for both, the cards neither ``seen`` nor the dealer's
        with_up = mask.copy()
        with_up[np.arange(len(rows)), np.asarray(up, dtype=np.int64)[rows]] = True
        out[rows] = gains(mask) - gains(with_up)
        return out

    def _counts(self, big: I64, seen: I64, up: I64 | None) -> tuple[I64, I64, float]:
        k = key_classes(rank_keys(big, self.profile.ranking), self.profile.ranking)
        thresholds = np.stack([np.full(len(big), self.q0), k, k + 1], axis=1)
        below = self.hc.disjoint_below(seen, thresholds, must=up)
        hands = comb(52 - seen.shape[1], 5) if up is None else comb(52 - seen.shape[1] - 1, 4)
        return k, below, float(hands)

    def grid(self, big: npt.ArrayLike) -> F64:
        """(n, len(GRID)) the model's values of Big Hands (ascending cards; the dealer avoids
        the Big Hand's cards only) at each Small Hand chance of the grid."""
        b = np.asarray(big, dtype=np.int64)
        out = np.empty((len(b), len(GRID)))
        for lo in range(0, len(b), _CHUNK):
            part = b[lo:lo + _CHUNK]
            k, below, hands = self._counts(part, part, None)
            for j, p in enumerate(GRID):
                chance = np.full(len(k), p)
                out[lo:lo + _CHUNK, j] = self.from_counts(
                    k, below, hands, chance, self.exact_gains(k, chance, part, None))
        return out

    def exact(self, big: npt.ArrayLike, p: npt.ArrayLike, seen: npt.ArrayLike,
              up: npt.ArrayLike) -> F64:
        """Values of Big Hands with Small Hand chances ``p``, the dealer's hidden cards
        avoiding ``seen`` and his up card ``up`` (per row)."""
        b = np.asarray(big, dtype=np.int64)
        s, u = np.asarray(seen, dtype=np.int64), np.asarray(up, dtype=np.int64)
        k, below, hands = self._counts(b, s, u)
        chance = np.asarray(p, dtype=np.float64)
        return self.from_counts(k, below, hands, chance, self.exact_gains(k, chance, s, u))


def interpolate(grid_values: F64, p: F64) -> F64:
    """The model value at chance ``p`` from a row's grid values (linear between points)."""
    x = np.clip(p, 0.0, 1.0) * (len(GRID) - 1)
    i = np.minimum(x.astype(np.int64), len(GRID) - 2)
    t = x - i
    rows = np.arange(len(p))
    out: F64 = grid_values[rows, i] * (1 - t) + grid_values[rows, i + 1] * t
    return out
