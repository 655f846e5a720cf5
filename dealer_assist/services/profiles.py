"""What the rules engine knows: its games and house-rules profiles, as plain values.

Games register themselves in ``dealer_assist.rules.games.GAMES`` as the engine engineers land
them, and profiles in ``dealer_assist.rules.profiles``; this module shows whatever is there and
never fails when nothing is (yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class GameInfo:
    name: str
    title: str
    default_profile: str


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    name: str
    game: str
    min_ante: int | None
    max_ante: int | None
    max_payout: int | None


def engine_games() -> dict[str, GameInfo]:
    try:
        from ..rules.games import GAMES
    except ImportError:  # the engine is being rebuilt under us; show nothing rather than crash
        return {}
    return {name: GameInfo(spec.name, spec.title, spec.default_profile)
            for name, spec in sorted(GAMES.items())}


def engine_profiles(game: str | None = None) -> list[ProfileInfo]:
    engine_games()  # importing the games registers their profiles
    try:
        from ..rules.profiles import profiles
    except ImportError:
        return []
    found: list[Any] = list(profiles(game))
    return sorted((ProfileInfo(str(p.name), str(p.game), getattr(p, "min_ante", None),
                               getattr(p, "max_ante", None), getattr(p, "max_payout", None))
                   for p in found), key=lambda p: (p.game, p.name))


def profile_names(game: str) -> set[str]:
    return {p.name for p in engine_profiles(game)}


def default_profile(game: str) -> str | None:
    info = engine_games().get(game)
    return info.default_profile if info else None
