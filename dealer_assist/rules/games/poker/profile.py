"""Player-versus-player poker profiles (Americana stud, 32-card draw) and table stakes.

RULES.md, "Player-versus-player games: common rules": "Betting structures are profile data:
`limit`, `pot-limit`, `no-limit`" and "The house's income is a rake or a time charge (profile
data; default none, so a default profile's hand moves chips between players only)". A casino
variant is a new profile, never a new ``if``; the six default profiles are registered here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import HouseRulesError, StakeError
from ...phrase import Phrase
from ...profiles import check_int
from ...ranking import AMERICANA, DRAW32, Ranking

STRUCTURES = ("limit", "pot-limit", "no-limit")
STUD, DRAW = "americana", "draw32"


@dataclass(frozen=True, slots=True, kw_only=True)
class PokerProfile:
    """How one house runs a player-versus-player game. Validated on construction."""

    name: str
    game: str  # "americana" (stud) or "draw32" (draw)
    structure: str
    ranking: Ranking
    min_players: int = 2
    max_players: int = 6
    #: limit: "at most 4 bets in a round (bet or bring-in or opening blind, raise, re-raise,
    #: final raise)"
    max_bets: int = 4
    #: draw: "each player discards 0 to 4 cards (never 5)"
    max_discard: int = 4
    #: rake in percent of the pot (0 = none, the default) and its cap (0 = no cap)
    rake_percent: int = 0
    rake_cap: int = 0

    def __post_init__(self) -> None:
        if self.game not in (STUD, DRAW):
            raise HouseRulesError("game must be '%(STUD)s' or '%(DRAW)s'", STUD=STUD,
                                  DRAW=DRAW, field="game",
                                  value=self.game)
        if self.structure not in STRUCTURES:
            raise HouseRulesError("structure must be one of %(v)s", v=', '.join(STRUCTURES),
                                  field="structure", value=self.structure)
        check_int(self.min_players, "min_players", minimum=2)
        check_int(self.max_players, "max_players", minimum=self.min_players)
        check_int(self.max_bets, "max_bets", minimum=2)
        check_int(self.max_discard, "max_discard", minimum=0, maximum=4)
        check_int(self.rake_percent, "rake_percent", minimum=0, maximum=100)
        check_int(self.rake_cap, "rake_cap", minimum=0)

    @property
    def is_stud(self) -> bool:
        return self.game == STUD

    def rake(self, pot: int) -> int:
        """The house's share of a finished pot (integer percent, rounded down, capped)."""
        rake = pot * self.rake_percent // 100
        return min(rake, self.rake_cap) if self.rake_cap else rake


#: the stakes by name in the order a report lists them, as message ids
STAKE_NAMES = {"ante": Phrase("ante"), "bring_in": Phrase("bring-in"),
               "small_blind": Phrase("small blind"), "big_blind": Phrase("big blind"),
               "over_blind": Phrase("over blind")}


@dataclass(frozen=True, slots=True)
class Stakes:
    """Table stakes. Stud: ``ante`` and ``bring_in``; draw: the three blinds."""

    ante: int = 0
    bring_in: int = 0
    small_blind: int = 0
    big_blind: int = 0
    over_blind: int = 0

    def unit(self, profile: PokerProfile, round_no: int, opening: int) -> int:
        """The limit unit and the no-limit / pot-limit minimum bet of one betting round.

        Stud: "rounds 1 and 2 = BRING-IN, rounds 3 and 4 = 2 x BRING-IN" (limit); "the minimum
        bet is the BRING-IN" (no-limit, pot-limit). Draw: "round 1 = opening blind, round 2 =
        2 x opening blind" (limit); "minimum bet = opening blind" (no-limit, pot-limit).
        """
        if profile.is_stud:
            doubled = profile.structure == "limit" and round_no >= 3
            return self.bring_in * (2 if doubled else 1)
        return opening * (2 if profile.structure == "limit" and round_no == 2 else 1)

    def to_dict(self, profile: PokerProfile) -> dict[str, int]:
        if profile.is_stud:
            return {"ante": self.ante, "bring_in": self.bring_in}
        return {"small_blind": self.small_blind, "big_blind": self.big_blind,
                "over_blind": self.over_blind}


def make_stakes(profile: PokerProfile, data: Mapping[str, Any]) -> Stakes:
    """Stakes from plain integers, with the RULES.md defaults for the ones left out.

    Stud: "default BRING-IN = 2 x ANTE". Draw: "defaults BB = 2 x SB, OB = 2 x BB".
    """
    def need(name: str, default: int | None, minimum: int = 1) -> int:
        value = data.get(name, default)
        if value is None:
            raise StakeError("stakes.%(name)s is required", name=name, field=f"stakes.{name}")
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise StakeError("stakes.%(name)s must be a whole number of at least "
                             "%(minimum)s", name=name,
                             minimum=minimum,
                             field=f"stakes.{name}", value=value if isinstance(value, int)
                             else repr(value))
        return value

    if profile.is_stud:
        ante = need("ante", None, minimum=0)
        return Stakes(ante=ante, bring_in=need("bring_in", 2 * ante if ante else None))
    small = need("small_blind", None)
    big = need("big_blind", 2 * small)
    return Stakes(small_blind=small, big_blind=big, over_blind=need("over_blind", 2 * big))


_PROFILES: dict[str, PokerProfile] = {}


def register_poker_profile(profile: PokerProfile) -> PokerProfile:
    if _PROFILES.get(profile.name, profile) is not profile:
        raise HouseRulesError("profile '%(name)s' is already registered", name=profile.name,
                              field="name",
                              value=profile.name)
    _PROFILES[profile.name] = profile
    return profile


def get_poker_profile(name: str) -> PokerProfile:
    """The registered poker profile ``name``; the error lists the known ones."""
    profile = _PROFILES.get(name)
    if profile is None:
        known = ", ".join(sorted(_PROFILES))
        raise HouseRulesError("unknown poker profile '%(name)s' (known: %(known)s)",
                              name=name, known=known,
                              field="profile", value=name)
    return profile


def poker_profiles() -> tuple[PokerProfile, ...]:
    return tuple(_PROFILES.values())


for _structure in STRUCTURES:
    register_poker_profile(PokerProfile(name=f"americana-{_structure}", game=STUD,
                                        structure=_structure, ranking=AMERICANA,
                                        max_players=6))
    register_poker_profile(PokerProfile(name=f"draw32-{_structure}", game=DRAW,
                                        structure=_structure, ranking=DRAW32, max_players=5))
