"""Russian poker (seed 001, profile ``russian-classic``): the public face of the engine.

A round is an event stream. The live-table app keeps a :class:`RoundState` and, for each
croupier step, builds an action record and calls ``apply(state, action)``, which verifies it
(``verify_<action>`` raises a named ``RulesError``) and returns a new state; ``can_<action>``
tells the UI which buttons to show. ``settle(state)`` is pure and returns a frozen
:class:`~dealer_assist.rules.settlement.Settlement`. The calculator request is parsed into the same
actions (``russian_request``), so both paths share every check.

Module map: ``state`` (the one round state of every house game) and ``actions`` (every step
record), ``russian_profile`` (house rules as data), ``russian_round`` (the round type; placing,
dealing, redeal; reveal, take the ANTE / buy a game, the dealer's draw), ``russian_decide``
(exchange, sixth card, fold/bet, insurance, show; ``apply``, ``replay``), ``russian_settle``
(``settle``: every payout), ``russian_request`` (calculator), ``flow_russian`` (live events).
"""

from __future__ import annotations

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
from .registry import GameSpec, register
from .russian_decide import (
    apply,
    bet,
    can_bet,
    can_exchange,
    can_fold,
    can_insure,
    can_show,
    can_sixth_card,
    exchange,
    fold,
    insure,
    replay,
    show,
    sixth_card,
    verify_bet,
    verify_exchange,
    verify_fold,
    verify_insure,
    verify_show,
    verify_sixth_card,
)
from .russian_profile import RUSSIAN_CLASSIC, RUSSIAN_PAIR_GAME, RussianProfile
from .russian_request import ParsedRound, Step, parse_request, round_from_request, settle_request
from .russian_round import (
    RoundState,
    buy_game,
    can_buy_game,
    can_deal_box,
    can_deal_dealer,
    can_dealer_draw,
    can_place_box,
    can_redeal,
    can_reveal_dealer,
    can_take_ante,
    deal_box,
    deal_dealer,
    deal_up,
    dealer_draw,
    dealer_hand,
    dealer_has_game,
    new_round,
    place_box,
    presumptive_payout,
    redeal,
    reveal_dealer,
    take_ante,
    verify_bonus,
    verify_buy_game,
    verify_deal_box,
    verify_deal_dealer,
    verify_deal_up,
    verify_dealer_draw,
    verify_place_box,
    verify_redeal,
    verify_reveal_dealer,
    verify_take_ante,
)
from .russian_settle import can_settle, missing_hand, settle, verify_settle
from .state import BET, BUY_GAME, FOLD, TAKE_ANTE, BoxState

SPEC = register(GameSpec("russian", "Russian poker", RUSSIAN_CLASSIC.name, settle_request))

__all__ = [
    "BET", "BUY_GAME", "FOLD", "RUSSIAN_CLASSIC", "RUSSIAN_PAIR_GAME", "SPEC", "TAKE_ANTE",
    "Action", "Bet", "BoxState", "BuyGame", "DealBox", "DealDealer", "DealerDraw", "Exchange",
    "Fold", "Insure", "ParsedRound", "PlaceBox", "Redeal", "RevealDealer", "RoundState",
    "RussianProfile", "SixthCard", "Step", "TakeAnte", "apply", "bet", "buy_game", "can_bet",
    "can_buy_game", "can_deal_box", "can_deal_dealer", "can_dealer_draw", "can_exchange",
    "can_fold", "can_insure", "can_place_box", "can_redeal", "can_reveal_dealer", "can_settle",
    "can_sixth_card", "can_take_ante", "deal_box", "deal_dealer", "dealer_draw", "dealer_hand",
    "dealer_has_game", "exchange", "fold", "insure", "new_round", "parse_request", "place_box",
    "presumptive_payout", "redeal", "replay", "reveal_dealer", "round_from_request", "settle",
    "settle_request", "sixth_card", "take_ante", "verify_bet", "verify_bonus", "verify_buy_game",
    "verify_deal_box", "verify_deal_dealer", "verify_dealer_draw", "verify_exchange",
    "verify_fold", "verify_insure", "verify_place_box", "verify_redeal", "verify_reveal_dealer",
    "verify_settle", "verify_sixth_card", "verify_take_ante",
    "DealUp", "Show", "can_show", "deal_up", "missing_hand", "show", "verify_deal_up",
    "verify_show",
]
