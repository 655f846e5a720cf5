"""Russian poker's own steps (seed 001): the bonus bet, one improvement per box (an exchange or
a sixth card), insurance and the redeal. Every other step is a shared house step
(``stud/deal.py``, ``stud/showdown.py``), and so are the checks these are built on
(:func:`~dealer_assist.rules.games.stud.deal.improving`, the shown hand).

For every step: ``verify_<step>(state, record)`` (the one place that checks it and raises a
named ``RulesError``), ``can_<step>(state, box)`` for the UI, and ``<step>(state, record)``.
"""

from __future__ import annotations

from ...cards import Card
from ...combinations import paid_combinations
from ...engine import passes
from ...errors import CardCountError, DuplicateCardError, IllegalActionError, StakeError
from ...evaluator import HandValue, evaluate
from ...phrase import Phrase, lower
from ..stud.actions import PlaceBox
from ..stud.deal import check_live, improving, verify_place_box
from ..stud.seen import add_cards
from ..stud.showdown import shown_hand
from ..stud.state import BoxState, Improvement, evolve
from ..stud.state import RoundState as _RoundState
from .actions import Exchange, Insure, Redeal, SixthCard
from .profile import RussianProfile

RoundState = _RoundState[RussianProfile]
"""A Russian poker round: the one round state (``stud/state.py``) with Russian house rules."""
DISCARD, DRAW, SIXTH = ("improvement.exchange.discard", "improvement.exchange.draw",
                        "improvement.sixth_card")


# --- look-ups ---------------------------------------------------------------------------------

def dealer_hand(state: RoundState) -> HandValue:
    """The value of the dealer's (first) hand."""
    return state.dealer_hand


def dealer_has_game(state: RoundState) -> bool:
    """Whether the dealer's (first) hand qualifies."""
    return state.profile.qualifies(state.dealer_hand.category)


def pay_multiplier(profile: RussianProfile, box: BoxState) -> int:
    """The total multiplier a winning box is paid (one or two combinations)."""
    combos = paid_combinations(box.hand_cards, profile.multiplier, profile.ranking,
                               profile.max_combinations)
    return sum(profile.multiplier(c.category) for c in combos)


def presumptive_payout(state: RoundState, box: BoxState) -> int:
    """What the box would be paid if it beats the dealer, capped at the maximum payout."""
    bet = box.bet or state.profile.bet_multiple * box.ante
    return min(bet * pay_multiplier(state.profile, box), state.table.max_payout)


# --- the bonus, placed with the box -----------------------------------------------------------

def verify_bonus(profile: RussianProfile, ante: int, bonus: int) -> None:
    """Bonus: a multiple of the bonus unit (50), at most half the ANTE; 0 = no bonus."""
    if bonus == 0:
        return
    if bonus < 0 or bonus % profile.bonus_unit:
        raise StakeError("the bonus bet must be a multiple of %(bonus_unit)s, got %(bonus)s",
                         bonus_unit=profile.bonus_unit, bonus=bonus, field="bonus", value=bonus)
    if bonus * 100 > ante * profile.bonus_max_ante_percent:
        most = ante * profile.bonus_max_ante_percent // 100
        raise StakeError("the bonus bet may be at most %(bonus_max_ante_percent)s%% of the "
                         "ANTE (%(most)s), got %(bonus)s",
                         bonus_max_ante_percent=profile.bonus_max_ante_percent, most=most,
                         bonus=bonus, field="bonus", value=bonus)


def verify_place_box_with_bonus(state: RoundState, a: PlaceBox) -> None:
    """The shared placing, and the bonus bet's own rules."""
    verify_place_box(state, a)
    verify_bonus(state.profile, a.ante, a.bonus)


# --- one improvement per box: an exchange or a sixth card --------------------------------------

def verify_exchange(state: RoundState, a: Exchange) -> None:
    """Discard 1..5 of the box's cards and draw as many (dealing order: a count, and the new
    cards if the croupier saw them)."""
    _, b = improving(state, a.box, "improvement")
    most = state.profile.max_exchange
    deck = state.profile.ranking.deck
    if a.count and not a.discard:
        if not a.count <= most:
            raise CardCountError(a.count, f"1 to {most}", "exchange").at("count")
        if a.draw and len(a.draw) != a.count:
            raise CardCountError(len(a.draw), f"{a.count} (or none)", "exchange cards").at(DRAW)
        add_cards(state.used, a.draw, DRAW, deck, f"box {a.box} exchange")
        return
    n = len(a.discard)
    if not 1 <= n <= most:
        raise CardCountError(n, f"1 to {most}", "exchange discard").at(DISCARD)
    if len(a.draw) != n:
        raise CardCountError(len(a.draw), f"{n}, as many as discarded",
                             "exchange draw").at(DRAW)
    for pos, card in enumerate(a.discard, start=1):
        if card not in b.cards:
            raise IllegalActionError("%(card)s (card %(pos)s) is not a card of box %(box)s",
                                     card=card, pos=pos, box=a.box, field=DISCARD,
                                     value=card.code)
        if card in a.discard[:pos - 1]:
            raise DuplicateCardError(card.code, pos, Phrase("in the discard")).at(DISCARD)
    add_cards(state.used, a.draw, DRAW, deck, f"box {a.box} exchange")


def can_exchange(state: RoundState, box: str) -> bool:
    return state.profile.max_exchange > 0 and passes(improving, state, box, "improvement")


