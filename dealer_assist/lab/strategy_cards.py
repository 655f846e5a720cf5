"""Strategy cards: the computed best strategies written as rules a person can follow.

Each card is a function of the dealt cards that returns an option in the code of its game's
strategy table, applied to every class of hands (``card_table``); the Monte Carlo players play
the resulting table exactly as the computed one, so :func:`.best_mc.compare` measures what the
card gives up on the very same rounds. ``docs/rules/strategy.md`` prints the cards and the
measured costs.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from ..rules.ranking import Category
from .batch import rank_keys
from .russian_best import EXCHANGE, FOLD, SIXTH, STAND
from .suits import hand_index

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
C = Category
#: rank indices (0 = deuce ... 12 = ace)
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12


def _features(hands: I64) -> dict[str, npt.NDArray[np.int64]]:
    """Per hand (ascending cards): rank and suit per card, suit counts, rank mask."""
    ranks, suits = hands % 13, hands // 13
    suit_count = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    mask = np.zeros(len(hands), dtype=np.int64)
    for j in range(hands.shape[1]):
        mask |= np.int64(1) << ranks[:, j]
    return {"ranks": ranks, "suits": suits, "suit_count": suit_count, "mask": mask}


def _open_ended(mask: I64) -> B:
    """Four consecutive ranks from 2345 to TJQK (both ends can complete a straight)."""
    out = np.zeros(len(mask), dtype=bool)
    for low in range(9):
        run = np.int64(0b1111) << low
        out |= (mask & run) == run
    return out


def _four_to_straight(mask: I64) -> B:
    """Four ranks of one five-rank straight (open-ended or inside; the ace low or high)."""
    out = np.zeros(len(mask), dtype=bool)
    for window in [0b1000000001111] + [0b11111 << low for low in range(9)]:
        inside = mask & np.int64(window)
        out |= np.array([bin(int(v)).count("1") >= 4 for v in inside])
    return out


def _keep(positions: B) -> I64:
    """Kept-card masks (bit i = the i-th card of the ascending hand)."""
    out: I64 = (positions * (1 << np.arange(5))).sum(axis=1)
    return out


def russian_card(profile: RussianProfile, hands: I64) -> I64:
    """The Russian poker strategy card (``docs/rules/strategy.md``), first matching line wins:

    1. two pairs or four of a kind: bet;
    2. a straight, flush, full house or straight flush, four cards to a flush, or a pair with
       four cards to a straight: buy a sixth card (a second paid combination);
    3. three of a kind: keep it, exchange the other two;
    4. a pair of nines or better: bet; a pair of sixes to eights with an ace (sevens, eights:
       an ace or a king) beside it: bet; any other pair: keep it, exchange three;
    5. four to an open-ended straight (2-3-4-5 up to T-J-Q-K): buy a sixth card;
    6. Ace-King: keep the ace and the king, exchange three;
    7. ace or king high: keep it, and a ten or better of its suit; exchange the rest;
    8. queen or jack high with a ten or better of the same suit: keep those two;
    9. anything else: fold.
    """
    f = _features(hands)
    ranks, suits = f["ranks"], f["suits"]
    strength = rank_keys(hands, profile.ranking) >> 24
    s = profile.ranking.strength
    option = np.full(len(hands), -1, dtype=np.int64)

    def take(rows: B, code: I64 | int) -> None:
        free = rows & (option < 0)
        option[free] = code if isinstance(code, int) else code[free]

    take((strength == s(C.two_pairs)) | (strength == s(C.four_of_a_kind)), STAND)
    pair = strength == s(C.one_pair)
    take((strength >= s(C.straight)) | (f["suit_count"].max(axis=1) == 4)
         | (pair & _four_to_straight(f["mask"])), SIXTH)
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(13)], axis=1)
    per_card = np.take_along_axis(counts, ranks, axis=1)
    take(strength == s(C.three_of_a_kind), EXCHANGE + _keep(per_card == 3))
    pair_rank = np.argmax(counts == 2, axis=1)
    kicker = np.where(per_card == 1, ranks, -1).max(axis=1)
    strong = (pair_rank >= 7) | ((pair_rank >= 4) & (kicker == ACE)) | (
        (pair_rank >= 5) & (kicker == KING))
    take(pair & strong, STAND)
    take(pair, EXCHANGE + _keep(per_card == 2))
    take(_open_ended(f["mask"]), SIXTH)
    high = ranks.max(axis=1)
    take(strength == s(C.ace_king), EXCHANGE + _keep(ranks >= KING))
    top_suit = np.take_along_axis(suits, np.argmax(ranks, axis=1)[:, None], axis=1)
    partner = (suits == top_suit) & (ranks >= TEN) & (ranks < high[:, None])
    top = ranks == high[:, None]
    take(high >= KING, EXCHANGE + _keep(top | partner))
    take((high >= JACK) & partner.any(axis=1), EXCHANGE + _keep(top | partner))
    take(np.ones(len(hands), dtype=bool), FOLD)
    return option


def card_table(profile: RussianProfile, computed: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A strategy table playing the card (the computed table's bet values and insurance for
    the decisions after an improvement, which the card leaves to the table)."""
    best = russian_card(profile, hand_index().reps).astype(np.uint8)
    return {**computed, "best": best}
