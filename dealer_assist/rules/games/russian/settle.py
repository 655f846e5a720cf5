"""Russian poker settlement: a pure function from a complete round state to a frozen record.

Every wager of every box gets a stake, an outcome, a signed net (player's view) and a one-line
reason. The maximum payout caps the combination payout plus the insurance win of one box (the
insurance, won first, keeps priority); the bonus win is capped separately.
"""

from __future__ import annotations

from ...combinations import Combination, paid_combinations
from ...errors import IllegalActionError, RulesError
from ...evaluator import HandValue, evaluate
from ...phrase import Phrase, lower
from ...ranking import Category
from ...settlement import BoxSettlement, DealerResult, PaidCombination, Settlement, WagerResult
from ..stud.dealer import buy_game
from ..stud.state import BUY_GAME, TAKE_ANTE, BoxState
from ..stud.table import apply_cap, cap_amount
from .steps import RoundState, dealer_hand

WIN, LOSE, STAY = "win", "lose", "stay"


def verify_settle(state: RoundState) -> None:
    """The round is complete: dealer open, every no-game choice made, the bought game drawn."""
    if state.voided:
        raise IllegalActionError("the round was redealt (%(voided)s): nothing is paid and "
                                 "the antes stay in play",
                                 voided=state.voided)
    if not state.revealed:
        raise IllegalActionError("the dealer has not opened his cards yet")
    if state.profile.qualifies(dealer_hand(state).category):
        _check_hands(state)
        return
    for b in state.boxes:
        if b.betting and b.no_game is None:
            raise IllegalActionError("box %(box)s has not chosen between the ANTE and "
                                     "buying a game",
                                     box=b.box, field="on_no_game", value=b.box)
    if any(b.no_game == BUY_GAME for b in state.boxes) and not state.draw:
        raise IllegalActionError("a game was bought but the dealer has not drawn", field="draw")
    _check_hands(state)


