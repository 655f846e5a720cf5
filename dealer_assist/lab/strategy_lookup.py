"""The stored best strategy asked about one dealt hand: which option, and what it is worth.

The tables (:mod:`.strategy_store`) are kept per class of hands in the canonical suits; this
module carries a real hand (and the dealer's up card) into that frame and the table's option
back to the real cards. Judging a recorded decision uses it to skip the advisor when the box
did what the table says (most decisions).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..rules.games.registry import get_game
from ..rules.profiles import HouseProfile
from .russian_best import EXCHANGE, FOLD, SIXTH, STAND
from .russian_play import kept_cards
from .strategy_store import load
from .suits import hand_index

I64 = npt.NDArray[np.int64]


def table_choice(profile: HouseProfile, hand: Any, up: int | None = None,
                 ) -> tuple[tuple[str, tuple[int, ...]], float] | None:
    """(action, cards) the stored table plays with the dealt ``hand`` (card indices) and its
    value in ANTEs, or None without a stored table (the Russian poker engine's only: the game's
    spec names it)."""
    if get_game(profile.game).lab != "russian":
        return None
    stored = load(profile)
    if stored is None:
        return None
    h = np.sort(np.asarray(hand, dtype=np.int64))[None, :]
    cls = int(hand_index().classes(h)[0])
    option, value = int(stored["best"][cls]), float(stored["value"][cls])
    if option == FOLD:
        return ("fold", ()), value
    if option == STAND:
        return ("bet", ()), value
    if option == SIXTH:
        return ("sixth_card", ()), value
    kept = kept_cards(h, np.array([option - EXCHANGE]))[0]
    return ("exchange", tuple(int(c) for c in h[0][~kept])), value
