"""Russian poker: fold actions into a round state (``apply``, ``replay``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .common import Table
from .russian_decide import bet, exchange, fold, insure, show, sixth_card
from .russian_profile import RussianProfile
from .russian_reveal import buy_game, dealer_draw, reveal_dealer, take_ante
from .russian_round import deal_box, deal_dealer, deal_up, place_box, redeal
from .russian_state import (
    Action,
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
    RoundState,
    Show,
    SixthCard,
    TakeAnte,
    new_round,
)

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
