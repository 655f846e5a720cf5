"""The games the engine knows, by API name; each game module registers itself on import."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import RulesError
from ..settlement import Settlement


@dataclass(frozen=True, slots=True)
class GameSpec:
    """How the edge reaches one game: its name, title, default profile and calculator entry."""

    name: str
    title: str
    default_profile: str
    #: parse a complete round (calculator request body) and settle it; raises RulesError
    settle_request: Callable[[Mapping[str, Any]], Settlement]


GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError("unknown game '%(name)s' (known: %(v)s)", name=name,
                         v=', '.join(sorted(GAMES)),
                         field="game", value=name) from None
