"""The Big/Small game in numpy batches: the basic strategy of ``docs/rules/strategy.md`` and the
settlement of ``rules/games/stud/split_settle.py``, for one box against the dealer.

Each round is 15 cards of one shuffled deck: the box's five (columns 0..4), the dealer's five
(5..9), the box's two extra cards (10, 11), the dealer's draw for a bought game (12) and the
dealer's Small Hand (13, 14). Amounts are integers in chips for a box of ANTE ``ante``, so a
test compares each round with the pure engine wager by wager (``tests/lab/test_split_mc.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import SplitProfile
from ..rules.ranking import Category
from .batch import rank_keys
from .buygame import buy_game

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
C = Category
NONE, FREE, BOUGHT = 0, 1, 2
CARDS = 15
#: the 21 ways to take two of seven cards for the Small Hand (the other five are the Big Hand)
SPLITS = np.array([[i, j, *(k for k in range(7) if k not in (i, j))]
                   for i, j in combinations(range(7), 2)], dtype=np.int64)
#: the basic strategy's buy-game threshold (rule 3 of the Big/Small strategy: measured on the
#: same 2,000,000 deals, full house 34.440 % beat flush 34.465 %, straight 34.888 %, three of a
#: kind 36.551 %, two pairs 43.929 % and never buying 34.718 %)
BUY_GAME_FROM = C.full_house


@dataclass(frozen=True)
class SplitBatch:
    """Per round: the strategy's choices and every wager's net in chips (player's view)."""

    extra: npt.NDArray[np.int8]  # NONE, FREE or BOUGHT
    big: I64  # (n, 5) the Big Hand
    small: I64  # (n, 2) the Small Hand (meaningless where extra == NONE)
    bet: B
    buy: B
    big_key: I64
    dealer_qualified: B  # at the first reveal
    ante_net: I64
    bet_net: I64
    extra_net: I64
    buy_net: I64
    capped: B

    @property
    def net(self) -> I64:
        return self.ante_net + self.bet_net + self.extra_net + self.buy_net


def small_keys(small: npt.NDArray[np.integer[Any]]) -> I64:
    """``evaluate_small``'s key: a pair above no pair, then the high card, then the other."""
    a = small[:, 0].astype(np.int64) % 13 + 2
    b = small[:, 1].astype(np.int64) % 13 + 2
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    keys: I64 = (hi << 4 | lo) + ((hi == lo) << 8)
    return keys


def best_split(profile: SplitProfile, seven: I64) -> tuple[I64, I64, I64]:
    """Rule 2: the Big Hand is the best five of the seven, ties going to the split whose Small
    Hand is best (the first such split in ``SPLITS`` order if still equal). Returns the Big
    Hands, their keys and the Small Hands."""
    n = len(seven)
    arranged = seven.astype(np.int8)[:, SPLITS]  # (n, 21, 7): small first, then big (int8:
    # this array is the simulation's largest)
    big_keys = rank_keys(arranged[:, :, 2:].reshape(n * 21, 5), profile.ranking).reshape(n, 21)
    score = big_keys << 9 | small_keys(arranged[:, :, :2].reshape(n * 21, 2)).reshape(n, 21)
    pick = np.argmax(score, axis=1)
    chosen = arranged[np.arange(n), pick]
    return (chosen[:, 2:].astype(np.int64), big_keys[np.arange(n), pick],
            chosen[:, :2].astype(np.int64))


def decide(profile: SplitProfile, hand: I64, extra_cards: I64,
           ) -> tuple[npt.NDArray[np.int8], I64, I64, I64, B]:
    """Rules 1 and 2: extra cards, Big/Small Hands, and BET or fold."""
    n = len(hand)
    ranking = profile.ranking
    key = rank_keys(hand, ranking)
    paired = (key >> 24) >= ranking.strength(C.one_pair)
    extra = np.full(n, NONE, dtype=np.int8)
    big, small, big_key = hand.copy(), extra_cards.copy(), key.copy()
    if profile.free_extra_allowed:
        extra[paired] = FREE
    rows = np.flatnonzero(~paired)
    if profile.bought_extra_allowed and len(rows):
        extra[rows] = BOUGHT
        seven = np.hstack([hand[rows], extra_cards[rows]])
        big[rows], big_key[rows], small[rows] = best_split(profile, seven)
    bet = paired | ((big_key >> 24) >= ranking.strength(C.one_pair))
    return extra, big, small, big_key, bet


#: which betting rows without a game buy one: (dealer cards, Big Hand keys, rows, the (n, 52)
#: mask of the cards each box has seen: its five and bought extra cards; free ones are blind)
#: -> bool
BuyRule = Callable[[I64, I64, B, B], B]


def basic_buy(profile: SplitProfile) -> BuyRule:
    """Rule 3 of the basic strategy: buy with a full house or better in the Big Hand."""
    least = profile.ranking.strength(BUY_GAME_FROM)

    def rule(dealer: I64, big_key: I64, rows: B, seen: B) -> B:
        out: B = rows & ((big_key >> 24) >= least) & profile.buy_game_allowed
        return out
    return rule


def seen_cards(cards: I64, extra: npt.NDArray[np.int8]) -> B:
    """(n, 52): the cards each box has seen, its five and its bought extra cards (free extra
    cards are dealt blind)."""
    n = len(cards)
    out = np.zeros((n, 52), dtype=bool)
    out[np.arange(n)[:, None], cards[:, :5]] = True
    rows = np.flatnonzero(extra == BOUGHT)
    out[rows[:, None], cards[rows, 10:12]] = True
    return out


def play(profile: SplitProfile, cards: I64, ante: int, cap: int) -> SplitBatch:
    """Play and settle ``cards`` (rows of 15 card indices) under the basic strategy for a box
    of ANTE ``ante`` at a table whose maximum payout is ``cap`` chips."""
    extra, big, small, big_key, bet = decide(profile, cards[:, :5], cards[:, 10:12])
    return settle(profile, cards, ante, cap, extra, big, small, big_key, bet,
                  basic_buy(profile))


def settle(profile: SplitProfile, cards: I64, ante: int, cap: int,
           extra: npt.NDArray[np.int8], big: I64, small: I64, big_key: I64, bet: B,
           buy_rule: BuyRule) -> SplitBatch:
    """Settle ``cards`` as ``rules/games/stud/split_settle.py`` does, given the strategy's
    choices."""
    if profile.free_second_replacement:
        raise NotImplementedError("a free second replacement is not simulated for Big/Small")
    ranking = profile.ranking
    dealer = cards[:, 5:10]
    dealer_key = rank_keys(dealer, ranking)
    qualified = (dealer_key >> 24) >= ranking.strength(profile.qualifier)
    buy = buy_rule(dealer, big_key, bet & ~qualified,
                   seen_cards(cards, extra)) & profile.buy_game_allowed
    against, new_qualified = dealer_key.copy(), np.zeros(len(cards), dtype=bool)
    rows = np.flatnonzero(buy)
    if len(rows):
        draw = np.hstack([cards[rows, 12:13], cards[rows, 12:13]])  # no second card is used
        _, keys, ok = buy_game(dealer[rows], draw, ranking, profile.qualifier,
                               free_second_replacement=False)
        against[rows], new_qualified[rows] = keys, ok
    plays = bet & (qualified | new_qualified)
    higher, lower = plays & (big_key > against), plays & (big_key < against)
    mine, theirs = small_keys(small), small_keys(cards[:, 13:15])
    small_wins = (extra != NONE) & ((mine > theirs)
                                    | ((mine == theirs) & profile.small_tie_to_player))
    mult = np.array([profile.multiplier(c) for c in ranking.order], dtype=np.int64)
    coef = mult[big_key >> 24]
    stake = profile.bet_multiple * ante
    bet_raw, ante_raw = np.where(small_wins, stake * coef, 0), np.where(small_wins, 0,
                                                                       ante * coef)
    no_game_raw = ante * profile.no_game_ante_multiplier
    ante_net = np.where(~bet | lower, -ante, np.where(higher, np.minimum(ante_raw, cap), 0))
    ante_net = np.where(bet & ~qualified & ~buy, min(no_game_raw, cap), ante_net)
    bet_net = np.where(lower, -stake, np.where(higher, np.minimum(bet_raw, cap), 0))
    capped = (higher & (np.maximum(bet_raw, ante_raw) > cap)) | (
        bet & ~qualified & ~buy & (no_game_raw > cap))
    extra_net = np.where(extra == BOUGHT, -profile.extra_fee * ante, 0)
    buy_net = np.where(buy, -profile.buy_game_fee * ante, 0)
    return SplitBatch(extra, big, small, bet, buy, big_key, qualified,
                      ante_net.astype(np.int64), bet_net.astype(np.int64),
                      extra_net.astype(np.int64), buy_net.astype(np.int64), capped)
