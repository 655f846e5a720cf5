"""Russian poker: the round type, and the table's and the dealer's steps (verify, can, do).

Placing and dealing (with the redeal), then, once every box has decided, the dealer's steps:
the reveal, take the ANTE or buy a game, the dealer's draw. The boxes' decisions are in
``russian_decide``.

For every action there is one ``verify_<action>(state, action)`` that raises a named
``RulesError``, a ``can_<action>(state[, box])`` for the UI (may this button be shown now?) and the
action itself, ``<action>(state, action) -> RoundState``, which verifies and returns a new state.
``apply(state, action)`` dispatches on the action's type; ``replay`` folds a list of actions.
"""

from __future__ import annotations

from typing import Any

from ..cards import Card
from ..combinations import paid_combinations
from ..errors import (
    CardCountError,
    IllegalActionError,
    StakeError,
)
from ..evaluator import HandValue, evaluate
from ..phrase import Phrase
from . import common
from .actions import (
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    DealUp,
    PlaceBox,
    Redeal,
    RevealDealer,
    TakeAnte,
)
from .common import passes, reveal_cards
from .russian_profile import RussianProfile
from .state import BUY_GAME, TAKE_ANTE, BoxState, evolve
from .state import RoundState as _RoundState

RoundState = _RoundState[RussianProfile]
"""A Russian poker round: the one round state (``state.py``) with Russian house rules."""


def new_round(profile: RussianProfile, table: common.Table) -> RoundState:
    """The empty round a croupier starts with."""
    return _RoundState(profile, table)


# --- shared look-ups ------------------------------------------------------------------------

def dealer_hand(state: RoundState) -> HandValue:
    """The value of the dealer's (first) hand."""
    if state.dealer_value is not None:
        return state.dealer_value
    return evaluate(state.dealer, state.profile.ranking)


def dealer_has_game(state: RoundState) -> bool:
    """Whether the dealer's (first) hand qualifies."""
    return state.profile.qualifies(dealer_hand(state).category)


def pay_multiplier(profile: RussianProfile, box: BoxState) -> int:
    """The total multiplier a winning box is paid (one or two combinations)."""
    combos = paid_combinations(box.hand_cards, profile.multiplier, profile.ranking,
                               profile.max_combinations)
    return sum(profile.multiplier(c.category) for c in combos)


def presumptive_payout(state: RoundState, box: BoxState) -> int:
    """What the box would be paid if it beats the dealer, capped at the maximum payout."""
    bet = box.bet or state.profile.bet_multiple * box.ante
    return min(bet * pay_multiplier(state.profile, box), state.table.max_payout)


def check_live(state: RoundState, field: str | None = None) -> None:
    if state.voided:
        raise IllegalActionError("the round was redealt (%(voided)s); start a new round",
                                 voided=state.voided,
                                 field=field)


# --- before the deal ------------------------------------------------------------------------

def _place_phase(state: RoundState) -> None:
    check_live(state, "box")
    if state.dealt:
        raise IllegalActionError("boxes and bonus bets are placed before the deal", field="box")


def verify_bonus(profile: RussianProfile, ante: int, bonus: int) -> None:
    """Bonus: a multiple of the bonus unit (50), at most half the ANTE; 0 = no bonus."""
    if bonus == 0:
        return
    if bonus < 0 or bonus % profile.bonus_unit:
        raise StakeError("the bonus bet must be a multiple of %(bonus_unit)s, got %(bonus)s",
                         bonus_unit=profile.bonus_unit, bonus=bonus,
                         field="bonus", value=bonus)
    if bonus * 100 > ante * profile.bonus_max_ante_percent:
        most = ante * profile.bonus_max_ante_percent // 100
        raise StakeError("the bonus bet may be at most %(bonus_max_ante_percent)s%% of the "
                         "ANTE (%(most)s), got %(bonus)s",
                         bonus_max_ante_percent=profile.bonus_max_ante_percent, most=most,
                         bonus=bonus, field="bonus", value=bonus)


def verify_place_box(state: RoundState, a: PlaceBox) -> None:
    _place_phase(state)
    if any(b.box == a.box for b in state.boxes):
        raise IllegalActionError("box %(box)s is already in play", box=a.box, field="box",
                                 value=a.box)
    common.check_ante(a.ante, state.table)
    boxes = [*state.boxes, BoxState(a.box, a.seat, a.ante)]
    common.check_equal_antes((b.seat, b.ante, "ante") for b in boxes)
    common.check_boxes_per_seat(((b.seat, "seat") for b in boxes),
                                state.profile.max_boxes_per_seat)
    verify_bonus(state.profile, a.ante, a.bonus)


