"""The board's chips: antes into the pool and every section, and collecting the sections.

Chips on the board carry from hand to hand (RULES.md: "Chips nobody wins stay on the board for the
next hand"), so every function takes a board and returns a new one; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ...cards import Card
from ...errors import RulesError
from .profile import ANTE, ParlourProfile


@dataclass(frozen=True, slots=True)
class Board:
    """Chips in the pool and in each section (every section of the profile, in its order)."""

    pool: int
    sections: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def empty(cls, profile: ParlourProfile) -> Board:
        return cls(0, {name: 0 for name in profile.section_names})

    @property
    def total(self) -> int:
        return self.pool + sum(self.sections.values())

    def with_pool(self, pool: int) -> Board:
        return Board(pool, dict(self.sections))

    def add(self, name: str, chips: int) -> Board:
        """A new board with ``chips`` more (or fewer, when negative) in section ``name``."""
        sections = dict(self.sections)
        sections[name] = sections[name] + chips
        return Board(self.pool, sections)

    def to_dict(self) -> dict[str, object]:
        return {"pool": self.pool, "sections": dict(self.sections)}


def check_board(board: Board, profile: ParlourProfile) -> Board:
    """Every section of the profile present (missing ones are 0), none unknown, none negative."""
    unknown = [n for n in board.sections if n not in profile.section_names]
    if unknown:
        raise RulesError("the board has no section '%(v)s' (sections: %(v2)s)", v=unknown[0],
                         v2=', '.join(profile.section_names),
                         field=f"board.sections.{unknown[0]}", value=unknown[0])
    if board.pool < 0:
        raise RulesError("the pool cannot hold fewer than 0 chips", field="board.pool",
                         value=board.pool)
    for name, chips in board.sections.items():
        if chips < 0:
            raise RulesError("section %(name)s cannot hold fewer than 0 chips", name=name,
                             field=f"board.sections.{name}", value=chips)
    return Board(board.pool, {n: board.sections.get(n, 0) for n in profile.section_names})


def antes_of(players: Sequence[str], profile: ParlourProfile) -> dict[str, int]:
    """Each player's antes: 1 chip in the pool and 1 in each section; the dealer (first) 2 each."""
    spaces = 1 + len(profile.sections)
    return {p: spaces * (profile.dealer_ante if i == 0 else profile.player_ante)
            for i, p in enumerate(players)}


def put_antes(board: Board, players: Sequence[str], profile: ParlourProfile) -> Board:
    """The board after the antes: every space gets the dealer's and each other player's ante."""
    per_space = profile.dealer_ante + profile.player_ante * (len(players) - 1)
    return Board(board.pool + per_space,
                 {name: chips + per_space for name, chips in board.sections.items()})


@dataclass(frozen=True, slots=True)
class SectionAward:
    """One collected section: its chips, who held its cards, what each took, odd chips to ante."""

    chips: int
    winners: tuple[str, ...]
    awards: Mapping[str, int]
    to_ante: int

    def to_dict(self) -> dict[str, object]:
        return {"chips": self.chips, "winners": list(self.winners), "awards": dict(self.awards),
                "to_ante": self.to_ante}


def split_evenly(chips: int, winners: Sequence[str]) -> tuple[dict[str, int], int]:
    """``chips`` shared evenly by ``winners``: (each one's share, the odd chips left over)."""
    if not winners:
        return {}, chips
    share, odd = divmod(chips, len(winners))
    return {w: share for w in winners}, odd


def collect(board: Board, hands: Mapping[str, Sequence[Card]], players: Sequence[str],
            profile: ParlourProfile) -> tuple[Board, dict[str, SectionAward]]:
    """Every section but ``ante`` goes to the holder(s) of its cards (RULES.md "Collecting").

    Several holders share evenly and the odd chips go to the ``ante`` section; a section nobody
    holds keeps its chips. Winners are listed in seat order (dealer first).
    """
    held = {p: frozenset(hands[p]) for p in players}
    awards: dict[str, SectionAward] = {}
    after = board
    for section in profile.sections:
        if section.name == ANTE:
            continue
        chips = board.sections[section.name]
        winners = tuple(p for p in players if section.held_by(held[p]))
        if not winners:
            awards[section.name] = SectionAward(chips, (), {}, 0)
            continue
        shares, odd = split_evenly(chips, winners)
        awards[section.name] = SectionAward(chips, winners, shares, odd)
        after = after.add(section.name, -chips).add(ANTE, odd)
    return after, awards
