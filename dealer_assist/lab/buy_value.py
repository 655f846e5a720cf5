"""What buying a game for the dealer is worth, for every dealer hand without a game.

When the dealer has no game, a betting box either takes the ANTE (``take`` ANTEs) or pays
``fee`` ANTEs and the dealer's highest card is replaced by the next card (Russian poker: once
more, free, when that card has the replaced card's rank and still no game). The box then wins
``win`` ANTEs if its hand beats the new dealer hand with a game, loses ``lose`` if it is beaten,
and gets its stakes back otherwise. The box sees the dealer's five cards before it chooses, so
the choice is made per dealer hand: buy when ``-fee + win P(lower) - lose P(higher) > take``.

:class:`BuyOutcomes` enumerates, for every suit class of dealer hands without a game, every next
card (and free second card) over the 47 (46) cards the dealer's hand leaves, as (hand class,
probability) of the dealer's new hand. *The box's own cards are not removed from that draw* (a
few of the 47 cards are in fact the box's): that keeps one table per profile instead of one per
box; the settlement in the Monte Carlo always uses the card actually dealt, and the advisor's
"buy or take" for a known dealer hand counts the real remaining cards
(:func:`exact_buy_value`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from ..rules.games.stud import StudProfile
from ..rules.profiles import HouseProfile
from .batch import all_five_card_hands, rank_keys
from .buygame import buy_game
from .suits import HandIndex, hand_index

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
_CHUNK = 4000


@lru_cache(maxsize=2)
def class_keys(ranking: object) -> I64:
    """The sorted distinct keys of five-card hands (the hand classes, weakest first)."""
    keys: I64 = np.unique(rank_keys(all_five_card_hands(), ranking))  # type: ignore[arg-type]
    return keys


def key_classes(keys: I64, ranking: object) -> I64:
    """The class index of each key (a key of five of six cards is a five-card key too)."""
    return np.searchsorted(class_keys(ranking), keys).astype(np.int64)


def qualifier_class(profile: HouseProfile) -> int:
    """The first class with a game."""
    least = np.int64(profile.ranking.strength(profile.qualifier)) << 24
    return int(np.searchsorted(class_keys(profile.ranking), least))


def _unseen(cards: I64) -> I64:
    """Per row, the cards of the deck not in the row, ascending."""
    free = np.ones((len(cards), 52), dtype=bool)
    free[np.arange(len(cards))[:, None], cards] = False
    out: I64 = np.nonzero(free)[1].reshape(len(cards), 52 - cards.shape[1])
    return out


class BuyOutcomes:
    """The dealer's hand after a bought game, per class of dealer hands without a game."""

    def __init__(self, profile: RussianProfile | StudProfile,
                 index: HandIndex | None = None) -> None:
        self.profile = profile
        self.index = index or hand_index()
        ranking = profile.ranking
        self.q0 = qualifier_class(profile)
        rep_cls = key_classes(rank_keys(self.index.reps, ranking), ranking)
        chosen = np.flatnonzero(rep_cls < self.q0)
        self.d_reps, self.d_weights = self.index.reps[chosen], self.index.weights[chosen]
        #: class index -> row of ``d_reps`` (-1: the class has a game)
        self.row_of = np.full(len(self.index), -1, dtype=np.int64)
        self.row_of[chosen] = np.arange(len(chosen))
        parts = [self._outcomes(lo) for lo in range(0, len(chosen), _CHUNK)]
        d = np.concatenate([p[0] for p in parts])
        cls = np.concatenate([p[1] for p in parts])
        p = np.concatenate([p[2] for p in parts])
        order = np.lexsort((cls, d))
        self.o_d, self.o_cls, self.o_p = d[order], cls[order], p[order]
        self.o_key = self.o_d << 13 | self.o_cls
        self.o_cum = np.concatenate([[0.0], np.cumsum(self.o_p)])
        self.qualify = np.bincount(self.o_d, weights=self.o_p, minlength=len(chosen))
        self._gains: dict[tuple[int, float, float, float], float] = {}

    def _outcomes(self, lo: int) -> tuple[I64, I64, F64]:
        """(dealer row, new class, probability) of every qualified outcome of rows lo...

        The free second replacement needs no second enumeration: it follows a same-rank first
        card that left no game, takes the (new) highest card, which is that card, and so gives
        ``hand - highest + second card``: one of the first card's 47 outcomes again (the
        first card itself and the other same-rank cards leave no game, so they add nothing).
        Each qualified outcome therefore gains ``m / (47 x 46)``, ``m`` being the number of
        same-rank first cards that left no game."""
        p = self.profile
        reps = self.d_reps[lo:lo + _CHUNK]
        n = len(reps)
        others = _unseen(reps)  # (n, 47)
        cards = np.repeat(reps, 47, axis=0)
        _, keys, ok = buy_game(cards, np.stack([others.reshape(-1)] * 2, axis=1), p.ranking,
                               p.qualifier, free_second_replacement=False)
        ok = ok.reshape(n, 47)
        weight = np.full((n, 47), 1 / 47)
        if p.free_second_replacement:
            same = others % 13 == (reps.max(axis=1) % 13)[:, None]
            again = (same & ~ok).sum(axis=1)
            weight += (again / (47 * 46))[:, None]
        cls = key_classes(keys, p.ranking).reshape(n, 47)
        rows = np.repeat(np.arange(n) + lo, 47).reshape(n, 47)
        return rows[ok], cls[ok], weight[ok]

    def _below(self, rows: I64, k: I64) -> tuple[F64, F64]:
        """P(new hand has a game and is below / equal to class ``k``) for dealer ``rows``."""
        base = rows << 13
        lo = np.searchsorted(self.o_key, base)
        at = np.searchsorted(self.o_key, base | k)
        hi = np.searchsorted(self.o_key, base | (k + 1))
        return self.o_cum[at] - self.o_cum[lo], self.o_cum[hi] - self.o_cum[at]

    def buy_value(self, rows: I64, k: I64, win: F64, lose: float) -> F64:
        """Expected result of buying (fee included) for dealer ``rows`` against a box of class
        ``k`` that wins ``win`` ANTEs (per row) and loses ``lose``."""
        below, equal = self._below(rows, k)
        above = self.qualify[rows] - below - equal
        out: F64 = -float(self.profile.buy_game_fee) + win * below - lose * above
        return out

    def gain(self, k: I64, win: F64, lose: float, take: float) -> F64:
        """Per query: the mean over dealer hands without a game (weighted by how often each is
        dealt) of max(0, buy value - take), i.e. what the option to buy adds to taking the
        ANTE, for a box of class ``k`` winning ``win`` ANTEs.

        One sweep over the queries in class order: the probabilities below ``k`` grow as ``k``
        passes outcome classes, so each query costs one pass over the dealer classes."""
        k, win = np.asarray(k, dtype=np.int64), np.asarray(win, dtype=np.float64)
        out = np.zeros(len(k))
        fee = float(self.profile.buy_game_fee)
        reach = win * self.qualify.max() - fee - take
        todo = np.flatnonzero(reach > 0)  # no dealer hand can make buying worth it otherwise
        if not len(todo):
            return out
        pairs, back = np.unique(np.stack([k[todo], win[todo]], axis=1), axis=0,
                                return_inverse=True)
        keys = [(int(a), float(b), lose, take) for a, b in pairs]
        missing = [i for i, key in enumerate(keys) if key not in self._gains]
        if missing:
            computed = self._sweep(pairs[missing], lose, take)
            self._gains.update((keys[i], float(v)) for i, v in zip(missing, computed,
                                                                      strict=True))
        out[todo] = np.array([self._gains[key] for key in keys])[back.reshape(-1)]
        return out

    def _sweep(self, pairs: F64, lose: float, take: float) -> F64:
        """The gains of (class, win) query pairs sorted by class."""
        fee = float(self.profile.buy_game_fee)
        by_cls = np.argsort(self.o_cls, kind="stable")
        cls_sorted = self.o_cls[by_cls]
        below = np.zeros(len(self.d_reps))
        equal = np.zeros(len(self.d_reps))
        done = 0
        total = float(self.d_weights.sum())
        values = np.zeros(len(pairs))
        for i, (kq, wq) in enumerate(pairs):
            kq = int(kq)
            lo = int(np.searchsorted(cls_sorted, kq, "left"))
            hi = int(np.searchsorted(cls_sorted, kq, "right"))
            if lo > done:
                sel = by_cls[done:lo]
                np.add.at(below, self.o_d[sel], self.o_p[sel])
                done = lo
            eq = by_cls[lo:hi]
            np.add.at(equal, self.o_d[eq], self.o_p[eq])
            value = -fee + wq * below - lose * (self.qualify - below - equal)
            values[i] = float(np.sum(self.d_weights * np.maximum(0.0, value - take))) / total
            equal[self.o_d[eq]] = 0.0
        return values
