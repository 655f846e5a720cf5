"""What the option to buy a game is worth to a box, exact: the bought card avoids the box's cards.

RULES.md: buying replaces the dealer's highest card with the next card of the deck, and the
box's cards (its final hand and its discards: every card it has seen) are not in that deck.
Counted here without enumerating dealer hands. A dealer hand without a game (the qualifier is
Ace-King or a pair, so its five ranks differ) is ``T`` (its four lower cards) plus its highest
card ``top``; the new hand is ``T`` plus the next card ``c``, so its class depends on ``T`` and
``c`` alone, and (Russian poker) the free second replacement, which follows a card of ``top``'s
rank leaving no game, gives ``T`` plus the next card again. So for a box of class ``k`` winning
``win`` ANTEs and losing ``lose``, with ``m`` cards left in the deck::

    buy(T, top) = -fee + R(T) / m x (1 + again(T, top) / (m - 1))
    R(T) = win x #{c in deck: T + c has a game below k} - lose x #{c: T + c above k}

``again`` = the deck's other cards of ``top``'s rank that leave no game (0 without the free
second replacement). ``T + c`` is a flush only when ``T``'s four cards share a suit and ``c``
has it; otherwise its class depends on ranks only. So every sum runs over the 715 rank sets
``Q`` of ``T`` x the 13 ranks of ``c``, separately for the ``T`` of mixed suits and, per suit,
the suited ones, with the box's cards taken out of every count. The box takes the better of
buying and the ANTE per dealer hand (it sees the dealer's cards), so the option adds
``sum over dealer hands without a game of max(0, buy - take)``.

``tests/lab/test_buy_exact.py`` checks it against every dealer hand and every bought card of a
few made hands, enumerated and played by the engine's rule (:func:`.buygame.buy_game`).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ..rules.ranking import Category, Ranking
from .batch import rank_keys
from .buy_value import class_keys, key_classes

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
B = npt.NDArray[np.bool_]
#: the 715 four-rank sets (rank indices 0..12 = 2..A, ascending)
RANK_SETS = np.array(list(combinations(range(13), 4)), dtype=np.int64)
IN_SET = np.zeros((len(RANK_SETS), 13), dtype=bool)
IN_SET[np.arange(len(RANK_SETS))[:, None], RANK_SETS] = True
_BATCH = 128


@lru_cache(maxsize=8)
def rank_tables(ranking: Ranking, qualifier: Category) -> tuple[I64, I64, B]:
    """Per (rank set ``Q``, rank ``r``): the class of ``Q`` + ``r`` in mixed suits, the class
    when all five share a suit (-1 when ``r`` is in ``Q``), and whether a highest card of rank
    ``r`` (above ``Q``) makes a hand without a game in mixed suits."""
    if ranking.strength(qualifier) > ranking.strength(Category.one_pair):
        raise NotImplementedError("the exact buy value needs a dealer without a game to hold "
                                  "five different ranks (a qualifier of a pair at most)")
    n = len(RANK_SETS)
    q = np.repeat(RANK_SETS, 13, axis=0)  # (n*13, 4)
    r = np.tile(np.arange(13), n)
    # Q's ranks in suits 0..3; the added card in suit 0, or 1 when it pairs Q's suit-0 card
    mixed = np.hstack([q + 13 * np.arange(4), (r + 13 * (q[:, 0] == r))[:, None]])
    plain = key_classes(rank_keys(np.sort(mixed, axis=1), ranking), ranking).reshape(n, 13)
    suited = np.hstack([q, r[:, None]])
    ok = ~IN_SET.reshape(-1)
    flush = np.full(n * 13, -1, dtype=np.int64)
    flush[ok] = key_classes(rank_keys(np.sort(suited[ok], axis=1), ranking), ranking)
    least = _least_class(ranking, qualifier)
    top = (np.arange(13)[None, :] > RANK_SETS[:, 3:4]) & (plain < least)
    return plain, flush.reshape(n, 13), top


def _least_class(ranking: Ranking, qualifier: Category) -> int:
    """The first class with a game."""
    least = np.int64(ranking.strength(qualifier)) << 24
    return int(np.searchsorted(class_keys(ranking), least))


def buy_gains(ranking: Ranking, qualifier: Category, *, k: I64, win: F64, lose: float,
              fee: float, take: float, seen: B, free_second: bool,
              deck_seen: B | None = None) -> F64:
    """Per box: the sum over the dealer hands without a game that avoid its ``seen`` cards
    (rows of a (n, 52) mask) of max(0, buy value - take), in ANTEs; divide by the number of
    dealer hands the box's cards leave for the option's share of its expected result.

    ``deck_seen`` (a subset of ``seen``; by default ``seen``): the cards out of the deck the
    bought card comes from. Big/Small's advisor forces the dealer's up card ``u`` into his
    hand as ``gains(seen=S, deck_seen=S) - gains(seen=S + u, deck_seen=S)``."""
    k = np.asarray(k, dtype=np.int64)
    win = np.asarray(win, dtype=np.float64)
    deck = seen if deck_seen is None else deck_seen
    out = np.zeros(len(k))
    for lo in range(0, len(k), _BATCH):
        out[lo:lo + _BATCH] = _gains(ranking, qualifier, k[lo:lo + _BATCH],
                                     win[lo:lo + _BATCH], lose, fee, take,
                                     seen[lo:lo + _BATCH], free_second, deck[lo:lo + _BATCH])
    return out


@lru_cache(maxsize=8)
def _shape(ranking: Ranking, qualifier: Category) -> tuple[I64, I64, I64, I64, B, I64, I64]:
    """The rank sets that have a highest card leaving no game (the others are never ``T``),
    with their tables, and every (rank set, highest rank) pair as (row, rank)."""
    plain, flush, top = rank_tables(ranking, qualifier)
    rows = np.flatnonzero(top.any(axis=1))
    pair_q, pair_t = np.nonzero(top[rows])
    return (RANK_SETS[rows], plain[rows], np.where(flush[rows] < 0, 0, flush[rows]),
            rows, IN_SET[rows], pair_q, pair_t)


def _gains(ranking: Ranking, qualifier: Category, k: I64, win: F64, lose: float, fee: float,
           take: float, seen: B, free_second: bool, deck_seen: B) -> F64:
    """``seen``: the cards no dealer hand holds; ``deck_seen``: the cards out of the deck."""
    sets, plain, flush, _, in_q, pq, pt = _shape(ranking, qualifier)
    least = _least_class(ranking, qualifier)
    in_s = seen.reshape(-1, 4, 13)  # (n, suit, rank)
    in_d = deck_seen.reshape(-1, 4, 13)
    clear = (~in_d).astype(np.float64)  # the deck's cards
    clear_h = (~in_s).astype(np.float64)  # the cards a dealer hand may hold
    n_s = in_d.sum(axis=1).astype(np.float64)  # (n, 13) cards out of the deck per rank
    m = 52 - 5 - deck_seen.sum(axis=1).astype(np.float64)  # the deck after the dealer's five
    kk = k[:, None, None]
    has = plain[None] >= least
    below_p = (has & (plain[None] < kk)).astype(np.float64)  # (n, Q, 13)
    above_p = (has & (plain[None] > kk)).astype(np.float64)
    has_f = (flush[None] >= least) & ~in_q[None]
    below_f = (has_f & (flush[None] < kk)).astype(np.float64)
    above_f = (has_f & (flush[None] > kk)).astype(np.float64)
    full = (4 - in_q).astype(np.float64)
    w = win[:, None]
    # the next cards of mixed-suit T: every card of each rank the box and T leave
    nb = np.einsum("nqr,qr->nq", below_p, full) - np.einsum("nqr,nr->nq", below_p, n_s)
    na = np.einsum("nqr,qr->nq", above_p, full) - np.einsum("nqr,nr->nq", above_p, n_s)
    r_plain = w * nb - lose * na  # (n, Q)
    # suited T: the suit's card of each other rank makes a flush instead
    eb = np.einsum("nqr,nsr->nqs", below_f - below_p * ~in_q[None], clear)
    ea = np.einsum("nqr,nsr->nqs", above_f - above_p * ~in_q[None], clear)
    r_suit = r_plain[:, :, None] + w[:, :, None] * eb - lose * ea  # (n, Q, suit)
    free = 4 - in_s.sum(axis=1).astype(np.float64)  # (n, 13) cards a dealer hand may hold
    n_t = free[:, sets].prod(axis=2)  # (n, Q) T avoiding the box's cards
    suited: B = np.all(~in_s[:, :, sets], axis=3)  # (n, suit, Q): T of one suit avoiding S
    n_suit = np.transpose(suited, (0, 2, 1)).astype(np.float64)  # (n, Q, suit)
    n_mixed = n_t - n_suit.sum(axis=2)
    inv_m = (1.0 / m)[:, None]
    again_w = (1.0 / (m - 1))[:, None] if free_second else np.zeros((len(m), 1))
    tops = free[:, pt]  # (n, P) highest cards of mixed-suit T
    out: F64 = (n_mixed[:, pq] * tops * _keep(r_plain[:, pq], tops, inv_m, again_w, fee,
                                              take)).sum(axis=1)
    for s in range(4):
        tops_s = tops - clear_h[:, s, pt]  # not the suit's own card: it would make a flush
        out += (n_suit[:, pq, s] * tops_s * _keep(r_suit[:, pq, s], tops_s, inv_m, again_w,
                                                  fee, take)).sum(axis=1)
    return out


def _keep(r: F64, tops: F64, inv_m: F64, again_w: F64, fee: float, take: float) -> F64:
    """max(0, buy - take) for a T whose next cards total ``r``, ``tops - 1`` cards of the
    highest card's rank leaving no game (the free second replacement)."""
    out: F64 = np.maximum(0.0, -fee + r * inv_m * (1.0 + np.maximum(tops - 1, 0) * again_w)
                          - take)
    return out


