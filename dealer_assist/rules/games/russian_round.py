"""Russian poker actions: verify, can, do.

For every action there is one ``verify_<action>(state, action)`` that raises a named
``RulesError``, a ``can_<action>(state[, box])`` for the UI (may this button be shown now?) and the
action itself, ``<action>(state, action) -> RoundState``, which verifies and returns a new state.
``apply(state, action)`` dispatches on the action's type; ``replay`` folds a list of actions.
"""

from __future__ import annotations

from typing import Any

from ..combinations import paid_combinations
from ..errors import (
    CardCountError,
    IllegalActionError,
    StakeError,
)
from ..evaluator import HandValue, evaluate
from . import common
from .common import passes
from .russian_profile import RussianProfile
from .russian_state import (
    BoxState,
    DealBox,
    DealDealer,
    DealUp,
    PlaceBox,
    Redeal,
    RoundState,
    evolve,
)

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
        raise IllegalActionError(f"the round was redealt ({state.voided}); start a new round",
                                 field=field)


def with_box(state: RoundState, index: int, box: BoxState, **changes: Any) -> RoundState:
    boxes = state.boxes[:index] + (box,) + state.boxes[index + 1:]
    return evolve(state, boxes=boxes, **changes)


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
        raise StakeError(f"the bonus bet must be a multiple of {profile.bonus_unit}, got {bonus}",
                         field="bonus", value=bonus)
    if bonus * 100 > ante * profile.bonus_max_ante_percent:
        most = ante * profile.bonus_max_ante_percent // 100
        raise StakeError(f"the bonus bet may be at most {profile.bonus_max_ante_percent}% of the "
                         f"ANTE ({most}), got {bonus}", field="bonus", value=bonus)


def verify_place_box(state: RoundState, a: PlaceBox) -> None:
    _place_phase(state)
    if any(b.box == a.box for b in state.boxes):
        raise IllegalActionError(f"box {a.box} is already in play", field="box", value=a.box)
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
        raise IllegalActionError(f"box {box} already has its cards", field="cards")
    if state.dealt_up:
        raise IllegalActionError(f"the deal is recorded in dealing order: box {box}'s cards are "
                                 "entered when they are shown", field="cards")
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
    return with_box(state, i, evolve(b, cards=tuple(a.cards)), used=used)


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
    return evolve(state, voided=f"box {a.box} received {a.cards_received} cards")
