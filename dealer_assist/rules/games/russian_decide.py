"""Russian poker: the boxes' steps after the deal -- improvement, fold or bet, insurance, the
showdown (verify, can, do) -- and ``apply``/``replay``, which dispatch every step of the game."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..cards import Card
from ..errors import CardCountError, DuplicateCardError, IllegalActionError, StakeError
from ..evaluator import evaluate
from ..phrase import lower
from . import common
from .actions import (
    Bet,
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    DealUp,
    Exchange,
    Fold,
    Insure,
    PlaceBox,
    Redeal,
    RevealDealer,
    Show,
    SixthCard,
    TakeAnte,
)
from .actions import RussianStep as Action
from .common import Table, check_shown, passes
from .russian_profile import RussianProfile
from .russian_round import (
    RoundState,
    buy_game,
    check_live,
    deal_box,
    deal_dealer,
    deal_up,
    dealer_draw,
    new_round,
    place_box,
    presumptive_payout,
    redeal,
    reveal_dealer,
    take_ante,
)
from .state import BET, FOLD, BoxState, Improvement, evolve

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
        raise IllegalActionError("box %(box)s has already decided (%(decision)s)", box=box,
                                 decision=b.decision, field=field,
                                 value=b.decision)
    return i, b


def _improving(state: RoundState, box: str, field: str) -> tuple[int, BoxState]:
    """One improvement per box: an exchange or a sixth card, never both, never twice."""
    i, b = _deciding(state, box, field)
    if b.improvement is not None:
        kind = b.improvement.kind
        done = "exchanged cards" if kind == "exchange" else "bought a sixth card"
        raise IllegalActionError("one improvement per box: box %(box)s already %(done)s",
                                 box=box, done=done,
                                 field=field, value=kind)
    return i, b


def verify_exchange(state: RoundState, a: Exchange) -> None:
    _, b = _improving(state, a.box, "improvement")
    most = state.profile.max_exchange
    if a.count and not a.discard:  # dealing order: a count, and the new cards if seen
        if not a.count <= most:
            raise CardCountError(a.count, f"1 to {most}", "exchange").at("count")
        if a.draw and len(a.draw) != a.count:
            raise CardCountError(len(a.draw), f"{a.count} (or none)", "exchange cards").at(DRAW)
        common.add_cards(state.used, a.draw, DRAW, state.profile.ranking.deck,
                         f"box {a.box} exchange")
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
                                     card=card, pos=pos, box=a.box,
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
    fee = state.profile.improvement_fee * b.ante
    new = evolve(b, improvement=Improvement(  # verified: the discard or the count is set
        "exchange", fee, tuple(a.discard), tuple(a.draw), count=0 if a.discard else a.count))
    return state.with_box(i, new, used=used)


def _sixth_phase(state: RoundState, box: str) -> tuple[int, BoxState]:
    if not state.profile.sixth_card_allowed:
        raise IllegalActionError("this house does not sell a sixth card", field=SIXTH)
    return _improving(state, box, SIXTH)


def _sixth(a: SixthCard) -> tuple[Card, ...]:
    return () if a.card is None else (a.card,)


def verify_sixth_card(state: RoundState, a: SixthCard) -> None:
    _sixth_phase(state, a.box)
    common.add_cards(state.used, _sixth(a), SIXTH, state.profile.ranking.deck,
                     f"box {a.box} sixth card")


def can_sixth_card(state: RoundState, box: str) -> bool:
    return passes(_sixth_phase, state, box)


def sixth_card(state: RoundState, a: SixthCard) -> RoundState:
    verify_sixth_card(state, a)
    i, b = state.find(a.box)
    used = common.add_cards(state.used, _sixth(a), SIXTH, state.profile.ranking.deck,
                            f"box {a.box} sixth card")
    return state.with_box(i, evolve(b, improvement=Improvement(
        "sixth_card", state.profile.improvement_fee * b.ante, cards=_sixth(a))), used=used)


def verify_fold(state: RoundState, a: Fold) -> None:
    _deciding(state, a.box, "decision")


def can_fold(state: RoundState, box: str) -> bool:
    return passes(_deciding, state, box, "decision")


def fold(state: RoundState, a: Fold) -> RoundState:
    verify_fold(state, a)
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, decision=FOLD))


def verify_bet(state: RoundState, a: Bet) -> None:
    _, b = _deciding(state, a.box, "decision")
    common.check_bet(a.amount, b.ante, state.profile.bet_multiple)


def can_bet(state: RoundState, box: str) -> bool:
    return passes(_deciding, state, box, "decision")


def bet(state: RoundState, a: Bet) -> RoundState:
    verify_bet(state, a)
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, decision=BET, bet=a.amount))


def _insuring(state: RoundState, box: str, amount: int | None = None) -> tuple[int, BoxState]:
    """Insurance: a box that bet, before the dealer opens, not insured yet."""
    check_live(state, "insurance")
    i, b = state.find(box)
    if not b.betting:
        raise IllegalActionError("box %(box)s must bet before it can insure", box=box,
                                 field="insurance",
                                 value=amount)
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
            "%(hand)s",
            insurance_min_category=lower(profile.insurance_min_category), box=b.box,
            hand=hand, field="insurance", value=amount)


def shown_hand(state: RoundState, b: BoxState, cards: tuple[Card, ...],
               field: str = "cards") -> dict[Card, str]:
    """The used cards once box ``b`` shows ``cards`` as its final hand (checked against what
    the round knows: its size for the box's history, its dealt, drawn, sixth, discarded cards)."""
    if b.hand_known:
        raise IllegalActionError("box %(box)s's hand is already known", box=b.box, field=field)
    must = [*b.drawn, *([b.sixth] if b.sixth else [])]
    if b.cards and b.improvement_kind != "exchange":
        must += b.cards
    own = {*b.cards, *b.drawn, *([b.sixth] if b.sixth else [])}
    return check_shown(state.used, state.profile.ranking.deck, cards, count=b.hand_size,
                       label=f"box {b.box} hand", field=field, own=own, must_have=must,
                       must_not=b.discarded, dealt=b.cards,
                       keep=5 - b.exchange_count if b.exchange_count and not b.discarded else None)


def verify_insure(state: RoundState, a: Insure) -> None:
    _, b = _insuring(state, a.box, a.amount)
    if not b.hand_known and not a.cards:
        raise CardCountError(0, str(b.hand_size), f"box {a.box}'s shown hand").at("cards")
    if a.cards:
        if not b.hand_known:
            shown_hand(state, b, a.cards)
        elif set(a.cards) != set(b.hand_cards):
            raise IllegalActionError("box %(box)s holds %(v)s, not the hand shown",
                                     box=a.box, v=' '.join(c.code for c in b.hand_cards),
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
    verify_insure(state, a)
    i, b = state.find(a.box)
    used = state.used
    if a.cards and not b.hand_known:
        used = shown_hand(state, b, a.cards)
        b = evolve(b, shown=a.cards)
    return state.with_box(i, evolve(b, insurance=a.amount), used=used)


def _showing(state: RoundState, box: str) -> tuple[int, BoxState]:
    """Showdown: after the reveal, a box still in whose hand is not known yet."""
    check_live(state, "cards")
    if not state.revealed:
        raise IllegalActionError("hands are shown after the dealer reveals", field="cards")
    i, b = state.find(box)
    if b.folded:
        raise IllegalActionError("box %(box)s folded: its cards are never shown", box=box,
                                 field="cards")
    if b.hand_known:
        raise IllegalActionError("box %(box)s's hand is already known", box=box, field="cards")
    return i, b


def verify_show(state: RoundState, a: Show) -> None:
    _, b = _showing(state, a.box)
    if a.small:
        raise IllegalActionError("Russian poker has no Small Hand", field="small")
    shown_hand(state, b, a.cards)


def can_show(state: RoundState, box: str) -> bool:
    return passes(_showing, state, box)


def show(state: RoundState, a: Show) -> RoundState:
    verify_show(state, a)
    i, b = state.find(a.box)
    return state.with_box(i, evolve(b, shown=tuple(a.cards)),
                    used=shown_hand(state, b, a.cards))


# --- apply and replay: every step, dispatched on its record's type -----------------------------

_HANDLERS: dict[type[Any], Callable[[RoundState, Any], RoundState]] = {
    PlaceBox: place_box, DealBox: deal_box, DealDealer: deal_dealer, Redeal: redeal,
    Exchange: exchange, SixthCard: sixth_card, Fold: fold, Bet: bet, Insure: insure,
    RevealDealer: reveal_dealer, TakeAnte: take_ante, BuyGame: buy_game,
    DealerDraw: dealer_draw, DealUp: deal_up, Show: show,
}


def apply(state: RoundState, action: Action) -> RoundState:
    """Verify ``action`` against ``state`` and return the new state (the old one is unchanged)."""
    return _HANDLERS[type(action)](state, action)


def replay(profile: RussianProfile, table: Table, actions: Iterable[Action]) -> RoundState:
    """Fold a stored list of actions into the round state, from a new round."""
    state = new_round(profile, table)
    for action in actions:
        state = apply(state, action)
    return state
