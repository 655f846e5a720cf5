"""Buying a game for the dealer, in numpy batches (``rules.games.common.buy_game``).

The dealer's highest card (the first of equal ranks, as the engine picks it) is replaced by the
first draw card; with ``free_second_replacement``, a drawn card of the replaced card's rank that
still leaves no game is replaced once more, free, by the second draw card (the new highest card,
which may be the card just drawn).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.ranking import Category, Ranking
from .batch import rank_keys

I64 = npt.NDArray[np.int64]


def _replace_highest(hand: I64, card: I64) -> tuple[I64, I64]:
    """The hands with their highest card replaced by ``card``; the replaced card."""
    rows = np.arange(len(hand))
    top = np.argmax(hand % 13, axis=1)  # first of equal ranks
    replaced = hand[rows, top]
    out = hand.copy()
    out[rows, top] = card
    return out, replaced


def buy_game(dealer: I64, draw: I64, ranking: Ranking, qualifier: Category, *,
             free_second_replacement: bool) -> tuple[I64, I64, npt.NDArray[np.bool_]]:
    """The dealer's new cards, their keys and whether they qualify, for each row."""
    least = ranking.strength(qualifier)
    cards, replaced = _replace_highest(dealer, draw[:, 0])
    keys = rank_keys(cards, ranking)
    qualified = (keys >> 24) >= least
    if free_second_replacement:
        again = np.flatnonzero(~qualified & (draw[:, 0] % 13 == replaced % 13))
        if len(again):
            cards[again], _ = _replace_highest(cards[again], draw[again, 1])
            keys[again] = rank_keys(cards[again], ranking)
            qualified[again] = (keys[again] >> 24) >= least
    return cards, keys, qualified
