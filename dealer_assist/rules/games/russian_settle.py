"""Russian poker settlement: a pure function from a complete round state to a frozen record.

Every wager of every box gets a stake, an outcome, a signed net (player's view) and a one-line
reason. The maximum payout caps the combination payout plus the insurance win of one box (the
insurance, won first, keeps priority); the bonus win is capped separately.
"""

from __future__ import annotations

from ..combinations import Combination, paid_combinations
from ..errors import IllegalActionError, RulesError
from ..evaluator import HandValue, evaluate
from ..ranking import Category
from ..settlement import BoxSettlement, DealerResult, PaidCombination, Settlement, WagerResult
from . import common
from .russian_round import RoundState, dealer_hand
from .state import BUY_GAME, TAKE_ANTE, BoxState

WIN, LOSE, STAY = "win", "lose", "stay"


def verify_settle(state: RoundState) -> None:
    """The round is complete: dealer open, every no-game choice made, the bought game drawn."""
    if state.voided:
        raise IllegalActionError(f"the round was redealt ({state.voided}): nothing is paid and "
                                 "the antes stay in play")
    if not state.revealed:
        raise IllegalActionError("the dealer has not opened his cards yet")
    if state.profile.qualifies(dealer_hand(state).category):
        _check_hands(state)
        return
    for b in state.boxes:
        if b.betting and b.no_game is None:
            raise IllegalActionError(f"box {b.box} has not chosen between the ANTE and buying a "
                                     "game", field="on_no_game", value=b.box)
    if any(b.no_game == BUY_GAME for b in state.boxes) and not state.draw:
        raise IllegalActionError("a game was bought but the dealer has not drawn", field="draw")
    _check_hands(state)


def _check_hands(state: RoundState) -> None:
    for i, b in enumerate(state.boxes):
        if missing_hand(state, b):
            raise IllegalActionError(f"box {b.box} has not shown its hand",
                                     field=f"boxes[{i}].cards", value=b.box)


def missing_hand(state: RoundState, b: BoxState) -> bool:
    """Whether box ``b``'s hand decides a payout and is not known yet (it must be shown): still
    in against a dealer with a game (the first or the bought one), or holding a bonus bet on
    its first five cards. A fold, an ANTE taken on "no game", a bought game that found none
    need no hand; an improved box has lost its bonus."""
    if b.folded or b.hand_known or not state.revealed:
        return False
    if b.bonus and b.improvement is None:
        return True
    if state.profile.qualifies(dealer_hand(state).category):
        return True
    if b.no_game != BUY_GAME or not state.draw:
        return False
    p = state.profile
    try:
        return common.buy_game(state.dealer, state.draw, p.ranking, p.qualifier,
                               free_second_replacement=p.free_second_replacement).qualified
    except RulesError:
        return False


def can_settle(state: RoundState) -> bool:
    try:
        verify_settle(state)
    except RulesError:
        return False
    return True


def settle(state: RoundState) -> Settlement:
    """The settlement of a complete round (see :func:`verify_settle`)."""
    verify_settle(state)
    p = state.profile
    hand = dealer_hand(state)
    qualified = p.qualifies(hand.category)
    bought = None
    if not qualified and state.draw:
        bought = common.buy_game(state.dealer, state.draw, p.ranking, p.qualifier,
                                 free_second_replacement=p.free_second_replacement)
    dealer = DealerResult(state.dealer, hand, qualified)
    if bought is not None:
        dealer = DealerResult(state.dealer, hand, qualified, bought=True,
                              replaced=bought.replaced, drawn=bought.drawn,
                              new_cards=bought.cards, new_hand=bought.hand,
                              new_qualified=bought.qualified)
    boxes = tuple(settle_box(state, b, dealer) for b in state.boxes)
    return Settlement("russian", p.name, dealer, boxes)


def _vs(box: HandValue, dealer: HandValue) -> str:
    return WIN if box > dealer else LOSE if box < dealer else STAY


def _describe(combos: tuple[Combination, ...], mult: dict[Category, int]) -> str:
    if len(combos) == 1:
        return combos[0].category.label.lower()
    return " + ".join(f"{c.category.label.lower()} {mult[c.category]}" for c in combos)


