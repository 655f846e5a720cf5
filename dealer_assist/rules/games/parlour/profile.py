"""The parlour board as data: its sections, the cards that win each, the antes and variants.

RULES.md "Parlour Americana": the default sections are ``ante``, ``8-9-10`` (8, 9 and 10 of any
one suit), ``KQ-clubs`` and the single cards ``Ah Kh Qh Jh 10h``. A section is won by holding
every card of any one of its alternatives; the ``ante`` section is won by the play-out instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...cards import SUITS, Card, Suit
from ...errors import HouseRulesError
from ...ranking import Ranking, get_ranking

ANTE = "ante"
VARIANTS = ("basic", "clockwise")
#: play-out order of equal ranks (RULES.md: "equal ranks: clubs, diamonds, hearts, spades")
PLAY_SUIT_ORDER: tuple[Suit, ...] = (Suit.clubs, Suit.diamonds, Suit.hearts, Suit.spades)


def play_order(card: Card) -> tuple[int, int]:
    """Sort key for "lowest card": ace high, then clubs < diamonds < hearts < spades."""
    return card.rank, PLAY_SUIT_ORDER.index(card.suit)


@dataclass(frozen=True, slots=True)
class Section:
    """One space of the board. ``wins``: alternatives, each a set of cards that takes it."""

    name: str
    wins: tuple[frozenset[Card], ...] = ()

    def held_by(self, hand: frozenset[Card]) -> bool:
        return any(alt <= hand for alt in self.wins)


@dataclass(frozen=True, slots=True)
class ParlourProfile:
    """A house's parlour board; validated on construction so a bad profile never loads."""

    name: str
    sections: tuple[Section, ...]
    ranking: Ranking = field(default_factory=lambda: get_ranking("standard"))
    min_players: int = 2
    max_players: int = 9
    #: chips each player puts in the pool and in each section; the dealer puts dealer_ante
    player_ante: int = 1
    dealer_ante: int = 2
    default_variant: str = "basic"

    def __post_init__(self) -> None:
        names = [s.name for s in self.sections]
        if ANTE not in names:
            raise HouseRulesError("a parlour board needs an 'ante' section", field="sections")
        if len(set(names)) != len(names):
            raise HouseRulesError("a section is named twice", field="sections", value=names)
        for s in self.sections:
            if s.name != ANTE and not s.wins:
                raise HouseRulesError("section '%(name)s' has no cards that win it",
                                      name=s.name,
                                      field="sections", value=s.name)
        if not 2 <= self.min_players <= self.max_players <= 51:
            raise HouseRulesError("players must be 2 <= min <= max <= 51", field="max_players")
        if self.player_ante < 0 or self.dealer_ante < 0:
            raise HouseRulesError("antes are whole chips, at least 0", field="player_ante")
        if self.default_variant not in VARIANTS:
            raise HouseRulesError("unknown variant", field="default_variant",
                                  value=self.default_variant)

    @property
    def section_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.sections)

    def section(self, name: str) -> Section:
        for s in self.sections:
            if s.name == name:
                return s
        raise HouseRulesError("unknown section '%(name)s'", name=name, field="sections", value=name)


def _cards(*codes: str) -> frozenset[Card]:
    return frozenset(Card.of(c) for c in codes)


def _eight_nine_ten() -> tuple[frozenset[Card], ...]:
    return tuple(_cards(f"8{s.value}", f"9{s.value}", f"T{s.value}") for s in SUITS)


DEFAULT_PROFILE = ParlourProfile(
    name="parlour-americana",
    sections=(
        Section(ANTE),
        Section("8-9-10", _eight_nine_ten()),
        Section("KQ-clubs", (_cards("Kc", "Qc"),)),
        Section("Ah", (_cards("Ah"),)),
        Section("Kh", (_cards("Kh"),)),
        Section("Qh", (_cards("Qh"),)),
        Section("Jh", (_cards("Jh"),)),
        Section("10h", (_cards("Th"),)),
    ),
)

PARLOUR_PROFILES: Mapping[str, ParlourProfile] = {DEFAULT_PROFILE.name: DEFAULT_PROFILE}


def get_parlour_profile(name: str) -> ParlourProfile:
    """The parlour profile ``name``; a ``HouseRulesError`` naming it otherwise."""
    try:
        return PARLOUR_PROFILES[name]
    except KeyError:
        known = ", ".join(sorted(PARLOUR_PROFILES))
        raise HouseRulesError("unknown profile '%(name)s' (known: %(known)s)", name=name,
                              known=known, field="profile",
                              value=name) from None
