"""Big/Small played by a strategy table (:mod:`.split_best`), in numpy batches.

Rounds are laid out as in :mod:`.split_mc` (15 cards). Per dealt hand the table's option: fold,
bet without extra cards, free extra cards (the Small Hand as dealt, BET obliged) or bought extra
cards, after which the best split by the model is taken and the box bets when it is worth more
than a fold. Facing a dealer without a game the box buys one when that dealer hand's buy value
(:func:`.buy_exact.buy_values`: the bought card drawn from the cards neither the dealer holds
nor the box has seen; the win weighed by the Small Hand's chance) beats the ANTE.
Settlement: :func:`.split_mc.settle`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import SplitProfile
from .batch import rank_keys
from .buy_exact import buy_values
from .buy_value import key_classes
from .montecarlo import Played
from .split_best import BET, BOUGHT, FOLD, FREE, SplitStrategy, best_splits, small_chances, valuer
from .split_mc import BOUGHT as EXTRA_BOUGHT
from .split_mc import FREE as EXTRA_FREE
from .split_mc import I64, SPLITS, B, BuyRule, SplitBatch, settle
from .split_mc import NONE as EXTRA_NONE
from .split_value import free_chance, small_keys
from .suits import hand_index


def play(profile: SplitProfile, table: SplitStrategy, cards: I64, ante: int,
         cap: int) -> Played:
    r = play_batch(profile, table, cards, ante, cap)
    fees = -(r.extra_net + r.buy_net) / ante
    return Played(r.net / ante, 1 + profile.bet_multiple * r.bet + fees, r.big_key,
                  r.dealer_qualified, r.bet, r.capped)


def play_batch(profile: SplitProfile, table: SplitStrategy, cards: I64, ante: int,
               cap: int) -> SplitBatch:
    """The table's choices and every wager's net in chips (``split_mc.SplitBatch``)."""
    hand, extra_cards = cards[:, :5], cards[:, 10:12]
    n = len(cards)
    option = table.best[hand_index().classes(hand)]
    extra = np.full(n, EXTRA_NONE, dtype=np.int8)
    extra[option == FREE] = EXTRA_FREE
    big, small = hand.copy(), extra_cards.copy()
    bet = (option == BET) | (option == FREE)
    chance = np.where(option == FREE, free_chance(), 0.0)
    rows = np.flatnonzero(option == BOUGHT)
    if len(rows):
        extra[rows] = EXTRA_BOUGHT
        seven = np.sort(np.hstack([hand[rows], extra_cards[rows]]), axis=1)
        value, pick = best_splits(table.grid, seven)
        chosen = SPLITS[pick]
        picked = np.take_along_axis(seven, chosen, axis=1)
        small[rows], big[rows] = picked[:, :2], picked[:, 2:]
        bet[rows] = value > -1.0
        chance[rows] = small_chances()[small_keys(picked[:, :2])]
    bet &= option != FOLD
    big_key = rank_keys(big, profile.ranking)
    return settle(profile, cards, ante, cap, extra, big, small, big_key, bet,
                  buy_rule(profile, ante, cap, chance))


def buy_rule(profile: SplitProfile, ante: int, cap: int,
             chance: npt.NDArray[np.float64]) -> BuyRule:
    """Buy when the dealer hand's buy value beats taking the ANTE, the bought card drawn from
    the cards neither the box has seen nor the dealer holds."""
    v = valuer(profile)

    def rule(dealer: I64, big_key: I64, rows: B, seen: B) -> B:
        out = np.zeros(len(rows), dtype=bool)
        idx = np.flatnonzero(rows)
        if not len(idx) or not profile.buy_game_allowed:
            return out
        k = key_classes(big_key[idx], profile.ranking)
        value = buy_values(profile.ranking, profile.qualifier, dealer=dealer[idx], k=k,
                           win=v.win_amount(k, chance[idx]),
                           lose=float(1 + profile.bet_multiple),
                           fee=float(profile.buy_game_fee), seen=seen[idx], free_second=False)
        out[idx] = value > float(profile.no_game_ante_multiplier)
        return out
    return rule
