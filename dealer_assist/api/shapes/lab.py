"""The game-math lab's advisor: ``POST /api/v1/lab/advise`` (``api/lab.py``).

Shapes only: the view reads the same body with the engine's field readers (a broken rule, an
unknown card or stage is a 422 naming the field); these classes document it and check the rest.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Card, Cards, OptionalCards, Shape

#: the default of LAB_MAX_PRECISE (a configured cap is applied by the view: a 422 naming it)
MAX_PRECISE = 2000

Action = Literal["fold", "bet", "raise", "exchange", "sixth_card", "replace", "free_extra",
                 "bought_extra", "split", "take_ante", "buy_game"]
Method = Literal["exact", "model", "model+monte-carlo", "monte-carlo"]


class AdviseRequest(Shape):
    """A box's cards at one stage of a round, and the profile whose rules apply."""

    profile: Annotated[str, Field(examples=["russian-classic"])]
    stage: Annotated[Literal["deal", "split", "no_game"] | None, Field(
        description="deal (five cards, and the dealer's up card where shown), split "
                    "(Big/Small: seven cards), no_game (the final hand against the dealer's "
                    "five cards); default deal")] = None
    cards: Cards
    up: OptionalCards = None
    dealer: OptionalCards = None
    small: OptionalCards = None
    seen: OptionalCards = None
    ante: Annotated[int | None, Field(ge=1)] = None
    bonus: Annotated[int | None, Field(ge=0)] = None
    precise: Annotated[int | None, Field(
        ge=0, description="sampled draws per modelled option to correct and state the "
                          "model's error; above the cap (LAB_MAX_PRECISE) a 422 names it",
        json_schema_extra={"maximum": MAX_PRECISE})] = None


class AdviceOption(Shape):
    """One option the rules allow, with its expected result."""

    action: Action
    cards: Annotated[list[Card], Field(
        description="the cards the option names: discarded or replaced cards, a split's "
                    "Small Hand")]
    label: str
    ev: Annotated[float, Field(description="expected result per ANTE")]
    ev_chips: Annotated[float, Field(description="the same for the box's ANTE")]
    se: Annotated[float, Field(description="standard error of ev (0: exact or model)")]
    method: Method


class Advice(Shape):
    """Every option of the box, best first."""

    profile: str
    game: str
    stage: str
    ante: int
    unit: str
    seconds: float
    notes: list[str]
    best: AdviceOption
    options: list[AdviceOption]
