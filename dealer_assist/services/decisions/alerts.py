"""The advantage-play alert: decisions that beat the best strategy by more than chance allows.

A player who sees what he should not (the dealer's hole cards, his neighbours' boxes) makes
decisions the best strategy would not, and they pay: he buys the dealer's game exactly when
the next card helps, takes insurance exactly when the dealer has no game. For an honest player
a decision's result, given what he knew, has the expectation the advisor computes, whichever
option he chose; so over his decisions that differ from the best option, the sum of
(result - expected result of the option chosen) is a sum of zero-mean terms with known
variances. The alert fires when that sum lies more than ``Z_LIMIT`` standard deviations above
zero (one-sided p < 0.0014) over at least ``MINIMUM`` such decisions *and* the decisions
returned more than the best options would have been expected to: the player beat the best
strategy's expectation, which no honest deviation does on average.

Until players are recorded a player is a seat of the shift's table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .judged import Judged

Z_LIMIT = 3.0
MINIMUM = 5


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's (seat's) judged decisions over a session, in chips."""

    seat: str
    decisions: int
    differing: int
    ev_given_up: float
    #: over the differing decisions with a known spread: how many, what they returned above
    #: their own expectation (luck), its standard deviation, and above the best options'
    tested: int
    luck: float
    sd: float
    beat_best: float
    #: ``seat`` names a player; False: a box that names no player, standing for its own
    named: bool = True

    @property
    def z(self) -> float:
        return self.luck / self.sd if self.sd > 0 else 0.0

    @property
    def alert(self) -> bool:
        return self.tested >= MINIMUM and self.z > Z_LIMIT and self.beat_best > 0

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "differing": self.differing,
                "ev_given_up": round(self.ev_given_up, 2), "tested": self.tested,
                "luck": round(self.luck, 2), "sd": round(self.sd, 2), "z": round(self.z, 2),
                "beat_best": round(self.beat_best, 2), "alert": self.alert,
                "named": self.named}


def player_figures(seat: str, judged: list[Judged]) -> PlayerFigures:
    """The figures of one player's judged decisions (calls this per player)."""
    differing = [j for j in judged if j.differs]
    tested = [(j, j.realized, j.variance) for j in differing
              if j.realized is not None and j.variance is not None]
    luck = sum((r - j.ev_chosen) * j.ante for j, r, _v in tested)
    var = sum(v * j.ante ** 2 for j, _r, v in tested)
    beat = sum((r - j.ev_best) * j.ante for j, r, _v in tested)
    return PlayerFigures(seat, len(judged), len(differing),
                         sum(j.ev_lost_chips for j in judged), len(tested), luck,
                         math.sqrt(var), beat, any(j.named for j in judged))


def by_player(judged: list[Judged]) -> list[PlayerFigures]:
    seats: dict[str, list[Judged]] = {}
    for j in judged:
        seats.setdefault(j.seat, []).append(j)
    return [player_figures(s, seats[s]) for s in sorted(seats, key=lambda s: (len(s), s))]
