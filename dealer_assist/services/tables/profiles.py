"""What the rules engine knows: its games and house-rules profiles, as plain values."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules.games import GAMES
from ...rules.profiles import profiles


@dataclass(frozen=True, slots=True)
class GameInfo:
    name: str
    title: str
    default_profile: str


@dataclass(frozen=True, slots=True)
class ProfileInfo:
    name: str
    game: str
    min_ante: int
    max_ante: int
    max_payout: int


def engine_games() -> dict[str, GameInfo]:
    return {name: GameInfo(spec.name, spec.title, spec.default_profile)
            for name, spec in sorted(GAMES.items())}


def engine_profiles(game: str | None = None) -> list[ProfileInfo]:
    return sorted((ProfileInfo(p.name, p.game, p.min_ante, p.max_ante, p.max_payout)
                   for p in profiles(game)), key=lambda p: (p.game, p.name))


def profile_names(game: str) -> set[str]:
    return {p.name for p in engine_profiles(game)}


def default_profile(game: str) -> str | None:
    info = engine_games().get(game)
    return info.default_profile if info else None
