"""Caribbean stud / Oasis played by a strategy table (:mod:`.stud_best`), in numpy batches.

Each round is 15 cards: the box's five (0..4), the dealer's five (5..9, the last one face up)
and the replacement cards in order (10..14). The dealt hand and the up card are carried into
the canonical frame to find the table's option and the cards it keeps; after a replacement the
box raises when the final hand's raise value (``R``) beats a fold, or always when the
replacement forces it. Settlement as ``rules/games/stud/caribbean.py`` (the fee is kept whatever
happens).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.games.stud import CaribbeanProfile
from ..rules.ranking import Category
from .batch import rank_keys
from .montecarlo import Played
from .russian_mc import final_hands
from .russian_play import kept_cards
from .stud_best import FOLD, REPLACE, StudStrategy, lookup
from .suits import apply, hand_index, relabel

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
CARDS = 15


def choose(profile: CaribbeanProfile, table: StudStrategy, hands: I64, up: I64,
           ) -> tuple[I64, npt.NDArray[np.bool_]]:
    """The table's option per round and the discards (in the dealt hand's order)."""
    rel = relabel(hands, up)
    option = table.best[hand_index().classes(hands), apply(rel, up)].astype(np.int64)
    discard = np.zeros(hands.shape, dtype=bool)
    rows = np.flatnonzero(option >= REPLACE)
    if len(rows):
        discard[rows] = ~kept_cards(hands[rows], option[rows] - REPLACE, up[rows])
    return option, discard


def decide(profile: CaribbeanProfile, table: StudStrategy, cards: I64,
           ) -> tuple[npt.NDArray[np.bool_], I64, npt.NDArray[np.bool_], F64]:
    """Per round: the discards, the final hand, whether the box raises, the fee in ANTEs."""
    hand, up = cards[:, :5], cards[:, 9]
    option, discard = choose(profile, table, hand, up)
    replaced = discard.sum(axis=1)
    kind = np.where(replaced > 0, 1, 0).astype(np.int8)
    five, _ = final_hands(hand, kind, discard, cards[:, 10:15])
    forced = (profile.forced_raise_replacing > 0) & (replaced >= profile.forced_raise_replacing)
    raised = option != FOLD
    rows = np.flatnonzero(raised & (replaced > 0) & ~forced)
    if len(rows):
        raised[rows] = lookup(table.r_table, np.sort(five[rows], axis=1), up[rows]) > -1.0
    fees = np.array([profile.replace_fees.get(n, 0) for n in range(6)], dtype=np.float64)
    return discard, five, raised, fees[replaced]


def play(profile: CaribbeanProfile, table: StudStrategy, cards: I64, ante: int,
         cap: int) -> Played:
    _, five, raised, fee = decide(profile, table, cards)
    return settle(profile, five, cards[:, 5:10], raised, fee, cap / ante)


def settle(profile: CaribbeanProfile, five: I64, dealer: I64, raised: npt.NDArray[np.bool_],
           fee: F64, cap_antes: float) -> Played:
    """Net per ANTE of each round (``montecarlo._play_batch``'s settlement)."""
    ranking = profile.ranking
    pk, dk = rank_keys(five, ranking), rank_keys(dealer, ranking)
    qualifies = (dk >> 24) >= ranking.strength(profile.qualifier)
    mult = np.array([profile.multiplier(c) for c in ranking.order], dtype=np.float64)
    raw = (1.0 if profile.ante_paid_on_win else 0.0) + profile.bet_multiple * mult[pk >> 24]
    no_game = min(float(profile.no_game_ante_multiplier), cap_antes)
    played = np.where(~qualifies, no_game,
                      np.where(pk > dk, np.minimum(raw, cap_antes),
                               np.where(pk == dk, 0.0, -float(1 + profile.bet_multiple))))
    net = np.where(raised, played, -1.0) - fee
    capped = raised & qualifies & (pk > dk) & (raw > cap_antes)
    wagered = 1 + profile.bet_multiple * raised + fee
    return Played(net, wagered, pk, qualifies, raised, capped)


__all__ = ["CARDS", "Category", "choose", "decide", "play", "settle"]
