"""Russian poker actions after the deal: improvement, fold or bet, insurance (verify, can, do)."""

from __future__ import annotations

from ..errors import CardCountError, DuplicateCardError, IllegalActionError, StakeError
from ..evaluator import evaluate
from . import common
from .common import passes
from .russian_round import check_live, presumptive_payout, with_box
from .russian_state import (
    BET,
    FOLD,
    Bet,
    BoxState,
    Exchange,
    Fold,
    Insure,
    RoundState,
    SixthCard,
    evolve,
)

DISCARD, DRAW, SIXTH = "improvement.exchange.discard", "improvement.exchange.draw", \
    "improvement.sixth_card"


def _deciding(state: RoundState, box: str, field: str) -> tuple[int, BoxState]:
    """The box may still improve, fold or bet: deal complete, dealer closed, box undecided."""
    check_live(state, field)
    if not state.deal_complete:
        raise IllegalActionError("the deal is not complete yet", field=field)
    if state.revealed:
        raise IllegalActionError("the dealer has already opened his cards", field=field)
    i, b = state.find(box)
    if b.decision is not None:
        raise IllegalActionError(f"box {box} has already decided ({b.decision})", field=field,
                                 value=b.decision)
    return i, b


def _improving(state: RoundState, box: str, field: str) -> tuple[int, BoxState]:
    """One improvement per box: an exchange or a sixth card, never both, never twice."""
    i, b = _deciding(state, box, field)
    if b.improvement is not None:
        done = "exchanged cards" if b.improvement == "exchange" else "bought a sixth card"
        raise IllegalActionError(f"one improvement per box: box {box} already {done}",
                                 field=field, value=b.improvement)
    return i, b


def verify_exchange(state: RoundState, a: Exchange) -> None:
    _, b = _improving(state, a.box, "improvement")
    n, most = len(a.discard), state.profile.max_exchange
    if not 1 <= n <= most:
        raise CardCountError(n, f"1 to {most}", "exchange discard").at(DISCARD)
    if len(a.draw) != n:
        raise CardCountError(len(a.draw), f"{n}, as many as discarded",
                             "exchange draw").at(DRAW)
    for pos, card in enumerate(a.discard, start=1):
        if card not in b.cards:
            raise IllegalActionError(f"{card} (card {pos}) is not a card of box {a.box}",
                                     field=DISCARD, value=card.code)
        if card in a.discard[:pos - 1]:
            raise DuplicateCardError(card.code, pos, "in the discard").at(DISCARD)
    common.add_cards(state.used, a.draw, DRAW, state.profile.ranking.deck,
                     f"box {a.box} exchange")


def can_exchange(state: RoundState, box: str) -> bool:
    return state.profile.max_exchange > 0 and passes(_improving, state, box, "improvement")


def exchange(state: RoundState, a: Exchange) -> RoundState:
    verify_exchange(state, a)
    i, b = state.find(a.box)
    used = common.add_cards(state.used, a.draw, DRAW, state.profile.ranking.deck,
                            f"box {a.box} exchange")
    new = evolve(b, discarded=tuple(a.discard), drawn=tuple(a.draw))
    return with_box(state, i, new, used=used)


def _sixth_phase(state: RoundState, box: str) -> tuple[int, BoxState]:
    if not state.profile.sixth_card_allowed:
        raise IllegalActionError("this house does not sell a sixth card", field=SIXTH)
    return _improving(state, box, SIXTH)


def verify_sixth_card(state: RoundState, a: SixthCard) -> None:
    _sixth_phase(state, a.box)
    common.add_cards(state.used, (a.card,), SIXTH, state.profile.ranking.deck,
                     f"box {a.box} sixth card")


def can_sixth_card(state: RoundState, box: str) -> bool:
    return passes(_sixth_phase, state, box)


def sixth_card(state: RoundState, a: SixthCard) -> RoundState:
    verify_sixth_card(state, a)
    i, b = state.find(a.box)
    used = common.add_cards(state.used, (a.card,), SIXTH, state.profile.ranking.deck,
                            f"box {a.box} sixth card")
    return with_box(state, i, evolve(b, sixth=a.card), used=used)


def verify_fold(state: RoundState, a: Fold) -> None:
    _deciding(state, a.box, "decision")


def can_fold(state: RoundState, box: str) -> bool:
    return passes(_deciding, state, box, "decision")


def fold(state: RoundState, a: Fold) -> RoundState:
    verify_fold(state, a)
    i, b = state.find(a.box)
    return with_box(state, i, evolve(b, decision=FOLD))


def verify_bet(state: RoundState, a: Bet) -> None:
    _, b = _deciding(state, a.box, "decision")
    common.check_bet(a.amount, b.ante, state.profile.bet_multiple)


def can_bet(state: RoundState, box: str) -> bool:
    return passes(_deciding, state, box, "decision")


def bet(state: RoundState, a: Bet) -> RoundState:
    verify_bet(state, a)
    i, b = state.find(a.box)
    return with_box(state, i, evolve(b, decision=BET, bet=a.amount))


def _insuring(state: RoundState, box: str, amount: int | None = None) -> tuple[int, BoxState]:
    """Insurance: a box that bet, holding three of a kind or better, before the dealer opens."""
    check_live(state, "insurance")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError(f"box {box} must bet before it can insure", field="insurance",
                                 value=amount)
    if state.revealed:
        raise IllegalActionError("insurance is placed before the dealer opens his cards",
                                 field="insurance", value=amount)
    if b.insurance:
        raise IllegalActionError(f"box {box} is already insured", field="insurance",
                                 value=amount)
    profile = state.profile
    hand = evaluate(b.hand_cards, profile.ranking)
    if not profile.ranking.strength(hand.category) >= profile.ranking.strength(
            profile.insurance_min_category):
        raise IllegalActionError(
            f"insurance needs {profile.insurance_min_category.label.lower()} or better; box "
            f"{box} holds {hand.label}", field="insurance", value=amount)
    return i, b


def verify_insure(state: RoundState, a: Insure) -> None:
    _, b = _insuring(state, a.box, a.amount)
    most = presumptive_payout(state, b)
    if not state.table.min_ante <= a.amount <= most:
        raise StakeError(f"insurance must be from the table minimum {state.table.min_ante} to "
                         f"the box's presumptive payout {most}, got {a.amount}",
                         field="insurance", value=a.amount)


def can_insure(state: RoundState, box: str) -> bool:
    return passes(_insuring, state, box)


def insure(state: RoundState, a: Insure) -> RoundState:
    verify_insure(state, a)
    i, b = state.find(a.box)
    return with_box(state, i, evolve(b, insurance=a.amount))
