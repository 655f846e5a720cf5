"""The lab's engines, chosen through the registry (``rules/registry.py``).

A game's ``GameSpec.lab`` names the lab engine that computes its figures, advises its boxes and
judges its recorded decisions: ``russian`` (Russian poker), ``stud`` (Caribbean stud, Oasis
poker: one ANTE, a dealer's up card, an optional replacement), ``split`` (Big/Small). Each lab
module keeps its code per engine in a table keyed by these names (:func:`pick`), never an
``isinstance`` chain on the profile: a new game that plays like one of them names it in its
spec, and a game whose spec names none is refused by name (:class:`NoLab`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from ..rules.games.registry import games, get_game
from ..rules.profiles import HouseProfile

T = TypeVar("T")

#: the lab's engines (the values a ``GameSpec.lab`` may take)
ENGINES = ("russian", "stud", "split")


class NoLab(NotImplementedError):
    """The lab has no engine (or no such part of one) for the game: said with its name."""


def lab_games() -> tuple[str, ...]:
    """The registered games the lab covers, in registration order."""
    return tuple(spec.name for spec in games() if spec.lab in ENGINES)


def engine(game: str) -> str:
    """The lab engine of ``game`` (a registered game's name), or :class:`NoLab` naming it."""
    lab = get_game(game).lab
    if lab not in ENGINES:
        raise NoLab(f"the lab has no figures for game '{game}' (it covers: "
                    f"{', '.join(lab_games())})")
    assert lab is not None
    return lab


def pick(table: Mapping[str, T], profile: HouseProfile, what: str) -> T:
    """``table``'s entry for the engine of ``profile``'s game; :class:`NoLab` when none."""
    lab = engine(profile.game)
    if lab not in table:
        raise NoLab(f"no {what} for game '{profile.game}' ({profile.name}) yet")
    return table[lab]
