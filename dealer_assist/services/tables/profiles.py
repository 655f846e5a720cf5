"""What the rules engine knows: its games and house-rules profiles, as plain values."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules.games import GAMES
from ...rules.phrase import Phrase
from ...rules.profiles import profiles
from ...rules.ranking import Category

#: the profile's tables that pay by hand category, and what the page calls each
PAY_TABLES = (("pay_table", Phrase("Pay table (n:1)")), ("bonus_table", Phrase("Bonus (n:1)")))


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
    #: (title, ((category, n), ...)) of each pay table, best hand first; the
    #: poker room's profiles pay nothing by category (players win each other's chips)
    pays: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()


def _pays(profile: object) -> tuple[tuple[str, tuple[tuple[str, int], ...]], ...]:
    out = []
    for attr, title in PAY_TABLES:
        table = getattr(profile, attr, None) or {}
        rows = tuple((c.value, int(table[c])) for c in Category if table.get(c))
        if rows:
            out.append((title, rows))
    return tuple(out)


def engine_games() -> dict[str, GameInfo]:
    return {name: GameInfo(spec.name, spec.title, spec.default_profile)
            for name, spec in sorted(GAMES.items())}


def engine_profiles(game: str | None = None) -> list[ProfileInfo]:
    return sorted((ProfileInfo(p.name, p.game, p.min_ante, p.max_ante, p.max_payout, _pays(p))
                   for p in profiles(game)), key=lambda p: (p.game, p.name))


def profile_names(game: str) -> set[str]:
    return {p.name for p in engine_profiles(game)}


def default_profile(game: str) -> str | None:
    info = engine_games().get(game)
    return info.default_profile if info else None