@lru_cache(maxsize=8)
def most_below(ranking: Ranking, qualifier: Category) -> I64:
    """Per class ``k``: the most next cards (none of them the box's) that give a dealer hand
    without a game a game below ``k``, over every such dealer hand: a box of class ``k`` gains
    nothing from buying unless ``win x most_below[k] / m`` (the free second replacement
    adding at most 3 / (m - 1) of it) beats the fee and the ANTE."""
    _, plain, flush, _, in_q, _, _ = _shape(ranking, qualifier)
    least = _least_class(ranking, qualifier)
    n = len(class_keys(ranking)) + 1
    mixed = np.zeros((len(plain), n))
    suited = np.zeros((len(plain), n))
    rows = np.repeat(np.arange(len(plain)), 13)
    np.add.at(mixed, (rows, plain.reshape(-1)), (4 - in_q).reshape(-1))
    np.add.at(suited, (rows, plain.reshape(-1)), np.full(in_q.shape, 3).reshape(-1))
    np.add.at(suited, (rows[~in_q.reshape(-1)], flush.reshape(-1)[~in_q.reshape(-1)]), 1)
    counts = np.vstack([mixed, suited])
    counts[:, :least] = 0
    below = np.hstack([np.zeros((len(counts), 1)), np.cumsum(counts, axis=1)[:, :-1]])
    out: I64 = below.max(axis=0).astype(np.int64)
    return out