def can_place_box(state: RoundState) -> bool:
    return passes(_place_phase, state)


def place_box(state: RoundState, a: PlaceBox) -> RoundState:
    verify_place_box(state, a)
    return evolve(state, boxes=(*state.boxes, BoxState(a.box, a.seat, a.ante, a.bonus)))


# --- the deal -------------------------------------------------------------------------------

def _deal_box_phase(state: RoundState, box: str) -> tuple[int, BoxState]:
    check_live(state, "cards")
    i, b = state.find(box)
    if b.cards:
        raise IllegalActionError("box %(box)s already has its cards", box=box, field="cards")
    if state.dealt_up:
        raise IllegalActionError("the deal is recorded in dealing order: box %(box)s's "
                                 "cards are entered when they are shown",
                                 box=box, field="cards")
    return i, b


def _five(cards: tuple[Any, ...], what: str) -> None:
    if len(cards) != 5:
        raise CardCountError(len(cards), "5 (a wrong number of cards means a redeal)",
                             what).at("cards")


def verify_deal_box(state: RoundState, a: DealBox) -> None:
    _deal_box_phase(state, a.box)
    _five(a.cards, f"box {a.box} hand")
    common.add_cards(state.used, a.cards, "cards", state.profile.ranking.deck,
                     f"box {a.box} cards")


def can_deal_box(state: RoundState, box: str) -> bool:
    return passes(_deal_box_phase, state, box)


def deal_box(state: RoundState, a: DealBox) -> RoundState:
    verify_deal_box(state, a)
    i, b = state.find(a.box)
    used = common.add_cards(state.used, a.cards, "cards", state.profile.ranking.deck,
                            f"box {a.box} cards")
    return state.with_box(i, evolve(b, cards=tuple(a.cards)), used=used)


def _deal_dealer_phase(state: RoundState) -> None:
    check_live(state, "cards")
    if not state.boxes:
        raise IllegalActionError("no box is in play", field="cards")
    if state.dealer or state.dealt_up:
        raise IllegalActionError("the dealer already has his cards", field="cards")


def verify_deal_up(state: RoundState, a: DealUp) -> None:
    """Dealing order: only the dealer's face-up card(s), as many as the profile deals up."""
    _deal_dealer_phase(state)
    if any(b.cards for b in state.boxes):
        raise IllegalActionError("the boxes' cards were entered: enter the dealer's five cards",
                                 field="cards")
    want = state.profile.dealer_up_cards
    if len(a.cards) != want:
        raise CardCountError(len(a.cards), str(want), "dealer's face-up cards").at("up")
    common.add_cards(state.used, a.cards, "up", state.profile.ranking.deck, "dealer up card")


def deal_up(state: RoundState, a: DealUp) -> RoundState:
    verify_deal_up(state, a)
    used = common.add_cards(state.used, a.cards, "up", state.profile.ranking.deck,
                            "dealer up card")
    return evolve(state, dealt_up=True, up=tuple(a.cards), used=used)


def verify_deal_dealer(state: RoundState, a: DealDealer) -> None:
    _deal_dealer_phase(state)
    _five(a.cards, "dealer's hand")
    common.add_cards(state.used, a.cards, "cards", state.profile.ranking.deck, "dealer cards")


def can_deal_dealer(state: RoundState) -> bool:
    return passes(_deal_dealer_phase, state)


def deal_dealer(state: RoundState, a: DealDealer) -> RoundState:
    verify_deal_dealer(state, a)
    used = common.add_cards(state.used, a.cards, "cards", state.profile.ranking.deck,
                            "dealer cards")
    value = evaluate(a.cards, state.profile.ranking)
    return evolve(state, dealer=tuple(a.cards), used=used, dealer_value=value)


def _redeal_phase(state: RoundState, box: str) -> None:
    check_live(state, "cards")
    state.find(box)
    if state.revealed or any(b.decision or b.improvement for b in state.boxes):
        raise IllegalActionError("a redeal happens only at the deal", field="cards")


def verify_redeal(state: RoundState, a: Redeal) -> None:
    _redeal_phase(state, a.box)
    if a.cards_received == 5:
        raise IllegalActionError("a redeal happens only when a box received a wrong number of "
                                 "cards (a dealer card turned face up is no reason)",
                                 field="cards", value=a.cards_received)


def can_redeal(state: RoundState, box: str) -> bool:
    return passes(_redeal_phase, state, box)


def redeal(state: RoundState, a: Redeal) -> RoundState:
    verify_redeal(state, a)
    return evolve(state, voided=Phrase("box %(box)s received %(count)s cards", box=a.box,
                                       count=a.cards_received))


# --- the dealer opens: reveal, take the ANTE or buy a game, the dealer's draw ----------------

