"""A batch hand evaluator on numpy arrays: the same keys as ``rules.evaluator.rank_key``.

The game-math lab evaluates millions of hands at once (every five-card hand, a Monte Carlo
batch), which a per-call Python loop cannot do in seconds. Hands are integer arrays of shape
``(n, k)``, ``5 <= k <= 7``, holding card indices ``0..51`` (``Card.index``: suit x 13 + rank - 2).

Two lookup tables carry the whole evaluation, both built once per ranking *by calling*
``rank_key`` itself, so the batch keys agree with the rules engine by construction and the golden
tests check that they do:

* every rank multiset of 5..7 cards -> the key of a hand with those ranks and no flush, found by
  ``searchsorted`` on the packed rank counters (3 bits per rank, the engine's own layout);
* every 13-bit rank mask of five or more ranks -> the key of those ranks all in one suit
  (flush, straight flush or royal flush).

A hand's key is the larger of its multiset key and, when one suit holds five or more cards, that
suit's flush key. Only rankings without suit tie-breaks (the 52-card ``standard`` one) qualify:
the 32-card games break ties by suit, which no rank table can express.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations_with_replacement

import numpy as np
import numpy.typing as npt

from ..rules.cards import ALL_CARDS, Card, Suit
from ..rules.evaluator import rank_key
from ..rules.ranking import Category, Ranking

IntArray = npt.NDArray[np.int64]

#: per-rank weights whose sums are distinct for every rank multiset of one size 5..7 (the rank
#: keys of SKPokerEval); the build checks it, so a wrong weight fails loudly, never silently
WEIGHTS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
# One int64 term per card: the rank weight in bits 0..31 and a 4-bit suit counter per suit from
# bit 32 on. The counters start at 3, so bit 3 of a counter is set exactly when that suit holds
# five or more cards (the rules engine's trick).
_TERM = np.array([WEIGHTS[i % 13] | 1 << (32 + 4 * (i // 13)) for i in range(52)],
                 dtype=np.int64)
_START = np.int64(0x3333 << 32)
_FLUSH_BITS = np.int64(0x8888 << 32)
_LOW = np.int64(0xFFFFFFFF)
_RANK_BIT = np.array([1 << (i % 13) for i in range(52)], dtype=np.int64)
_SUIT_OF = np.array([i // 13 for i in range(52)], dtype=np.int64)
_BY_INDEX: dict[int, Card] = {c.index: c for c in ALL_CARDS}
_SUITS = (Suit.spades, Suit.hearts, Suit.diamonds, Suit.clubs)


class BatchTables:
    """The lookup tables of one ranking (see the module docstring)."""

    def __init__(self, ranking: Ranking) -> None:
        if ranking.suit_order is not None or len(ranking.deck.cards) != 52:
            raise NotImplementedError(
                f"the batch evaluator covers 52-card rankings without suit tie-breaks; "
                f"{ranking.name} breaks ties by suit")
        self.ranking = ranking
        self._multi: dict[int, npt.NDArray[np.int32]] = {}
        flush = np.zeros(1 << 13, dtype=np.int64)
        for mask in range(1 << 13):
            if mask.bit_count() >= 5:
                flush[mask] = rank_key([_BY_INDEX[r] for r in range(13) if mask >> r & 1],
                                       ranking)
        self.flush_keys = flush

    def multi(self, n: int) -> npt.NDArray[np.int32]:
        """Weight sum of an n-card rank multiset -> key of a hand with those ranks, no flush."""
        if n not in self._multi:
            table = np.full(n * WEIGHTS[-1] + 1, -1, dtype=np.int32)
            for multiset in combinations_with_replacement(range(13), n):
                if any(multiset.count(r) > 4 for r in set(multiset)):
                    continue
                index = sum(WEIGHTS[r] for r in multiset)
                if table[index] != -1:
                    raise AssertionError(f"rank weights collide for {n}-card multisets")
                table[index] = rank_key(no_flush_hand(multiset), self.ranking)
            self._multi[n] = table
        return self._multi[n]


def no_flush_hand(multiset: tuple[int, ...]) -> list[Card]:
    """Cards with these sorted ranks (0 = deuce), the i-th card in suit i mod 4.

    Copies of one rank are adjacent, so they get distinct suits; seven cards put at most two in
    any suit, so the hand never holds a flush and its key is its rank multiset's key.
    """
    return [Card(r + 2, _SUITS[pos % 4]) for pos, r in enumerate(multiset)]


@lru_cache(maxsize=4)
def tables(ranking: Ranking) -> BatchTables:
    return BatchTables(ranking)


def rank_keys(hands: npt.ArrayLike, ranking: Ranking) -> IntArray:
    """``rank_key`` of every row of ``hands`` (card indices, 5..7 columns), as int64.

    Rows are not validated (the lab deals them itself): a duplicate card gives a meaningless key.
    """
    h = np.asarray(hands)
    if h.ndim != 2 or not 5 <= h.shape[1] <= 7:
        raise ValueError(f"hands must be an (n, 5..7) array of card indices, got {h.shape}")
    t = tables(ranking)
    cols = np.ascontiguousarray(h.T)
    acc = _TERM[cols[0]] + _START
    for col in cols[1:]:
        acc += _TERM[col]
    keys: IntArray = t.multi(h.shape[1])[acc & _LOW].astype(np.int64)
    flushy = np.flatnonzero(acc & _FLUSH_BITS)
    if len(flushy):
        fh = h[flushy].astype(np.int64)
        nibbles = (acc[flushy, None] >> (32 + 4 * np.arange(4)) & 8) != 0
        suit = np.argmax(nibbles, axis=1)  # at most one suit holds five of seven cards
        masks = np.where(_SUIT_OF[fh] == suit[:, None], _RANK_BIT[fh], 0).sum(axis=1)
        keys[flushy] = np.maximum(keys[flushy], t.flush_keys[masks])
    return keys


def strengths(keys: IntArray) -> IntArray:
    """The category strength (position in the ranking's order) of each key."""
    return keys >> 24


def categories(keys: IntArray, ranking: Ranking) -> list[Category]:
    """The category of each key (a list: for display and small samples)."""
    order = ranking.order
    return [order[s] for s in strengths(keys).tolist()]


@cache
def combination_array(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of ``range(n)`` as rows, in lexicographic order (built without a loop
    over the rows: one block per leading element)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    blocks = []
    for first in range(n - k + 1):
        rest = combination_array(n - first - 1, k - 1) + np.int8(first + 1)
        head = np.full((len(rest), 1), first, dtype=np.int8)
        blocks.append(np.hstack([head, rest]))
    out = np.vstack(blocks)
    out.flags.writeable = False  # cached: shared by every caller
    return out


@lru_cache(maxsize=1)
def all_five_card_hands() -> npt.NDArray[np.int8]:
    """Every five-card hand of a 52-card deck (2,598,960 rows, lexicographic, ascending)."""
    return combination_array(52, 5)
