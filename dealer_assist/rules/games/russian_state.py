"""Russian poker: the immutable round state and the actions a croupier records.

A round is folded from its actions (``russian_round.apply``); every action is a small frozen
record, so the live-table app can store it as an event and replay it. Field names in errors are
relative to a box (``ante``, ``cards``, ``improvement.exchange.draw``) or to the dealer (``cards``,
``draw``), exactly as in the calculator request, so one ``err.at(...)`` gives the full path.
"""

from __future__ import annotations

from .actions import (  # the step records, re-exported for callers
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
from .common import Table
from .russian_profile import RussianProfile
from .state import (
    BET,  # the one round state of every house game
    BUY_GAME,
    FOLD,
    TAKE_ANTE,
    BoxState,
    Improvement,
    evolve,
)
from .state import RoundState as _RoundState

RoundState = _RoundState[RussianProfile]
"""A Russian poker round: the one round state with Russian house rules."""


def new_round(profile: RussianProfile, table: Table) -> RoundState:
    """The empty round a croupier starts with."""
    return _RoundState(profile, table)


__all__ = [
    "BET", "BUY_GAME", "FOLD", "TAKE_ANTE", "Action", "Bet", "BoxState", "BuyGame", "DealBox",
    "DealDealer", "DealUp", "DealerDraw", "Exchange", "Fold", "Improvement", "Insure",
    "PlaceBox", "Redeal", "RevealDealer", "RoundState", "Show", "SixthCard", "TakeAnte",
    "evolve", "new_round",
]
