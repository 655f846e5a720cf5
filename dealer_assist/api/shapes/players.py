"""Rated players' ratings: ``GET /api/v1/players/{card}/ratings``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from .base import Absent, Money, Shape, When


class AverageBet(Shape):
    """The initial wagers (ANTE and bonus) per round, as an exact fraction and rounded half up
    to a whole unit."""

    num: Money
    den: int
    rounded: Money | None


class RatingFigures(Shape):
    start: When | None
    end: When | None
    seconds: Annotated[int, Field(description="time played: first round to last round's end, "
                                              "or sit-down to leave when tapped")]
    rounds: int
    boxes: int
    average_bet: AverageBet
    wagered: Money
    win: Annotated[Money, Field(description="the house's win from him, fees included")]
    theoretical: Annotated[Money | None, Field(
        description="his ANTEs times the lab's house edge of each round's profile; null when a "
                    "round's profile has no figure (named in no_figure)")]
    no_figure: list[str]
    decisions_differing: Annotated[int | None, Field(
        description="his decisions that differ from the lab's strategy (null: not judged)")]
    buy_ins: Money | None


class RatingSlip(RatingFigures):
    """A rating slip: one table session."""

    table_id: int
    table: str
    game: str
    shift_id: int
    gaming_date: str


class RatingDay(RatingFigures):
    gaming_date: str
    sessions: list[RatingSlip]


class PlayerRatings(Shape):
    """One player's ratings: every gaming day (or the one asked for) and over them."""

    card: str
    name: Annotated[str | Absent, Field(description="his name, when one was given")] = None
    day: str | None
    total: RatingFigures | None
    days: list[RatingDay]
