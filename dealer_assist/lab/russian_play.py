"""Russian poker played by a strategy table (:mod:`.russian_best`), in numpy batches.

The table gives, per class of dealt hands, the option to take; the dealt hand is carried into
the canonical frame (:mod:`.suits`) to find which of its cards the option keeps. After the
improvement the box bets when its final hand's bet value beats a fold (-1 ANTE), insures when
the table says so, and, facing a dealer without a game, buys one when buying is worth more than
the ANTE for that very dealer hand and the cards the box has seen (:mod:`.buy_exact`). The
settlement is the one of :func:`.russian_mc.settle`, checked against the engine wager by wager
in the tests.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from . import russian_mc
from .buy_exact import buy_values
from .buy_value import key_classes
from .russian_best import EXCHANGE, FOLD, SIXTH, STAND, RussianStrategy, valuer
from .russian_mc import I64, NONE, B, Choices, RussianBatch
from .suits import apply, hand_index, relabel


def kept_cards(hands: I64, masks: I64, up: I64 | None = None) -> B:
    """(n, 5) whether each dealt card is kept, for kept-card masks of the canonical hands (the
    frame of the hand and the dealer's up card, when one is shown)."""
    canonical = apply(relabel(hands, up), hands)
    position = np.argsort(np.argsort(canonical, axis=1), axis=1)  # rank within the hand
    out: B = (masks[:, None] >> position & 1).astype(bool)
    return out


def choose(profile: RussianProfile, table: RussianStrategy, hands: I64,
           ) -> tuple[npt.NDArray[np.int8], B, B]:
    """Improvement kind, discards and whether the box folds at once, per dealt hand."""
    option = table.best[hand_index().classes(hands)].astype(np.int64)
    kind = np.full(len(hands), NONE, dtype=np.int8)
    exchange = (option >= EXCHANGE) & (option < SIXTH)
    kind[exchange] = russian_mc.EXCHANGE
    kind[option == SIXTH] = russian_mc.SIXTH
    discard = np.zeros(hands.shape, dtype=bool)
    rows = np.flatnonzero(exchange)
    discard[rows] = ~kept_cards(hands[rows], option[rows] - EXCHANGE)
    return kind, discard, option == FOLD


def play(profile: RussianProfile, table: RussianStrategy, cards: I64, ante: int,
         cap: int) -> RussianBatch:
    """Play and settle ``cards`` (rows of 17 card indices, as in :mod:`.russian_mc`)."""
    hand = cards[:, :5]
    kind, discard, folds = choose(profile, table, hand)
    five, six = russian_mc.final_hands(hand, kind, discard, cards[:, 10:15])
    final, totals = russian_mc.final_keys(profile, kind, five, six)
    index = hand_index()
    cls = index.classes(np.sort(five, axis=1))
    value, insure = table.bet_value[cls], table.insure[cls]
    sixth_rows = np.flatnonzero(kind == russian_mc.SIXTH)
    if len(sixth_rows):
        value[sixth_rows], insure[sixth_rows] = table.six(np.sort(six, axis=1))
    bet = ~folds & (value > -1.0)
    bet[(kind == NONE) & ~folds] = True  # STAND: the table chose to bet as dealt
    stake = np.minimum(profile.bet_multiple * ante * totals, cap)
    insurable = (final >> 24) >= profile.ranking.strength(profile.insurance_min_category)
    insurance = np.where(bet & insure & insurable & (stake >= profile.min_ante), stake,
                         0).astype(np.int64)
    choices = Choices(kind, discard, bet, insurance)
    return russian_mc.settle(profile, cards, ante, cap, choices, final, totals,
                             buy_rule(profile, ante, cap))


def buy_rule(profile: RussianProfile, ante: int, cap: int) -> russian_mc.BuyRule:
    """Buy when the dealer hand's buy value beats taking the ANTE, the bought card drawn from
    the cards neither the box nor the dealer holds (:func:`.buy_exact.buy_values`)."""
    v = valuer(profile, ante, cap)

    def rule(dealer: I64, dealer_key: I64, final: I64, totals: I64, rows: B, seen: B) -> B:
        out = np.zeros(len(rows), dtype=bool)
        idx = np.flatnonzero(rows)
        if not len(idx):
            return out
        k = key_classes(final[idx], profile.ranking)
        value = buy_values(profile.ranking, profile.qualifier, dealer=dealer[idx], k=k,
                           win=v.win_amounts(totals[idx]), lose=v.lose,
                           fee=float(profile.buy_game_fee), seen=seen[idx],
                           free_second=profile.free_second_replacement)
        out[idx] = value > float(profile.no_game_ante_multiplier)
        return out
    return rule


__all__ = ["STAND", "choose", "kept_cards", "play"]
