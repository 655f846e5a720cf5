"""Russian poker (seed 001, profile ``russian-classic``): the public face of the game.

A round is an event stream, played by the one house-round engine: :data:`RUSSIAN` (its
:class:`~dealer_assist.rules.engine.Game`) folds each croupier step with ``apply(state,
record)``, which verifies it (``verify_<step>`` raises a named ``RulesError``) and returns a new
state; ``can_<step>`` tells the UI which buttons to show; ``settle(state)`` is pure and returns a
frozen :class:`~dealer_assist.rules.settlement.Settlement`. The calculator request is parsed
into the same records (``calculator.py``), so both paths share every check.

Module map: the steps every house game shares are in ``stud/`` (``deal.py``, ``showdown.py``,
the one round state ``state.py``); Russian poker adds only its own: ``profile`` (house rules as
data), ``actions`` and ``steps`` (bonus, exchange, sixth card, insurance, redeal), ``settle``
(every payout, two combinations), ``calculator`` (the stateless API) and ``game`` (codec, the
steps offered, the summary).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..stud.actions import (
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
from ..stud.deal import can_bet, can_deal_box, can_deal_dealer, can_fold, can_place_box
from ..stud.showdown import (
    can_buy_game,
    can_dealer_draw,
    can_reveal_dealer,
    can_show,
    can_take_ante,
)
from ..stud.state import BET, BUY_GAME, FOLD, TAKE_ANTE, BoxState
from ..stud.table import Table
from .actions import Exchange, Insure, Redeal, RussianStep, SixthCard
from .calculator import ParsedRound, parse_request, round_from_request, settle_request
from .game import RUSSIAN, RussianGame
from .profile import RUSSIAN_CLASSIC, RUSSIAN_PAIR_GAME, RussianProfile
from .settle import can_settle, missing_hand, settle, verify_settle
from .steps import (
    RoundState,
    can_exchange,
    can_insure,
    can_redeal,
    can_sixth_card,
    dealer_hand,
    dealer_has_game,
    presumptive_payout,
    verify_bonus,
    verify_exchange,
    verify_insure,
    verify_redeal,
    verify_sixth_card,
)

Action = RussianStep
apply = RUSSIAN.apply


def new_round(profile: RussianProfile, table: Table) -> RoundState:
    """The empty round a croupier starts with."""
    return RUSSIAN.new_round(profile, table)


def replay(profile: RussianProfile, table: Table, actions: Iterable[RussianStep]) -> RoundState:
    """Fold a stored list of step records into the round state, from a new round."""
    return RUSSIAN.play(new_round(profile, table), actions)


__all__ = [
    "BET", "BUY_GAME", "FOLD", "RUSSIAN", "RUSSIAN_CLASSIC", "RUSSIAN_PAIR_GAME", "TAKE_ANTE",
    "Action", "Bet", "BoxState", "BuyGame", "DealBox", "DealDealer", "DealUp", "DealerDraw",
    "Exchange", "Fold", "Insure", "ParsedRound", "PlaceBox", "Redeal", "RevealDealer",
    "RoundState", "RussianGame", "RussianProfile", "Show", "SixthCard", "TakeAnte", "apply",
    "can_bet", "can_buy_game", "can_deal_box", "can_deal_dealer", "can_dealer_draw",
    "can_exchange", "can_fold", "can_insure", "can_place_box", "can_redeal",
    "can_reveal_dealer", "can_settle", "can_show", "can_sixth_card", "can_take_ante",
    "dealer_hand", "dealer_has_game", "missing_hand", "new_round", "parse_request",
    "presumptive_payout", "replay", "round_from_request", "settle", "settle_request",
    "verify_bonus", "verify_exchange", "verify_insure", "verify_redeal", "verify_settle",
    "verify_sixth_card",
]