def _ante_and_bet(state: RoundState, b: BoxState, hand: HandValue | None, dealer: DealerResult,
                  ) -> tuple[WagerResult, int, str, tuple[Combination, ...]]:
    """The ANTE's result and the BET's raw amount (+win / -loss / 0), reason, paid combinations."""
    p, ante, bet = state.profile, b.ante, b.bet
    if dealer.qualified or (b.no_game == BUY_GAME and dealer.new_qualified):
        against = dealer.hand if dealer.qualified else dealer.new_hand
        assert against is not None and hand is not None
        result = _vs(hand, against)
        if result == LOSE:
            return (WagerResult.lost("ante", ante, f"ANTE {ante} lost to the dealer's "
                                     f"{against.label}"), -bet, f"BET {bet} lost", ())
        if result == STAY:
            return (WagerResult.pushed("ante", ante, f"stay (equal hands): ANTE {ante} "
                                       "returned"), 0, f"stay: BET {bet} returned", ())
        combos = paid_combinations(b.hand_cards, p.multiplier, p.ranking, p.max_combinations)
        mult = {c.category: p.multiplier(c.category) for c in combos}
        total = sum(p.multiplier(c.category) for c in combos)
        why = f"BET {bet} x {total} ({_describe(combos, mult)}) = {bet * total}"
        if p.ante_paid_on_win:
            return (WagerResult.won("ante", ante, ante, f"ANTE {ante} paid 1:1"), bet * total,
                    why, combos)
        return (WagerResult.pushed("ante", ante, f"ANTE {ante} returned (not paid on a win)"),
                bet * total, why, combos)
    if b.no_game == TAKE_ANTE:
        win = ante * p.no_game_ante_multiplier
        return (WagerResult.won("ante", ante, win, f"dealer has no game: ANTE {ante} paid "
                                f"{p.no_game_ante_multiplier}:1 = {win}"), 0,
                f"dealer has no game: BET {bet} returned", ())
    return (WagerResult.pushed("ante", ante, f"bought game, dealer still has no game: ANTE "
                               f"{ante} returned"), 0,
            f"bought game, dealer still has no game: BET {bet} returned", ())


def _insurance(state: RoundState, b: BoxState, hand: HandValue | None,
               dealer: DealerResult) -> tuple[int, str]:
    """Raw insurance amount and reason: wins on "no game" at the first reveal."""
    amount = b.insurance
    if not amount:
        return 0, ""
    if not dealer.qualified:
        win = amount * state.profile.insurance_multiplier
        return win, (f"dealer has no game: insurance {amount} paid "
                     f"{state.profile.insurance_multiplier}:1 = {win}")
    assert hand is not None  # an insured box showed its hand
    if dealer.hand >= hand:
        return 0, f"dealer's hand is not lower than the box's: insurance {amount} returned"
    return -amount, f"dealer has a game: insurance {amount} lost"


def _money(name: str, stake: int, amount: int, why: str) -> WagerResult:
    if amount < 0:
        return WagerResult.lost(name, stake, why)
    return WagerResult.won(name, stake, amount, why)


def _capped_note(raw: int, paid: int, cap: int, what: str = "") -> str:
    return f", capped at {paid} (maximum payout {cap}{what})" if paid < raw else ""


def _bonus(state: RoundState, b: BoxState) -> tuple[WagerResult, bool]:
    """The bonus side bet: first five cards only; lost on an improvement or a fold; capped."""
    p, stake = state.profile, b.bonus
    if not stake:
        return WagerResult.pushed("bonus", 0, ""), False
    if b.folded:
        return WagerResult.lost("bonus", stake, f"BONUS {stake} lost: the box folded"), False
    if b.improvement is not None:
        what = "exchanged cards" if b.improvement_kind == "exchange" else "bought a sixth card"
        return WagerResult.lost("bonus", stake, f"BONUS {stake} lost: the box {what}"), False
    hand = evaluate(b.first_five, p.ranking)
    mult = p.bonus_table.get(hand.category, 0)
    if hand.category == Category.two_pairs and \
            hand.significant[0].rank < p.bonus_two_pairs_min_rank:
        mult = 0
    if not mult:
        return WagerResult.lost("bonus", stake, f"BONUS {stake} lost: {hand.label} is not a "
                                "bonus combination"), False
    paid, capped = common.cap_amount(stake * mult, state.table.max_payout)
    why = (f"BONUS {stake} x {mult} ({hand.category.label.lower()}) = {stake * mult}"
           + _capped_note(stake * mult, paid, state.table.max_payout))
    return WagerResult.won("bonus", stake, paid, why), capped


