"""The banked five-card stud games: the one house-round engine and its stud games.

Every house game -- Russian poker (``russian/``) and the one-ANTE stud games here, Caribbean
stud, Oasis and Big/Small -- is played on one round state (``state.py``) by one set of steps
written once (``deal.py``, ``showdown.py``; the table ``steps.SHARED``), which reads what
differs from the profile's terms. Each game adds only its own steps: Oasis the replacement
(``oasis.py``), Big/Small the extra cards, the split and the dealer's Small Hand (``split.py``).

Public interface: the games :data:`CARIBBEAN`, :data:`OASIS`, :data:`SPLIT` (each a
:class:`~dealer_assist.rules.engine.Game`), the profiles, the step records with their
``verify_*``/``can_*``, :func:`new_round`, and each game's stateless calculator.
"""

from .actions import (
    Bet,
    BuyGame,
    ChooseSplit,
    DealBox,
    DealDealer,
    DealerDraw,
    DealerSmall,
    DealExtra,
    DealUp,
    Fold,
    PlaceBox,
    Replace,
    RevealDealer,
    SharedStep,
    Show,
    StudStep,
    TakeAnte,
)
from .caribbean import CARIBBEAN, CARIBBEAN_CLASSIC, CaribbeanProfile
from .deal import (
    State,
    can_bet,
    can_deal_box,
    can_deal_dealer,
    can_fold,
    can_place_box,
    deciding,
    improving,
    verify_bet,
    verify_fold,
    verify_place_box,
)
from .game import PHASES, HouseGame, StudGame, phase
from .oasis import OASIS, OASIS_CLASSIC, OASIS_ONE_CARD, OASIS_PER_CARD
from .profile import StudProfile
from .showdown import (
    can_buy_game,
    can_dealer_draw,
    can_reveal_dealer,
    can_show,
    can_take_ante,
    draw_needed,
    verify_buy_game,
    verify_dealer_draw,
    verify_reveal_dealer,
    verify_show,
    verify_take_ante,
)
from .split import SPLIT, can_deal_extra, can_dealer_small, can_split, suggest
from .split_profile import SPLIT_CLASSIC, SplitProfile
from .state import BET, BUY_GAME, FOLD, TAKE_ANTE, BoxState, Improvement, RoundState
from .steps import SHARED
from .table import Table


def new_round(profile: StudProfile, table: Table) -> State:
    """The empty round a croupier starts with."""
    return RoundState(profile, table)


__all__ = [
    "BET", "BUY_GAME", "CARIBBEAN", "CARIBBEAN_CLASSIC", "FOLD", "OASIS", "OASIS_CLASSIC",
    "OASIS_ONE_CARD", "OASIS_PER_CARD", "SHARED", "SPLIT", "SPLIT_CLASSIC", "TAKE_ANTE", "Bet",
    "PHASES", "BoxState", "BuyGame", "CaribbeanProfile", "ChooseSplit", "DealBox", "DealDealer",
    "DealExtra", "DealUp", "DealerDraw", "DealerSmall", "Fold", "HouseGame", "Improvement",
    "PlaceBox", "Replace", "RevealDealer", "RoundState", "SharedStep", "Show", "SplitProfile",
    "State", "StudGame", "StudProfile", "StudStep", "Table", "TakeAnte", "can_bet",
    "can_buy_game", "can_deal_box", "can_deal_dealer", "can_deal_extra", "can_dealer_draw",
    "can_dealer_small", "can_fold", "can_place_box", "can_reveal_dealer", "can_show",
    "can_split", "can_take_ante", "deciding", "draw_needed", "improving",
    "new_round", "phase", "suggest", "verify_bet",
    "verify_buy_game", "verify_dealer_draw", "verify_fold", "verify_place_box",
    "verify_reveal_dealer", "verify_show", "verify_take_ante",
]
