"""Every game of the engine, one package per family, and the one registry that names them.

* ``stud/``: the one house-round engine (the steps every banked game shares, written once) and
  its one-ANTE stud games: Caribbean stud, Oasis poker, Big/Small hand poker;
* ``russian/``: Russian poker, which adds its own steps to the house-round engine;
* ``poker/``: the poker room's player-versus-player games, Americana stud and 32-card draw;
* ``parlour/``: the parlour Americana board game.

Importing this package registers each game's :class:`~dealer_assist.rules.games.registry.GameSpec`.
"""

from ..phrase import Phrase
from . import parlour, poker, russian, stud
from .registry import (
                  GAMES,
                  HOUSE_REPORT,
                  PARLOUR,
                  POKER,
                  POKER_REPORT,
                  RUSSIAN,
                  STUD,
                  GameSpec,
                  get_game,
                  register,
)

register(GameSpec("russian", RUSSIAN, Phrase("Russian poker"), russian.RUSSIAN_CLASSIC.name,
                  russian.RUSSIAN, russian.settle_request, lab="russian", report=HOUSE_REPORT))
register(GameSpec("caribbean", STUD, Phrase("Caribbean stud poker"),
                  stud.CARIBBEAN_CLASSIC.name, stud.CARIBBEAN, stud.caribbean.settle_request,
                  lab="stud", report=HOUSE_REPORT))
register(GameSpec("oasis", STUD, Phrase("Oasis poker"), stud.OASIS_CLASSIC.name, stud.OASIS,
                  stud.oasis.settle_request, lab="stud", report=HOUSE_REPORT))
register(GameSpec("split", STUD, Phrase("Big/Small hand poker"), stud.SPLIT_CLASSIC.name,
                  stud.SPLIT, stud.split.settle_request, lab="split", report=HOUSE_REPORT))
register(GameSpec("americana", POKER, Phrase("Americana stud"), "americana-limit",
                  poker.AMERICANA, report=POKER_REPORT))
register(GameSpec("draw32", POKER, Phrase("32-card draw"), "draw32-limit", poker.DRAW32,
                  report=POKER_REPORT))
register(GameSpec("parlour", PARLOUR, Phrase("Parlour Americana"), parlour.DEFAULT_PROFILE.name,
                  parlour.PARLOUR, parlour.settle_hand_request))

__all__ = ["GAMES", "GameSpec", "get_game", "register"]