def _fees(state: RoundState, b: BoxState) -> tuple[WagerResult, WagerResult, tuple[str, ...]]:
    p = state.profile
    fee = p.improvement_fee * b.ante if b.improvement else 0
    if b.improvement_kind == "exchange":
        n = b.exchange_count
        note = (f"exchanged {' '.join(c.code for c in b.discarded)} for "
                f"{' '.join(c.code for c in b.drawn)}" if b.discarded
                else f"exchanged {n} card{'s' if n > 1 else ''}")
        improvement = WagerResult.lost("improvement_fee", fee, f"exchange of {n} card"
                                       f"{'s' if n > 1 else ''}: fee {fee} lost")
    elif b.improvement_kind == "sixth_card":
        note = f"bought a sixth card {b.sixth.code}" if b.sixth else "bought a sixth card"
        improvement = WagerResult.lost("improvement_fee", fee, f"sixth card: fee {fee} lost")
    else:
        note, improvement = "", WagerResult.pushed("improvement_fee", 0, "")
    buy_fee = p.buy_game_fee * b.ante if b.no_game == BUY_GAME and b.betting else 0
    buy = (WagerResult.lost("buy_game_fee", buy_fee, f"game bought for the dealer: fee "
                            f"{buy_fee} lost") if buy_fee
           else WagerResult.pushed("buy_game_fee", 0, ""))
    return improvement, buy, (note,) if note else ()


def settle_box(state: RoundState, b: BoxState, dealer: DealerResult) -> BoxSettlement:
    """Every wager of one box against the dealer's result."""
    p, cap = state.profile, state.table.max_payout
    hand = evaluate(b.hand_cards, p.ranking) if b.hand_known else None
    improvement, buy, notes = _fees(state, b)
    bonus, bonus_capped = _bonus(state, b)
    if b.folded:
        wagers = {"ante": WagerResult.lost("ante", b.ante, f"fold: ANTE {b.ante} lost"),
                  "bet": WagerResult.pushed("bet", 0, ""), "improvement_fee": improvement,
                  "buy_game_fee": buy, "insurance": WagerResult.pushed("insurance", 0, ""),
                  "bonus": bonus}
        return BoxSettlement(b.box, b.seat, wagers, capped=bonus_capped, hand=hand, folded=True,
                             notes=notes)
    ante, bet_raw, bet_why, combos = _ante_and_bet(state, b, hand, dealer)
    ins_raw, ins_why = _insurance(state, b, hand, dealer)
    (ins_paid, bet_paid), capped = common.apply_cap((ins_raw, bet_raw), cap)
    ante_note = "; ANTE returned" if bet_raw > 0 and not p.ante_paid_on_win else ""
    both = " for combination plus insurance"
    bet = _money("bet", b.bet, bet_paid, bet_why + _capped_note(bet_raw, bet_paid, cap, both)
                 + ante_note)
    insurance = _money("insurance", b.insurance, ins_paid,
                       ins_why + _capped_note(ins_raw, ins_paid, cap, both))
    wagers = {"ante": ante, "bet": bet, "improvement_fee": improvement, "buy_game_fee": buy,
              "insurance": insurance, "bonus": bonus}
    paid = tuple(PaidCombination(c.category, c.cards, p.multiplier(c.category)) for c in combos)
    return BoxSettlement(b.box, b.seat, wagers, paid, capped or bonus_capped, hand, notes=notes)
