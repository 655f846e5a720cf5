"""The table of the steps every house game shares: Russian poker, Caribbean, Oasis, Big/Small.

Written once, in ``deal.py`` (placing, the deal, the boxes' decisions) and ``showdown.py`` (the
reveal, "no game", the dealer's draw, the showdown); each game's table is :data:`SHARED` plus
its own steps (``game.py``, ``russian/game.py``).
"""

from __future__ import annotations

from typing import Any

from ...engine import StepRule
from .actions import (
    Bet,
    BuyGame,
    DealBox,
    DealDealer,
    DealerDraw,
    DealUp,
    Fold,
    PlaceBox,
    RevealDealer,
    Show,
    TakeAnte,
)
from .deal import (
    State,
    bet,
    deal_box,
    deal_dealer,
    deal_up,
    fold,
    place_box,
    verify_bet,
    verify_deal_box,
    verify_deal_dealer,
    verify_deal_up,
    verify_fold,
    verify_place_box,
)
from .showdown import (
    buy_game,
    dealer_draw,
    reveal_dealer,
    show,
    take_ante,
    verify_buy_game,
    verify_dealer_draw,
    verify_new_dealer_draw,
    verify_new_take_ante,
    verify_reveal_dealer,
    verify_show,
    verify_take_ante,
)

SHARED: dict[type[Any], StepRule[State, Any]] = {
    PlaceBox: StepRule(verify_place_box, place_box),
    DealBox: StepRule(verify_deal_box, deal_box),
    DealDealer: StepRule(verify_deal_dealer, deal_dealer),
    DealUp: StepRule(verify_deal_up, deal_up),
    Bet: StepRule(verify_bet, bet),
    Fold: StepRule(verify_fold, fold),
    RevealDealer: StepRule(verify_reveal_dealer, reveal_dealer),
    TakeAnte: StepRule(verify_take_ante, take_ante, verify_new_take_ante),
    BuyGame: StepRule(verify_buy_game, buy_game),
    DealerDraw: StepRule(verify_dealer_draw, dealer_draw, verify_new_dealer_draw),
    Show: StepRule(verify_show, show),
}
"""The table of the shared steps; each game's table is this plus its own steps."""