def seen_mask(cards: npt.ArrayLike) -> B:
    """(n, 52) mask of each row's cards."""
    c = np.asarray(cards, dtype=np.int64)
    out = np.zeros((len(c), 52), dtype=bool)
    out[np.arange(len(c))[:, None], c] = True
    return out


#: a 13-bit rank mask of four ranks -> its row of RANK_SETS
_SET_OF_MASK = np.full(1 << 13, -1, dtype=np.int64)
_SET_OF_MASK[(np.int64(1) << RANK_SETS).sum(axis=1)] = np.arange(len(RANK_SETS))


def buy_values(ranking: Ranking, qualifier: Category, *, dealer: I64, k: I64, win: F64,
               lose: float, fee: float, seen: B, free_second: bool) -> F64:
    """Per row: buying a game for this known dealer hand without a game (five cards), fee
    included, for a box of class ``k`` winning ``win`` that has seen the cards of ``seen``
    ((n, 52) mask): exact over the next card (and the free second), the deck being every card
    neither the box's nor the dealer's."""
    plain, flush, _ = rank_tables(ranking, qualifier)
    least = _least_class(ranking, qualifier)
    d = np.asarray(dealer, dtype=np.int64)
    rows = np.arange(len(d))
    top_at = np.argmax(d % 13, axis=1)
    top = d[rows, top_at]
    rest = d[np.ones(d.shape, dtype=bool) & (np.arange(5)[None, :] != top_at[:, None])]
    rest = rest.reshape(len(d), 4)
    q = _SET_OF_MASK[(np.int64(1) << (rest % 13)).sum(axis=1)]
    if (q < 0).any():
        raise ValueError("a dealer hand without a game holds five different ranks")
    kk = np.asarray(k, dtype=np.int64)[:, None]
    w = np.asarray(win, dtype=np.float64)[:, None]

    def value(cls: I64) -> F64:
        out: F64 = np.where(cls >= least, np.where(cls < kk, w, np.where(cls > kk, -lose, 0.0)),
                            0.0)
        return out

    vp, vf = value(plain[q]), value(np.where(flush[q] < 0, 0, flush[q]))
    n_s = seen.reshape(-1, 4, 13).sum(axis=1)
    avail = 4 - n_s - IN_SET[q]
    avail[rows, top % 13] -= 1  # the replaced card is not in the deck (it leaves no game)
    r = (avail * vp).sum(axis=1)
    suit = rest[:, 0] // 13
    suited = (rest // 13 == suit[:, None]).all(axis=1)
    clear = ~seen.reshape(-1, 4, 13)[rows, suit]  # (n, 13) the suit's cards the box has not
    extra = np.where(~IN_SET[q] & clear, vf - vp, 0.0).sum(axis=1)
    r = r + np.where(suited, extra, 0.0)
    t = top % 13
    again = 3 - n_s[rows, t] - (suited & clear[rows, t])
    m = 47.0 - seen.sum(axis=1)
    factor = 1.0 + (again / (m - 1) if free_second else 0.0)
    out: F64 = -fee + r / m * factor
    return out
