"""One module per game; importing this package registers every game in ``GAMES``."""

from . import russian  # noqa: F401  (importing a game module registers it)

# isort: split
from . import caribbean, oasis, split  # noqa: F401  (house games, issue 4)
from .registry import GAMES, GameSpec, get_game, register

__all__ = ["GAMES", "GameSpec", "get_game", "register"]
