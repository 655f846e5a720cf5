"""Suit symmetry: five-card hands (and a hand with the dealer's up card) up to relabelling suits.

Every figure of the banked games is unchanged when the four suits are permuted, so the lab works
on the 134,459 *classes* of five-card hands instead of the 2,598,960 hands. A hand's class code
is its four per-suit 13-bit rank masks sorted ascending and packed (``m0 | m1 << 13 | ...``);
its *canonical hand* is the hand relabelled by that order (the suit with the smallest mask
becomes suit 0, and so on), which is the class's representative. :func:`relabel` gives, for any
hands, the permutation that maps them onto their canonical hands, so a dealt hand and a card
seen with it (the dealer's up card, a drawn card) can be carried into the canonical frame where
the strategy tables are kept.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .batch import all_five_card_hands
from .counting import colex

I64 = npt.NDArray[np.int64]


def suit_masks(hands: npt.ArrayLike) -> I64:
    """(n, 4) rank masks per suit of each row of distinct card indices (suit x 13 + rank - 2):
    the 52-bit set of the row's cards cut into four 13-bit pieces."""
    h = np.asarray(hands, dtype=np.int64)
    bits = np.int64(1) << h[:, 0]
    for j in range(1, h.shape[1]):
        bits |= np.int64(1) << h[:, j]
    out: I64 = (bits[:, None] >> (13 * np.arange(4, dtype=np.int64))) & 0x1FFF
    return out


def relabel(hands: npt.ArrayLike, up: npt.ArrayLike | None = None) -> I64:
    """(n, 4) suit permutation per row: ``perm[i, s]`` is the canonical suit of suit ``s``.

    Suits are ordered by their rank mask; with ``up`` (one card per row) equal masks are ordered
    so the up card's suit comes last, which makes (hand, up card) pairs canonical too."""
    masks = suit_masks(hands)
    key = masks << 5
    if up is not None:
        u = np.asarray(up, dtype=np.int64)
        key[np.arange(len(u)), u // 13] |= u % 13 + 1
    order = np.argsort(key, axis=1, kind="stable")  # order[i, j] = the suit placed j-th
    perm = np.empty_like(order)
    np.put_along_axis(perm, order, np.arange(4)[None, :].repeat(len(order), axis=0), axis=1)
    return perm


def apply(perm: I64, cards: npt.ArrayLike) -> I64:
    """The cards (rows matching ``perm``'s, any number of columns) in the relabelled suits."""
    c = np.asarray(cards, dtype=np.int64)
    rows = np.arange(len(c))[:, None] if c.ndim == 2 else np.arange(len(c))
    return perm[rows, c // 13] * 13 + c % 13


def codes(hands: npt.ArrayLike) -> I64:
    """The class code of each hand (its sorted suit masks, packed)."""
    m = np.sort(suit_masks(hands), axis=1)
    out: I64 = m[:, 0] | m[:, 1] << 13 | m[:, 2] << 26 | m[:, 3] << 39
    return out


class HandIndex:
    """Every class of five-card hands: sorted codes, canonical hands and class sizes."""

    def __init__(self) -> None:
        hands = all_five_card_hands()
        all_codes = codes(hands)
        self.codes, first, inverse, counts = np.unique(all_codes, return_index=True,
                                                       return_inverse=True, return_counts=True)
        reps = hands[first].astype(np.int64)
        self.reps = np.sort(apply(relabel(reps), reps), axis=1)  # canonical hands, ascending
        self.weights = counts.astype(np.int64)
        #: the class of every hand of ``all_five_card_hands()`` (lexicographic order)
        self.of_all = inverse.reshape(-1).astype(np.int64)
        #: the class of every hand by its colex rank (:func:`.counting.colex`)
        self.by_colex = np.empty(len(hands), dtype=np.int32)
        self.by_colex[colex(hands)] = self.of_all

    def __len__(self) -> int:
        return len(self.codes)

    def classes(self, hands: npt.ArrayLike) -> I64:
        """The class index of each five-card hand (rows in any order of their cards)."""
        h = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
        return self.by_colex[colex(h)].astype(np.int64)


@lru_cache(maxsize=1)
def hand_index() -> HandIndex:
    return HandIndex()
