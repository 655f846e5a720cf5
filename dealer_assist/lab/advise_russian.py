"""The decision advisor for Russian poker: every option of a dealt hand, valued in ANTEs.

Options: fold; bet as dealt (the best insurance included, and the bonus stake's result when one
was placed: an improvement or a fold loses it); buy a sixth card; exchange any set of cards
(the profile's 1..``max_exchange``). After an improvement the box bets or folds, whichever is
worth more for its final hand (and insures when that pays).

How each value is found:

* fold, bet as dealt, the sixth card and every one-card exchange are **exact**: every draw is
  enumerated and every final hand valued against the dealer hands that avoid every card the
  box has seen (:class:`.russian_value.RussianValuer`, inclusion-exclusion over those cards);
* exchanges of two to five cards (up to 1.5 million draws) use a **first-order model**: the
  final hand ``F`` (kept cards ``H``, discards ``D``) is worth ``V(F; F) + V(F; hand) - V(F; H)``,
  ``V(F; A)`` being its value against the dealer hands that avoid the cards ``A``: the first
  term counts ``F``'s own cards out of the dealer's hand, the difference the discards'. Its
  error, measured against exact values of sampled draws (``precise=n`` does that here, with the
  standard error), stays within a few thousandths of an ANTE (``docs/rules/strategy.md``).

The buy-game option inside every bet value counts the dealer's draw without the box's cards
removed (:mod:`.buy_value`); the "buy or take the ANTE" choice for a known dealer hand
(:func:`no_game_options`) counts the real remaining cards.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from .batch import all_five_card_hands, combination_array, rank_keys
from .buy_value import key_classes
from .buygame import buy_game
from .cache import per_version
from .counting import BINOM, colex
from .options import Option
from .russian_best import valuer
from .russian_value import RussianValuer
from .suits import hand_index

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
_CONTEXTS: dict[tuple[str, int, int], RussianContext] = {}


class RussianHands:
    """Per profile version (any ANTE): every five-card hand's class and pay-table total by
    colex rank, and the distinct (class, total) pairs (seconds to build:
    built once per process, not once per ANTE)."""

    def __init__(self, profile: RussianProfile) -> None:
        hands = all_five_card_hands()
        order = colex(hands)
        self.k_by_colex = np.empty(len(hands), dtype=np.int16)
        self.k_by_colex[order] = key_classes(rank_keys(hands, profile.ranking), profile.ranking)
        self.t_by_colex = np.empty(len(hands), dtype=np.int16)
        self.t_by_colex[order] = valuer(profile).pay.totals(hands)
        #: the distinct (class, pay total) pairs of five-card hands, and each hand's pair
        codes = self.k_by_colex.astype(np.int64) * 4096 + self.t_by_colex
        pairs, inverse = np.unique(codes, return_inverse=True)
        self.pair_k, self.pair_t = pairs // 4096, pairs % 4096
        self.pair_by_colex = inverse.reshape(-1).astype(np.int32)


_HANDS: dict[tuple[str], RussianHands] = {}


def _hands(profile: RussianProfile) -> RussianHands:
    return per_version(_HANDS, RussianHands, profile)


class RussianContext:
    """Per profile version, ANTE and cap: the valuer and the model's tables by colex rank."""

    def __init__(self, profile: RussianProfile, ante: int, cap: int,
                 bet_value: F64 | None = None) -> None:
        self.profile = profile
        self.v: RussianValuer = valuer(profile, ante, cap)
        shared = _hands(profile)
        self.k_by_colex, self.t_by_colex = shared.k_by_colex, shared.t_by_colex
        self.pair_k, self.pair_t, self.pair_by_colex = shared.pair_k, shared.pair_t, \
            shared.pair_by_colex
        if bet_value is None:
            bet_value = self.v.values(hand_index().reps)
        self.v5_by_colex = bet_value.astype(np.float64)[hand_index().by_colex]

    def cumulative(self, avoid: I64) -> I64:
        """Dealer hands avoiding the cards ``avoid`` with class below c, for every c."""
        n = len(self.v.hc.class_keys) + 2
        rows = np.repeat(np.asarray(avoid, dtype=np.int64)[None, :], n, axis=0)
        out: I64 = self.v.hc.disjoint_below(rows, np.arange(n))
        return out

    def from_cumulative(self, cum: I64, avoided: int, k: I64, totals: I64) -> F64:
        below = np.stack([np.full(len(k), cum[self.v.q0]), cum[k], cum[k + 1]], axis=1)
        return self.v.from_counts(k, totals, below, float(comb(52 - avoided, 5)))[0]

    def pair_values(self, avoid: I64) -> F64:
        """The value of every (class, pay total) pair against the dealer hands avoiding
        ``avoid``: ``V(F; avoid)`` of any five-card ``F``, looked up by its pair."""
        return self.from_cumulative(self.cumulative(avoid), len(avoid), self.pair_k,
                                    self.pair_t)


