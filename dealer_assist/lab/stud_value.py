"""What a final Caribbean stud / Oasis hand is worth when it raises, seeing the dealer's up card.

The dealer's hand is the up card plus four of the cards the box has not seen, all equally
likely; the dealer hands are counted by strength exactly (:mod:`.counting`, the up card forced
into every hand). Per ANTE::

    raise value = (no_game x m + win x W - lose x (1 + bet_multiple)) / hands

with ``m`` the no-game ANTE multiplier and ``W`` the ANTE (when paid) plus the raise's pay
table win, capped at the maximum payout. A fold loses the ANTE (-1).
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import CaribbeanProfile
from .batch import rank_keys
from .buy_value import key_classes, qualifier_class
from .counting import hand_classes

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
_CHUNK = 20000


class StudValuer:
    """Raise values of final hands under one Caribbean/Oasis profile, box of ANTE ``ante``."""

    def __init__(self, profile: CaribbeanProfile, ante: int | None = None,
                 cap: int | None = None) -> None:
        if profile.buy_game_allowed:
            raise NotImplementedError("buying a game is not valued for Caribbean stud or "
                                      "Oasis")
        if profile.dealer_up_cards != 1:
            raise NotImplementedError("the lab values Caribbean stud and Oasis with exactly "
                                      "one dealer card face up")
        self.profile = profile
        self.ante = profile.min_ante if ante is None else ante
        self.cap = profile.max_payout if cap is None else cap
        self.hc = hand_classes(profile.ranking)
        self.q0 = qualifier_class(profile)
        order = profile.ranking.order
        mult = np.array([profile.multiplier(c) for c in order], dtype=np.float64)
        win = (1.0 if profile.ante_paid_on_win else 0.0) + profile.bet_multiple * mult
        self.win_by_strength = np.minimum(win, self.cap / self.ante)

    def values(self, hands: npt.ArrayLike, up: npt.ArrayLike,
               seen: npt.ArrayLike | None = None) -> F64:
        """Raise value (ANTEs) of each final hand (ascending card indices) against a dealer
        showing ``up``; ``seen``: every card the dealer's hidden cards cannot be (by default
        the final hand's)."""
        h = np.asarray(hands, dtype=np.int64)
        u = np.asarray(up, dtype=np.int64)
        s = h if seen is None else np.asarray(seen, dtype=np.int64)
        if not len(h):
            return np.zeros(0)
        return np.concatenate([self._values(h[lo:lo + _CHUNK], u[lo:lo + _CHUNK],
                                            s[lo:lo + _CHUNK])
                               for lo in range(0, len(h), _CHUNK)])

    def _values(self, h: I64, up: I64, seen: I64) -> F64:
        p = self.profile
        k = key_classes(rank_keys(h, p.ranking), p.ranking)
        thresholds = np.stack([np.full(len(h), self.q0), k, k + 1], axis=1)
        below = self.hc.disjoint_below(seen, thresholds, must=up)
        hands = float(comb(52 - seen.shape[1] - 1, 4))
        no_game = below[:, 0].astype(np.float64)
        plays = k >= self.q0
        win = np.where(plays, below[:, 1] - below[:, 0], 0)
        tie = np.where(plays, below[:, 2] - below[:, 1], 0)
        lose = hands - no_game - win - tie
        w = self.win_by_strength[self.hc.strength[k]]
        out: F64 = (no_game * float(p.no_game_ante_multiplier) + win * w
                    - lose * float(1 + p.bet_multiple)) / hands
        return out