def _check_hands(state: RoundState) -> None:
    for i, b in enumerate(state.boxes):
        if missing_hand(state, b):
            raise IllegalActionError("box %(box)s has not shown its hand", box=b.box,
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
        return buy_game(state.dealer, state.draw, p.ranking, p.qualifier,
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
        bought = buy_game(state.dealer, state.draw, p.ranking, p.qualifier,
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


def _describe(combos: tuple[Combination, ...], mult: dict[Category, int]) -> Phrase:
    if len(combos) == 1:
        return Phrase("%(category)s", category=lower(combos[0].category))
    parts = [Phrase("%(category)s %(multiplier)s", category=lower(c.category),
                    multiplier=mult[c.category]) for c in combos]
    out = parts[0]
    for part in parts[1:]:
        out = Phrase("%(first)s + %(second)s", first=out, second=part)
    return out


def _ante_and_bet(state: RoundState, b: BoxState, hand: HandValue | None, dealer: DealerResult,
                  ) -> tuple[WagerResult, int, str, tuple[Combination, ...]]:
    """The ANTE's result and the BET's raw amount (+win / -loss / 0), reason, paid combinations."""
    p, ante, bet = state.profile, b.ante, b.bet
    if dealer.qualified or (b.no_game == BUY_GAME and dealer.new_qualified):
        against = dealer.hand if dealer.qualified else dealer.new_hand
        assert against is not None and hand is not None
        result = _vs(hand, against)
        if result == LOSE:
            lost = Phrase("ANTE %(ante)s lost to the dealer's %(hand)s", ante=ante, hand=against)
            return (WagerResult.lost("ante", ante, lost), -bet,
                    Phrase("BET %(bet)s lost", bet=bet), ())
        if result == STAY:
            stay = Phrase("stay (equal hands): ANTE %(ante)s returned", ante=ante)
            return (WagerResult.pushed("ante", ante, stay), 0,
                    Phrase("stay: BET %(bet)s returned", bet=bet), ())
        combos = paid_combinations(b.hand_cards, p.multiplier, p.ranking, p.max_combinations)
        mult = {c.category: p.multiplier(c.category) for c in combos}
        total = sum(p.multiplier(c.category) for c in combos)
        why = Phrase("BET %(bet)s x %(total)s (%(combinations)s) = %(amount)s", bet=bet,
                     total=total, combinations=_describe(combos, mult), amount=bet * total)
        if p.ante_paid_on_win:
            paid = Phrase("ANTE %(ante)s paid 1:1", ante=ante)
            return WagerResult.won("ante", ante, ante, paid), bet * total, why, combos
        kept = Phrase("ANTE %(ante)s returned (not paid on a win)", ante=ante)
        return WagerResult.pushed("ante", ante, kept), bet * total, why, combos
    if b.no_game == TAKE_ANTE:
        win = ante * p.no_game_ante_multiplier
        paid = Phrase("dealer has no game: ANTE %(ante)s paid %(multiplier)s:1 = %(win)s",
                      ante=ante, multiplier=p.no_game_ante_multiplier, win=win)
        return (WagerResult.won("ante", ante, win, paid), 0,
                Phrase("dealer has no game: BET %(bet)s returned", bet=bet), ())
    back = Phrase("bought game, dealer still has no game: ANTE %(ante)s returned", ante=ante)
    return (WagerResult.pushed("ante", ante, back), 0,
            Phrase("bought game, dealer still has no game: BET %(bet)s returned", bet=bet), ())


def _insurance(state: RoundState, b: BoxState, hand: HandValue | None,
               dealer: DealerResult) -> tuple[int, str]:
    """Raw insurance amount and reason: wins on "no game" at the first reveal."""
    amount = b.insurance
    if not amount:
        return 0, ""
    if not dealer.qualified:
        win = amount * state.profile.insurance_multiplier
        return win, Phrase("dealer has no game: insurance %(amount)s paid %(multiplier)s:1 = "
                           "%(win)s", amount=amount,
                           multiplier=state.profile.insurance_multiplier, win=win)
    assert hand is not None  # an insured box showed its hand
    if dealer.hand >= hand:
        return 0, Phrase("dealer's hand is not lower than the box's: insurance %(amount)s "
                         "returned", amount=amount)
    return -amount, Phrase("dealer has a game: insurance %(amount)s lost", amount=amount)


def _money(name: str, stake: int, amount: int, why: str) -> WagerResult:
    if amount < 0:
        return WagerResult.lost(name, stake, why)
    return WagerResult.won(name, stake, amount, why)


def _capped_note(raw: int, paid: int, cap: int, what: str = "") -> str:
    if paid >= raw:
        return ""
    if what:
        return Phrase(", capped at %(paid)s (maximum payout %(cap)s%(both)s)", paid=paid,
                      cap=cap, both=what)
    return Phrase(", capped at %(paid)s (maximum payout %(cap)s)", paid=paid, cap=cap)


def _bonus(state: RoundState, b: BoxState) -> tuple[WagerResult, bool]:
    """The bonus side bet: first five cards only; lost on an improvement or a fold; capped."""
    p, stake = state.profile, b.bonus
    if not stake:
        return WagerResult.pushed("bonus", 0, ""), False
    if b.folded:
        folded = Phrase("BONUS %(stake)s lost: the box folded", stake=stake)
        return WagerResult.lost("bonus", stake, folded), False
    if b.improvement is not None:
        improved = (Phrase("BONUS %(stake)s lost: the box exchanged cards", stake=stake)
                    if b.improvement_kind == "exchange" else
                    Phrase("BONUS %(stake)s lost: the box bought a sixth card", stake=stake))
        return WagerResult.lost("bonus", stake, improved), False
    hand = evaluate(b.first_five, p.ranking)
    mult = p.bonus_table.get(hand.category, 0)
    if hand.category == Category.two_pairs and \
            hand.significant[0].rank < p.bonus_two_pairs_min_rank:
        mult = 0
    if not mult:
        none = Phrase("BONUS %(stake)s lost: %(hand)s is not a bonus combination", stake=stake,
                      hand=hand)
        return WagerResult.lost("bonus", stake, none), False
    paid, capped = cap_amount(stake * mult, state.table.max_payout)
    why = Phrase("BONUS %(stake)s x %(multiplier)s (%(category)s) = %(amount)s", stake=stake,
                 multiplier=mult, category=lower(hand.category), amount=stake * mult)
    why += _capped_note(stake * mult, paid, state.table.max_payout)
    return WagerResult.won("bonus", stake, paid, why), capped


def _fees(state: RoundState, b: BoxState) -> tuple[WagerResult, WagerResult, tuple[str, ...]]:
    p = state.profile
    fee = p.improvement_fee * b.ante if b.improvement else 0
    note: str
    if b.improvement_kind == "exchange":
        n = b.exchange_count
        note = (Phrase("exchanged %(discarded)s for %(drawn)s",
                       discarded=" ".join(c.code for c in b.discarded),
                       drawn=" ".join(c.code for c in b.drawn)) if b.discarded
                else Phrase.counted("exchanged %(num)d card", "exchanged %(num)d cards", n))
        lost = Phrase.counted("exchange of %(num)d card: fee %(fee)s lost",
                            "exchange of %(num)d cards: fee %(fee)s lost", n, fee=fee)
        improvement = WagerResult.lost("improvement_fee", fee, lost)
    elif b.improvement_kind == "sixth_card":
        note = (Phrase("bought a sixth card %(card)s", card=b.sixth.code) if b.sixth
                else Phrase("bought a sixth card"))
        sixth = Phrase("sixth card: fee %(fee)s lost", fee=fee)
        improvement = WagerResult.lost("improvement_fee", fee, sixth)
    else:
        note, improvement = "", WagerResult.pushed("improvement_fee", 0, "")
    buy_fee = b.buy_fee if b.no_game == BUY_GAME and b.betting else 0
    bought = Phrase("game bought for the dealer: fee %(fee)s lost", fee=buy_fee)
    buy = (WagerResult.lost("buy_game_fee", buy_fee, bought) if buy_fee
           else WagerResult.pushed("buy_game_fee", 0, ""))
    return improvement, buy, (note,) if note else ()


def settle_box(state: RoundState, b: BoxState, dealer: DealerResult) -> BoxSettlement:
    """Every wager of one box against the dealer's result."""
    p, cap = state.profile, state.table.max_payout
    hand = evaluate(b.hand_cards, p.ranking) if b.hand_known else None
    improvement, buy, notes = _fees(state, b)
    bonus, bonus_capped = _bonus(state, b)
    if b.folded:
        fold = Phrase("fold: ANTE %(ante)s lost", ante=b.ante)
        wagers = {"ante": WagerResult.lost("ante", b.ante, fold),
                  "bet": WagerResult.pushed("bet", 0, ""), "improvement_fee": improvement,
                  "buy_game_fee": buy, "insurance": WagerResult.pushed("insurance", 0, ""),
                  "bonus": bonus}
        return BoxSettlement(b.box, b.seat, wagers, capped=bonus_capped, hand=hand, folded=True,
                             notes=notes, player=b.player_data)
    ante, bet_raw, bet_why, combos = _ante_and_bet(state, b, hand, dealer)
    ins_raw, ins_why = _insurance(state, b, hand, dealer)
    (ins_paid, bet_paid), capped = apply_cap((ins_raw, bet_raw), cap)
    ante_note = Phrase("; ANTE returned") if bet_raw > 0 and not p.ante_paid_on_win else ""
    both = Phrase(" for combination plus insurance")
    bet = _money("bet", b.bet, bet_paid, bet_why + _capped_note(bet_raw, bet_paid, cap, both)
                 + ante_note)
    insurance = _money("insurance", b.insurance, ins_paid,
                       ins_why + _capped_note(ins_raw, ins_paid, cap, both))
    wagers = {"ante": ante, "bet": bet, "improvement_fee": improvement, "buy_game_fee": buy,
              "insurance": insurance, "bonus": bonus}
    paid = tuple(PaidCombination(c.category, c.cards, p.multiplier(c.category)) for c in combos)
    return BoxSettlement(b.box, b.seat, wagers, paid, capped or bonus_capped, hand, notes=notes,
                         player=b.player_data)