def exchange(state: RoundState, a: Exchange) -> RoundState:
    i, b = state.find(a.box)
    used = add_cards(state.used, a.draw, DRAW, state.profile.ranking.deck,
                     f"box {a.box} exchange")
    fee = state.profile.improvement_fee * b.ante
    new = evolve(b, improvement=Improvement(  # verified: the discard or the count is set
        "exchange", fee, tuple(a.discard), tuple(a.draw), count=0 if a.discard else a.count))
    return state.with_box(i, new, used=used)


def _sixth_phase(state: RoundState, box: str) -> tuple[int, BoxState]:
    if not state.profile.sixth_card_allowed:
        raise IllegalActionError("this house does not sell a sixth card", field=SIXTH)
    return improving(state, box, SIXTH)


def _sixth(a: SixthCard) -> tuple[Card, ...]:
    return () if a.card is None else (a.card,)


def verify_sixth_card(state: RoundState, a: SixthCard) -> None:
    _sixth_phase(state, a.box)
    add_cards(state.used, _sixth(a), SIXTH, state.profile.ranking.deck,
              f"box {a.box} sixth card")


def can_sixth_card(state: RoundState, box: str) -> bool:
    return passes(_sixth_phase, state, box)


def sixth_card(state: RoundState, a: SixthCard) -> RoundState:
    i, b = state.find(a.box)
    used = add_cards(state.used, _sixth(a), SIXTH, state.profile.ranking.deck,
                     f"box {a.box} sixth card")
    return state.with_box(i, evolve(b, improvement=Improvement(
        "sixth_card", state.profile.improvement_fee * b.ante, cards=_sixth(a))), used=used)


# --- insurance ---------------------------------------------------------------------------------

def _insuring(state: RoundState, box: str, amount: int | None = None) -> tuple[int, BoxState]:
    """Insurance: a box that bet, before the dealer opens, not insured yet."""
    check_live(state, "insurance")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError("box %(box)s must bet before it can insure", box=box,
                                 field="insurance", value=amount)
    if state.revealed:
        raise IllegalActionError("insurance is placed before the dealer opens his cards",
                                 field="insurance", value=amount)
    if b.insurance:
        raise IllegalActionError("box %(box)s is already insured", box=box, field="insurance",
                                 value=amount)
    if b.hand_known:
        _check_insurable(state, b, b.hand_cards, amount)
    return i, b


def _check_insurable(state: RoundState, b: BoxState, cards: tuple[Card, ...],
                     amount: int | None) -> None:
    """The shown hand is three of a kind or better (the profile's minimum)."""
    profile = state.profile
    hand = evaluate(cards, profile.ranking)
    if not profile.ranking.strength(hand.category) >= profile.ranking.strength(
            profile.insurance_min_category):
        raise IllegalActionError(
            "insurance needs %(insurance_min_category)s or better; box %(box)s holds "
            "%(hand)s", insurance_min_category=lower(profile.insurance_min_category),
            box=b.box, hand=hand, field="insurance", value=amount)


def verify_insure(state: RoundState, a: Insure) -> None:
    """From the table minimum up to the box's presumptive payout, on three of a kind or better
    (dealing order: the player shows the hand he insures)."""
    _, b = _insuring(state, a.box, a.amount)
    if not b.hand_known and not a.cards:
        raise CardCountError(0, str(state.hand_size(b)), f"box {a.box}'s shown hand").at("cards")
    if a.cards:
        if not b.hand_known:
            shown_hand(state, b, a.cards)
        elif set(a.cards) != set(b.hand_cards):
            raise IllegalActionError("box %(box)s holds %(v)s, not the hand shown",
                                     box=a.box, v=" ".join(c.code for c in b.hand_cards),
                                     field="cards")
        b = evolve(b, shown=a.cards)
    _check_insurable(state, b, b.hand_cards, a.amount)
    most = presumptive_payout(state, b)
    if not state.table.min_ante <= a.amount <= most:
        raise StakeError("insurance must be from the table minimum %(min_ante)s to the "
                         "box's presumptive payout %(most)s, got %(amount)s",
                         min_ante=state.table.min_ante, most=most, amount=a.amount,
                         field="insurance", value=a.amount)


def can_insure(state: RoundState, box: str) -> bool:
    return passes(_insuring, state, box)


def insure(state: RoundState, a: Insure) -> RoundState:
    i, b = state.find(a.box)
    used = state.used
    if a.cards and not b.hand_known:
        used = shown_hand(state, b, a.cards)
        b = evolve(b, shown=a.cards)
    return state.with_box(i, evolve(b, insurance=a.amount), used=used)


# --- the redeal ----------------------------------------------------------------------------------

def _redeal_phase(state: RoundState, box: str) -> None:
    check_live(state, "cards")
    state.find(box)
    if state.revealed or any(b.decision or b.improvement for b in state.boxes):
        raise IllegalActionError("a redeal happens only at the deal", field="cards")


def verify_redeal(state: RoundState, a: Redeal) -> None:
    """Only when a box received a wrong number of cards (a dealer card turned face up is no
    reason): the round is void, nothing is paid, the antes stay in play."""
    _redeal_phase(state, a.box)
    if a.cards_received == 5:
        raise IllegalActionError("a redeal happens only when a box received a wrong number of "
                                 "cards (a dealer card turned face up is no reason)",
                                 field="cards", value=a.cards_received)


def can_redeal(state: RoundState, box: str) -> bool:
    return passes(_redeal_phase, state, box)


def redeal(state: RoundState, a: Redeal) -> RoundState:
    return evolve(state, voided=Phrase("box %(box)s received %(count)s cards", box=a.box,
                                       count=a.cards_received))
