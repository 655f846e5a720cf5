"""One module per game; importing this package registers every game in ``GAMES``."""

from . import caribbean, oasis, russian, split  # noqa: F401  (importing a game registers it)
from .registry import GAMES, GameSpec, get_game, register

__all__ = ["GAMES", "GameSpec", "get_game", "register"]