def context(profile: RussianProfile, ante: int, cap: int,
            bet_value: F64 | None = None) -> RussianContext:
    return per_version(_CONTEXTS, lambda p, a, c: RussianContext(p, a, c, bet_value), profile,
                       ante, cap)


def _draws(unseen: I64, kept: I64, k: int) -> I64:
    """Every final hand (sorted rows) keeping ``kept`` and drawing ``k`` of ``unseen``."""
    x = unseen[combination_array(len(unseen), k).astype(np.int64)]
    rows = np.hstack([np.repeat(kept[None, :], len(x), axis=0), x]) if len(kept) else x
    return np.sort(rows, axis=1)


def _draw_colex(unseen: I64, kept: I64, k: int) -> I64:
    """The colex rank of every final hand keeping ``kept`` and drawing ``k`` of ``unseen``,
    without building and sorting the hands: a card's term depends on its rank in the final
    hand, its rank among its own kind plus the cards of the other kind below it."""
    x = unseen[combination_array(len(unseen), k).astype(np.int64)]  # rows ascending
    out = np.zeros(len(x), dtype=np.int64)
    for t in range(k):
        below = np.searchsorted(kept, x[:, t]) if len(kept) else 0
        out += BINOM[x[:, t], t + 1 + below]
    for i, card in enumerate(kept):
        out += BINOM[card, i + 1 + (x < card).sum(axis=1)]
    return out


def _exact_mean(ctx: RussianContext, finals: I64, seen: I64) -> float:
    return float(np.maximum(-1.0, ctx.v.values(finals, seen)).mean())


def _model_mean(ctx: RussianContext, c: I64, kept: I64, with_hand: F64) -> float:
    """Mean over the draws (colex ranks ``c``) of max(-1, first-order model value)."""
    pair = ctx.pair_by_colex[c]
    value = ctx.v5_by_colex[c] + with_hand[pair] - ctx.pair_values(kept)[pair]
    return float(np.maximum(-1.0, value).mean())


def _residual(ctx: RussianContext, finals: I64, kept: I64, base: I64, with_hand: F64,
              n: int, rng: np.random.Generator) -> tuple[float, float]:
    """Mean and standard error of (exact - model) over ``n`` sampled draws."""
    pick = rng.choice(len(finals), size=min(n, len(finals)), replace=False)
    f = finals[pick]
    drawn = np.array([np.setdiff1d(row, kept) for row in f]).reshape(len(f), -1)
    seen = np.sort(np.hstack([np.repeat(base[None, :], len(f), axis=0), drawn]), axis=1)
    exact = np.maximum(-1.0, ctx.v.values(f, seen))
    c = colex(f)
    pair = ctx.pair_by_colex[c]
    model = ctx.v5_by_colex[c] + with_hand[pair] - ctx.pair_values(kept)[pair]
    diff = exact - np.maximum(-1.0, model)
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff)))


def bonus_result(profile: RussianProfile, hand: I64, stake: int, cap: int) -> int:
    """The bonus side bet's net (chips) if the box keeps its five cards and bets (RULES.md:
    judged on the first five cards, lost on an improvement or a fold, capped)."""
    if not stake:
        return 0
    key = int(rank_keys(np.sort(hand)[None, :], profile.ranking)[0])
    category = profile.ranking.order[key >> 24]
    mult = profile.bonus_table.get(category, 0)
    if category.value == "two_pairs":
        ranks = np.bincount(hand % 13, minlength=13)
        if int(np.flatnonzero(ranks == 2).max()) + 2 < profile.bonus_two_pairs_min_rank:
            mult = 0
    return min(stake * mult, cap) if mult else -stake


