"""The lab's per-process tables, built before the first request.

Judging a round's decisions runs the lab's advisor, whose look-up tables (the dealer-hand
counts by strength, the pay tables, the hand classes: about 11 s of CPU for Russian poker)
were built on first use: the first view of a settled round took 10.5 s and the first shift
report preview 12.5 s, 0.15 s afterwards. :func:`warm_up` builds them for every registered
profile the lab covers, once per process at start-up (``wsgi.production_app``; with gunicorn's
``preload_app`` once in the master, shared by the workers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...lab.advice import advise
from ...lab.russian_best import valuer
from ...rules.errors import RulesError
from ...rules.games.registry import get_game
from ...rules.profiles import profiles

#: a dealt hand and a dealer's up card to run each advisor once
SAMPLE, UP, DEALER = "2h 7c 9d js kh", "ac", "3c 5d 8h td qs"


def _russian(profile: Any) -> None:
    """Russian poker shows no up card; its judge also uses the no-game stage and the valuer."""
    advise(profile, "deal", SAMPLE.split())
    advise(profile, "no_game", SAMPLE.split(), dealer=DEALER.split())
    valuer(profile)


def _dealt(profile: Any) -> None:
    advise(profile, "deal", SAMPLE.split(), up=UP)


#: how each lab engine is warmed (the game's ``GameSpec.lab`` names it; ``lab/games.py``)
_WARM: dict[str, Callable[[Any], None]] = {"russian": _russian, "stud": _dealt, "split": _dealt}


def warm_up() -> list[str]:
    """Run the advisor once per stage the judge uses for every lab profile at its table
    minimum; the names of the profiles warmed."""
    done = []
    for profile in profiles():
        warm = _WARM.get(get_game(profile.game).lab or "")
        if warm is None:
            continue
        try:
            warm(profile)
        except (RulesError, NotImplementedError):
            continue  # a profile the advisor does not cover: judged as before (or not)
        done.append(profile.name)
    return done