def _reveal_phase(state: RoundState) -> None:
    check_live(state)
    if state.revealed:
        raise IllegalActionError("the dealer has already opened his cards")
    if not state.deal_complete:
        raise IllegalActionError("the deal is not complete yet", field="cards")
    for b in state.boxes:
        if b.decision is None:
            raise IllegalActionError("box %(box)s has not bet or folded yet", box=b.box,
                                     field="decision",
                                     value=b.box)


def verify_reveal_dealer(state: RoundState, a: RevealDealer) -> None:
    """The dealer's hole cards complete his five (none when all five were dealt known)."""
    _used_after_reveal(state, a)


def _used_after_reveal(state: RoundState, a: RevealDealer) -> dict[Card, str]:
    """``verify_reveal_dealer``'s checks, returning the used cards with the hole cards."""
    _reveal_phase(state)
    return reveal_cards(state.used, state.profile.ranking.deck, state.dealer, state.up, a.cards)


def can_reveal_dealer(state: RoundState) -> bool:
    return passes(_reveal_phase, state)


def reveal_dealer(state: RoundState, a: RevealDealer) -> RoundState:
    used = _used_after_reveal(state, a)
    if state.dealer:
        return evolve(state, revealed=True)
    dealer = (*a.cards, *state.up)
    return evolve(state, revealed=True, dealer=dealer, used=used,
                  dealer_value=evaluate(dealer, state.profile.ranking))


def _no_game_phase(state: RoundState, field: str) -> None:
    """The dealer opened, has no game, and has not drawn yet."""
    check_live(state, field)
    if not state.revealed:
        raise IllegalActionError("the dealer has not opened his cards yet", field=field)
    if dealer_has_game(state):
        hand = dealer_hand(state)
        raise IllegalActionError("the dealer has a game (%(hand)s): there is no game to buy "
                                 "and no ANTE to take",
                                 hand=hand, field=field,
                                 value=hand.category.value)
    if state.draw:
        raise IllegalActionError("the dealer has already drawn for the bought game", field=field)


def _choosing(state: RoundState, box: str) -> tuple[int, BoxState]:
    _no_game_phase(state, "on_no_game")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError("box %(box)s folded: it neither takes the ANTE nor buys a "
                                 "game", box=box,
                                 field="on_no_game", value=b.decision)
    if b.no_game is not None:
        raise IllegalActionError("box %(box)s has already chosen (%(no_game)s)", box=box,
                                 no_game=b.no_game,
                                 field="on_no_game", value=b.no_game)
    return i, b


def verify_take_ante(state: RoundState, a: TakeAnte) -> None:
    _choosing(state, a.box)


def can_take_ante(state: RoundState, box: str) -> bool:
    return passes(_choosing, state, box)


def take_ante(state: RoundState, a: TakeAnte) -> RoundState:
    i, b = _choosing(state, a.box)
    return state.with_box(i, evolve(b, no_game=TAKE_ANTE))


def verify_buy_game(state: RoundState, a: BuyGame) -> None:
    _choosing(state, a.box)


def can_buy_game(state: RoundState, box: str) -> bool:
    return passes(_choosing, state, box)


def buy_game(state: RoundState, a: BuyGame) -> RoundState:
    i, b = _choosing(state, a.box)
    return state.with_box(i, evolve(b, no_game=BUY_GAME))


def _draw_phase(state: RoundState) -> None:
    """Every betting box has chosen and at least one bought a game."""
    _no_game_phase(state, "draw")
    for b in state.boxes:
        if b.betting and b.no_game is None:
            raise IllegalActionError("box %(box)s has not chosen between the ANTE and "
                                     "buying a game",
                                     box=b.box, field="draw", value=b.box)
    if not any(b.no_game == BUY_GAME for b in state.boxes):
        raise IllegalActionError("no box bought a game: the dealer does not draw", field="draw")


def verify_dealer_draw(state: RoundState, a: DealerDraw) -> None:
    _draw_phase(state)
    profile = state.profile
    common.add_cards(state.used, a.cards, "draw", profile.ranking.deck, "dealer draw")
    common.buy_game(state.dealer, a.cards, profile.ranking, profile.qualifier,
                    free_second_replacement=profile.free_second_replacement)


def can_dealer_draw(state: RoundState) -> bool:
    return passes(_draw_phase, state)


def dealer_draw(state: RoundState, a: DealerDraw) -> RoundState:
    verify_dealer_draw(state, a)
    used = common.add_cards(state.used, a.cards, "draw", state.profile.ranking.deck,
                            "dealer draw")
    return evolve(state, draw=tuple(a.cards), used=used)