def deal_options(profile: RussianProfile, hand: I64, *, dead: I64 | None = None,
                 ante: int | None = None, cap: int | None = None, bonus: int = 0,
                 precise: int = 0, seed: int = 1,
                 bet_value: F64 | None = None) -> list[Option]:
    """Every option of a dealt hand (ascending card indices). ``dead``: other cards the box
    knows are not in the deck; ``bonus``: the bonus stake in chips (won or lost by keeping
    the five cards, lost by any improvement or a fold); ``precise``: sampled draws per
    modelled exchange to measure and correct the model's error."""
    a = profile.min_ante if ante is None else ante
    limit = profile.max_payout if cap is None else cap
    ctx = context(profile, a, limit, bet_value)
    dead = np.zeros(0, dtype=np.int64) if dead is None else np.asarray(dead, dtype=np.int64)
    base = np.sort(np.concatenate([hand, dead]))
    unseen = np.setdiff1d(np.arange(52), base)
    fee = float(profile.improvement_fee)
    lost_bonus = -bonus / a  # any improvement or a fold loses the bonus stake
    stake_back = bonus_result(profile, hand, bonus, limit) / a
    stand = float(ctx.v.values(hand[None, :], base[None, :])[0])
    out = [Option("fold", (), -1.0 + lost_bonus, 0.0, "exact"),
           Option("bet", (), stand + stake_back, 0.0, "exact")]
    if profile.sixth_card_allowed:
        six = np.sort(np.hstack([np.repeat(hand[None, :], len(unseen), axis=0),
                                 unseen[:, None]]), axis=1)
        seen = np.sort(np.hstack([np.repeat(base[None, :], len(unseen), axis=0),
                                  unseen[:, None]]), axis=1)
        out.append(Option("sixth_card", (), _exact_mean(ctx, six, seen) - fee + lost_bonus,
                          0.0, "exact"))
    with_hand = ctx.pair_values(base)
    rng = np.random.default_rng(seed)
    for k in range(1, min(profile.max_exchange, 5) + 1):
        for discard in combinations(range(5), k):
            kept = np.delete(hand, list(discard))
            if k == 1:
                finals = _draws(unseen, kept, k)
                seen = np.sort(np.hstack([np.repeat(base[None, :], len(finals), axis=0),
                                          unseen[:, None]]), axis=1)
                value, se, how = _exact_mean(ctx, finals, seen), 0.0, "exact"
            else:
                ranks = _draw_colex(unseen, kept, k)
                value, se, how = _model_mean(ctx, ranks, kept, with_hand), 0.0, "model"
                if precise:
                    shift, se = _residual(ctx, _draws(unseen, kept, k), kept, base, with_hand,
                                          precise, rng)
                    value, how = value + shift, "model+monte-carlo"
            out.append(Option("exchange", tuple(int(c) for c in hand[list(discard)]),
                              value - fee + lost_bonus, se, how))
    return sorted(out, key=lambda o: -o.ev)


def no_game_options(profile: RussianProfile, final: I64, dealer: I64, seen: I64, *,
                    ante: int | None = None, cap: int | None = None) -> list[Option]:
    """Take the ANTE or buy a game, for a betting box whose final hand (5 or 6 cards) faces
    the dealer's five cards without a game; ``seen``: every card the box has seen (its own,
    discards included, and the dealer's). Exact over the next card (and the free second)."""
    a = profile.min_ante if ante is None else ante
    v = valuer(profile, a, profile.max_payout if cap is None else cap)
    k = rank_keys(np.sort(final)[None, :], profile.ranking)[0]
    win = float(v.win_amounts(v.pay.totals(np.sort(final)[None, :]))[0])
    deck = np.setdiff1d(np.arange(52), np.concatenate([seen, dealer]))
    take = float(profile.no_game_ante_multiplier)
    first = np.stack([deck, deck], axis=1)
    _, keys, ok = buy_game(np.repeat(dealer[None, :], len(deck), axis=0), first,
                           profile.ranking, profile.qualifier, free_second_replacement=False)
    result = np.where(ok, np.where(k > keys, win, np.where(k < keys, -v.lose, 0.0)), 0.0)
    square = result ** 2
    if profile.free_second_replacement:
        top = int(np.max(dealer % 13))
        again = (deck % 13 == top) & ~ok
        # a same-rank card without a game is replaced by one of the other cards of the deck
        # (its own result is 0, so the others' sums are the totals)
        result = np.where(again, result.sum() / (len(deck) - 1), result)
        square = np.where(again, square.sum() / (len(deck) - 1), square)
    buy = float(result.mean()) - float(profile.buy_game_fee)
    spread = float(square.mean() - result.mean() ** 2)  # the fee is not random
    return sorted([Option("take_ante", (), take, 0.0, "exact", 0.0),
                   Option("buy_game", (), buy, 0.0, "exact", spread)], key=lambda o: -o.ev)
