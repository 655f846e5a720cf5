"""Russian poker in numpy batches: the basic strategy of ``docs/rules/strategy.md`` and the
settlement of ``rules/games/russian/settle.py``, for one box against the dealer.

Each round is 17 cards of one shuffled deck: the box's five (columns 0..4), the dealer's five
(5..9), the box's replacement cards in order (10..14: the exchange draws, or the sixth card in
column 10) and the dealer's draw for a bought game (15, and 16 for the free second
replacement). Amounts are integers in chips for a box of ANTE ``ante`` (the engine's money), so
a test can compare each round with the pure engine wager by wager
(``tests/lab/test_russian_mc.py``). The strategy never insures and places no bonus, so those
two wagers are always 0 here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rules.games.russian import RussianProfile
from ..rules.ranking import Category
from .batch import rank_keys
from .buygame import buy_game
from .russian_pay import pay_tables

I64 = npt.NDArray[np.int64]
B = npt.NDArray[np.bool_]
C = Category
NONE, EXCHANGE, SIXTH = 0, 1, 2
CARDS = 17
#: rank indices (0 = deuce ... 12 = ace)
JACK, EIGHT, QUEEN = 9, 6, 10
#: rank masks of the five-rank straights (ace low first) and of the open-ended four-rank runs
#: (2345 .. TJQK: both ends can complete them; A234 and JQKA cannot)
STRAIGHT_MASKS = np.array([0b1000000001111] + [0b11111 << r for r in range(9)], dtype=np.int64)
OPEN_RUNS = np.array([0b1111 << r for r in range(9)], dtype=np.int64)


@dataclass(frozen=True)
class RussianBatch:
    """Per round: the strategy's choices and every wager's net in chips (player's view)."""

    improvement: npt.NDArray[np.int8]  # NONE, EXCHANGE or SIXTH
    discard: B  # (n, 5): the dealt cards exchanged
    bet: B
    buy: B  # bought a game (only when the box bet and the dealer had no game)
    final_key: I64  # the box's final hand (best five of five or six)
    dealer_qualified: B  # at the first reveal
    ante_net: I64
    bet_net: I64
    improvement_net: I64
    buy_net: I64
    capped: B
    insurance_net: I64 | None = None
    #: the insurance stakes (chips; 0: not insured), when the strategy insures
    insurance_stake: I64 | None = None

    @property
    def net(self) -> I64:
        out = self.ante_net + self.bet_net + self.improvement_net + self.buy_net
        return out if self.insurance_net is None else out + self.insurance_net


def _strength(profile: RussianProfile, category: Category) -> int:
    return profile.ranking.strength(category)


def _columns_sum(x: I64) -> I64:
    """Row sums of a narrow array, column by column (faster than a reduce over axis 1)."""
    out = x[:, 0].copy()
    for c in range(1, x.shape[1]):
        out += x[:, c]
    return out


def _shape(hand: I64) -> tuple[I64, I64, I64]:
    """Per row: the rank of a pair (the highest pair; -1 if none), the mask of the ranks
    present, and per card the number of cards of its suit. Packed counters (3 bits per rank,
    4 bits per suit) keep this to a few passes over the columns."""
    ranks, suits = hand % 13, hand // 13
    rank_acc = _columns_sum(np.int64(1) << (3 * ranks))
    suit_acc = _columns_sum(np.int64(1) << (4 * suits))
    pair_rank = np.full(len(hand), -1, dtype=np.int64)
    mask = np.zeros(len(hand), dtype=np.int64)
    for r in range(13):
        count = rank_acc >> (3 * r) & 7
        pair_rank[count == 2] = r
        mask |= (count > 0).astype(np.int64) << r
    own_suit_count = suit_acc[:, None] >> (4 * suits) & 15
    return pair_rank, mask, own_suit_count


def decide_improvement(profile: RussianProfile, hand: I64) -> tuple[npt.NDArray[np.int8], B]:
    """Rule 1 of the Russian basic strategy (``strategy.md``), first matching line wins:
    which rows exchange (and which of their cards) or buy a sixth card."""
    n = len(hand)
    strength = rank_keys(hand, profile.ranking) >> 24
    pair_rank, mask, own_suit_count = _shape(hand)
    ranks = hand % 13
    four_flush = own_suit_count.max(axis=1) == 4
    straight_draw = ((mask[:, None] & STRAIGHT_MASKS) == mask[:, None]).any(axis=1)
    run = (mask[:, None] & OPEN_RUNS) == OPEN_RUNS
    open_ended = run.any(axis=1)
    run_mask = np.where(run, OPEN_RUNS, 0).max(axis=1)
    kind = np.full(n, NONE, dtype=np.int8)
    discard = np.zeros(hand.shape, dtype=bool)
    undecided = strength < _strength(profile, C.two_pairs)  # two pairs or better: keep
    pair = undecided & (strength == _strength(profile, C.one_pair))
    sixth = pair & (pair_rank >= JACK) & (four_flush | straight_draw)
    if profile.sixth_card_allowed:
        kind[sixth] = SIXTH
    else:  # a house without the sixth card: such a pair keeps (it is a jack or better)
        sixth[:] = False
    small_pair = pair & ~sixth & (pair_rank < EIGHT)
    discard[small_pair] = ranks[small_pair] != pair_rank[small_pair, None]
    undecided &= ~pair
    flush_draw = undecided & four_flush
    discard[flush_draw] = own_suit_count[flush_draw] == 1
    run_draw = undecided & ~four_flush & open_ended
    discard[run_draw] = ((np.int64(1) << ranks[run_draw]) & run_mask[run_draw, None]) == 0
    undecided &= ~(flush_draw | run_draw)
    rest = undecided & (strength < _strength(profile, C.ace_king))
    discard[rest] = ranks[rest] < QUEEN
    kind[discard.any(axis=1)] = EXCHANGE
    return kind, discard


def final_hands(hand: I64, kind: npt.NDArray[np.int8], discard: B,
                extra: I64) -> tuple[I64, I64]:
    """The five-card hands after the exchanges and the six-card hands of the sixth-card rows
    (row indices in ``kind == SIXTH`` order); ``extra`` holds each round's replacement cards."""
    order = np.cumsum(discard, axis=1) - 1
    drawn = np.take_along_axis(extra, np.clip(order, 0, 4), axis=1)
    five = np.where(discard, drawn, hand)
    sixth_rows = np.flatnonzero(kind == SIXTH)
    six = np.hstack([hand[sixth_rows], extra[sixth_rows, :1]])
    return five, six


#: decides, once the dealer's five cards are shown without a game, which betting rows buy
#: one: (dealer cards, dealer keys, final keys, pay totals, betting rows without a game, the
#: (n, 52) mask of the cards each box has seen: its dealt and drawn cards) -> bool
BuyRule = Callable[[I64, I64, I64, I64, B, B], B]


def basic_buy(profile: RussianProfile) -> BuyRule:
    """Rule 3 of the basic strategy: buy with two pairs or better."""
    least = _strength(profile, C.two_pairs)

    def rule(dealer: I64, dealer_key: I64, final: I64, totals: I64, rows: B, seen: B) -> B:
        out: B = rows & ((final >> 24) >= least)
        return out
    return rule


def play(profile: RussianProfile, cards: I64, ante: int, cap: int) -> RussianBatch:
    """Play and settle ``cards`` (rows of 17 card indices) under the basic strategy for a box
    of ANTE ``ante`` at a table whose maximum payout is ``cap`` chips."""
    if profile.max_exchange < 5:
        raise NotImplementedError("the basic strategy exchanges up to five cards; a house "
                                  f"allowing {profile.max_exchange} is not simulated")
    kind, discard = decide_improvement(profile, cards[:, :5])
    five, six = final_hands(cards[:, :5], kind, discard, cards[:, 10:15])
    final, totals = final_keys(profile, kind, five, six)
    bet = (final >> 24) >= _strength(profile, C.ace_king)  # rule 1: every line raises with AK+
    return settle(profile, cards, ante, cap, Choices(kind, discard, bet,
                                                     np.zeros(len(cards), dtype=np.int64)),
                  final, totals, basic_buy(profile))


@dataclass(frozen=True)
class Choices:
    """A strategy's choices before the dealer opens: improvement, discards, bet, insurance
    stake in chips (0: none)."""

    kind: npt.NDArray[np.int8]
    discard: B
    bet: B
    insurance: I64


def final_keys(profile: RussianProfile, kind: npt.NDArray[np.int8], five: I64,
               six: I64) -> tuple[I64, I64]:
    """The final hands' keys and pay-table totals (six cards for the sixth-card rows)."""
    ranking = profile.ranking
    sixth_rows = np.flatnonzero(kind == SIXTH)
    final = rank_keys(five, ranking)
    pay = pay_tables(profile)
    totals = pay.totals(five)
    if len(sixth_rows):
        final[sixth_rows] = rank_keys(six, ranking)
        totals[sixth_rows] = pay.totals(six)
    return final, totals


def seen_cards(cards: I64, choices: Choices) -> B:
    """(n, 52): the cards each box has seen, its dealt five and the cards it drew."""
    n = len(cards)
    rows = np.arange(n)
    out = np.zeros((n, 52), dtype=bool)
    out[rows[:, None], cards[:, :5]] = True
    drawn = np.where(choices.kind == EXCHANGE, choices.discard.sum(axis=1),
                     (choices.kind == SIXTH).astype(np.int64))
    for j in range(5):
        use = np.flatnonzero(drawn > j)
        out[use, cards[use, 10 + j]] = True
    return out


def settle(profile: RussianProfile, cards: I64, ante: int, cap: int, choices: Choices,
           final: I64, totals: I64, buy_rule: BuyRule) -> RussianBatch:
    """Settle the rounds ``cards`` (17 columns) as ``rules/games/russian/settle.py`` does, given
    the strategy's choices, the final hands' keys and totals and its buy-game rule."""
    ranking = profile.ranking
    dealer, draw = cards[:, 5:10], cards[:, 15:17]
    bet = choices.bet
    dealer_key = rank_keys(dealer, ranking)
    qualified = (dealer_key >> 24) >= _strength(profile, profile.qualifier)
    buy = buy_rule(dealer, dealer_key, final, totals, bet & ~qualified,
                   seen_cards(cards, choices))
    against = dealer_key.copy()
    new_qualified = np.zeros(len(cards), dtype=bool)
    rows = np.flatnonzero(buy)
    if len(rows):
        _, keys, ok = buy_game(dealer[rows], draw[rows], ranking, profile.qualifier,
                               free_second_replacement=profile.free_second_replacement)
        against[rows], new_qualified[rows] = keys, ok
    plays = bet & (qualified | new_qualified)
    win, lose = plays & (final > against), plays & (final < against)
    stake = profile.bet_multiple * ante
    raw = np.where(win, stake * totals, 0)
    insured = bet & (choices.insurance > 0)
    ins_raw = np.where(~qualified, choices.insurance * profile.insurance_multiplier,
                       np.where(dealer_key >= final, 0, -choices.insurance))
    ins_raw = np.where(insured, ins_raw, 0)
    ins_paid = np.where(ins_raw > 0, np.minimum(ins_raw, cap), ins_raw)  # won first: priority
    paid = np.minimum(raw, cap - np.maximum(ins_paid, 0))
    ante_net = np.where(~bet | lose, -ante, 0)
    ante_net = np.where(win & profile.ante_paid_on_win, ante, ante_net)
    ante_net = np.where(bet & ~qualified & ~buy, ante * profile.no_game_ante_multiplier,
                        ante_net)
    bet_net = np.where(win, paid, np.where(lose, -stake, 0))
    improvement_net = np.where(choices.kind != NONE, -profile.improvement_fee * ante, 0)
    buy_net = np.where(buy, -profile.buy_game_fee * ante, 0)
    capped = (win & (paid < raw)) | (ins_paid < ins_raw)
    return RussianBatch(choices.kind, choices.discard, bet, buy, final, qualified,
                        ante_net.astype(np.int64), bet_net.astype(np.int64),
                        improvement_net.astype(np.int64), buy_net.astype(np.int64), capped,
                        ins_paid.astype(np.int64), choices.insurance)
