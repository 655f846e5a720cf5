"""The one registry of games: what the rest of the project needs to know about each game.

A :class:`GameSpec` says a game's family (its package under ``rules/games/``), its title, its
default profile, its :class:`~dealer_assist.rules.engine.Game` (how its rounds are recorded and
replayed), its stateless calculator, the lab's engine for its figures and the shift report's
section.
The services and pages ask the spec instead of testing a game's name
(``if game in POKER_GAMES``) or keeping their own table of titles.

``rules/games/__init__.py`` registers every game, and importing this module imports that
package first: whoever reaches the registry finds every game in it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..engine import Game
from ..errors import RulesError
from ..fields import get_str, need_mapping
from ..profiles import get_profile, profile_data, profile_hash
from .stud.table import Table

#: the families (packages of ``rules/games``)
RUSSIAN, STUD, POKER, PARLOUR = "russian", "stud", "poker", "parlour"
#: the shift report's sections
HOUSE_REPORT, POKER_REPORT = "house", "poker"


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as the edge, the services and the lab reach it."""

    name: str
    family: str
    #: the game's title (a ``Phrase``: its message id is in the catalogs)
    title: str
    default_profile: str
    #: how a round of the game is recorded and replayed (the one record path plays it)
    engine: Game[Any]
    #: the stateless calculator: a complete round (request body) in, its result out
    settle_request: Callable[[Mapping[str, Any]], Any] | None = None
    #: the lab's engine for the game's figures, advice and decision review (``lab/games.py``
    #: names them: ``russian``, ``stud``, ``split``); None: the lab refuses the game by name
    lab: str | None = None
    #: the section of the end-of-shift report that sums its rounds (None: not in the report)
    report: str | None = None

    @property
    def banked(self) -> bool:
        """A house-banked game (boxes against the dealer): Russian poker and the stud games."""
        return self.family in (RUSSIAN, STUD)

    @property
    def poker_room(self) -> bool:
        """A player-versus-player game dealt at a poker table (its hands are rounds too)."""
        return self.family == POKER


GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError("unknown game '%(name)s' (known: %(v)s)", name=name,
                         v=", ".join(sorted(GAMES)), field="game", value=name) from None


def games(family: str | None = None) -> tuple[GameSpec, ...]:
    """Every registered game (of one family), in registration order."""
    return tuple(s for s in GAMES.values() if family is None or s.family == family)


def get_engine(game: str) -> Game[Any]:
    """The engine of any registered game (a house round, a poker hand, a parlour evening): how
    its streams are recorded and replayed."""
    return get_game(game).engine


def house_engine(game: str) -> Game[Any]:
    """The engine of a house (banked) game: a house round's stored rules name one of these; a
    poker hand or a parlour evening stores other rules and starts its own way."""
    spec = GAMES.get(game)
    if spec is None or not spec.banked:
        raise RulesError("no live table for game '%(game)s' (known: %(v)s)", game=game,
                         v=", ".join(s.name for s in games() if s.banked), field="game",
                         value=game)
    return spec.engine


# --- a house round's start: its own rules ------------------------------------------------------

def round_rules(game: str, profile: str, min_ante: int, max_ante: int,
                max_payout: int) -> dict[str, Any]:
    """What a house round stores about itself when it starts: the game, the full house-rules
    profile as data with its hash, and the table limits in force. Replay reads only this.

    A pure function of registered profiles (one name, one profile, for the life of the
    process), so it is made once per table setting and handed out as a fresh copy (making it
    took longer than the rest of a round's start)."""
    rules: dict[str, Any] = json.loads(_round_rules_text(game, profile, min_ante, max_ante,
                                                         max_payout))
    return rules


@lru_cache(maxsize=512)
def _round_rules_text(game: str, profile: str, min_ante: int, max_ante: int,
                      max_payout: int) -> str:
    house_engine(game)
    data = profile_data(get_profile(profile, game))
    limits = Table(min_ante, max_ante, max_payout).to_dict()
    return json.dumps({"game": game, "profile": data, "profile_hash": profile_hash(data),
                       "limits": limits})


def rules_engine(rules: Mapping[str, Any]) -> Game[Any]:
    """The engine of a house round's own stored rules (``round_rules``), without starting it."""
    return house_engine(get_str(need_mapping(rules, "rules"), "game"))


def start_rules(rules: Mapping[str, Any]) -> tuple[Game[Any], Any]:
    """The engine and the empty round of a house round's own stored rules (``round_rules``)."""
    engine = rules_engine(rules)
    return engine, engine.start(rules)


def start(game: str, profile: str, min_ante: int, max_ante: int,
          max_payout: int) -> tuple[Game[Any], Any]:
    """The engine and the empty round of a table: its game, house-rules profile and limits."""
    return start_rules(round_rules(game, profile, min_ante, max_ante, max_payout))
