"""The game-math lab's advisor: ``POST /api/v1/lab/advise`` (``api/lab.py``).

The request is read with the engine's field readers (a broken rule, an unknown card or stage is
a 422 naming the field), then checked against its shape; the dealer's, the seen and the Small
Hand's cards are read after that check, as they always were.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from ...lab.advice import STAGES
from ...rules.cards import Card as PlayingCard
from ...rules.fields import RequestError, get_cards, get_int, get_str, need_mapping
from ...rules.profiles import HouseProfile, get_profile
from .base import Card, Cards, Context, OptionalCards, Request, Shape

#: the default of LAB_MAX_PRECISE (a configured cap is applied by the view: a 422 naming it)
MAX_PRECISE = 2000

Action = Literal["fold", "bet", "raise", "exchange", "sixth_card", "replace", "free_extra",
                 "bought_extra", "split", "take_ante", "buy_game"]
Method = Literal["exact", "model", "model+monte-carlo", "monte-carlo"]


Cards_ = list[PlayingCard]


@dataclass(frozen=True)
class Asked:
    """A box's cards at a stage, as read (the cards as the engine's readers gave them)."""

    profile: HouseProfile
    stage: str
    cards: tuple[PlayingCard, ...]
    up: Cards_ | None
    ante: int
    bonus: int
    precise: int
    dealer: Cards_ | None = None
    seen: Cards_ | None = None
    small: Cards_ | None = None


def _optional_cards(body: Mapping[str, Any], name: str) -> Cards_ | None:
    return list(get_cards(body, name)) if body.get(name) is not None else None


class AdviseRequest(Request[Asked]):
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

    @classmethod
    def read(cls, body: Any, context: Context) -> Asked:
        """``context["max_precise"]``: the cap (``LAB_MAX_PRECISE``)."""
        body = need_mapping(body, "")
        profile = get_profile(get_str(body, "profile"))
        stage = get_str(body, "stage", default="deal", choices=STAGES)
        cards = get_cards(body, "cards")
        up = _optional_cards(body, "up")
        ante = get_int(body, "ante", default=profile.min_ante, minimum=1)
        bonus = get_int(body, "bonus", default=0, minimum=0)
        precise = get_int(body, "precise", default=0, minimum=0)
        limit = int(context.get("max_precise", MAX_PRECISE))
        if precise > limit:
            raise RequestError(f"precise must be at most {limit:,}", field="precise",
                               value=precise)
        return Asked(profile, stage, cards, up, ante, bonus, precise)

    @classmethod
    def then(cls, body: Any, context: Context, got: Asked) -> Asked:
        return dataclasses.replace(got, dealer=_optional_cards(body, "dealer"),
                                   seen=_optional_cards(body, "seen"),
                                   small=_optional_cards(body, "small"))


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
