"""The house games' calculators: ``POST /api/v1/{game}/settle`` and ``/split/suggest``.

A calculator's engine reads a body by settling it (every refusal a 422 naming its field), so
``SettleRequest`` reads with the game's ``settle_request`` and holds the settlement it read;
``SuggestRequest`` runs the engine's field readers and holds the cards and figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from ...rules.cards import Card as PlayingCard
from ...rules.fields import RequestError, get_cards, get_int, get_str, need_mapping
from ...rules.games.stud import SplitProfile
from ...rules.games.stud.split_suggest import DEFAULT_SAMPLES
from ...rules.profiles import get_profile
from ...rules.settlement import Settlement as Settled
from .base import Absent, Card, Cards, Context, Label, Money, OptionalCards, Request, Shape

Opt = Money | None


class Table(Shape):
    """The table's limits; each one left out falls back to the profile's default."""

    min_ante: Opt = None
    max_ante: Opt = None
    max_payout: Opt = None


class DiscardDraw(Shape):
    discard: OptionalCards = None
    draw: OptionalCards = None


class Improvement(Shape):
    """Russian poker: exactly one of exchange and sixth_card; Oasis: replace."""

    exchange: DiscardDraw | None = None
    sixth_card: Card | list[Card] | None = None
    replace: DiscardDraw | None = None


class Extra(Shape):
    """Big/Small: the two extra cards, free or bought."""

    mode: Literal["free", "bought"] | None = None
    cards: OptionalCards = None


class SplitHands(Shape):
    """Big/Small: the box's seven cards split into a five-card and a two-card hand."""

    big: OptionalCards = None
    small: OptionalCards = None


class BoxPlayer(Shape):
    """Who plays the box: exactly one of a seat letter (an anonymous player) or a
    player card (a rated player, registered when he sat down). A player's boxes follow seed
    001's rules in Russian poker: at most 4, one ANTE, the dark course after the first."""

    seat: Annotated[str | None, Field(description="a seat letter, A to Z (either case)",
                                      examples=["A"])] = None
    card: Annotated[str | None, Field(description="a player card number: 1 to 20 letters, "
                                                  "digits or dashes (either case)",
                                      examples=["100234"])] = None


class SettleBox(Shape):
    box: Label | None = None
    seat: Label | None = None
    player: BoxPlayer | None = None
    ante: Money
    bonus: Opt = None
    cards: Cards
    improvement: Improvement | None = None
    extra: Extra | None = None
    split: SplitHands | None = None
    decision: Literal["bet", "fold"] | None = None
    bet: Opt = None
    insurance: Opt = None
    on_no_game: Literal["take_ante", "buy_game"] | None = None


class SettleDealer(Shape):
    cards: Cards
    draw: OptionalCards = None
    small: OptionalCards = None


class SettleRequest(Request[Settled]):
    """One complete round of a house game."""

    profile: Annotated[str | None, Field(examples=["russian-classic"])] = None
    table: Table | None = None
    dealer: SettleDealer
    boxes: Annotated[list[SettleBox], Field(min_length=1)]

    @classmethod
    def read(cls, body: Any, context: Context) -> Settled:
        """The game's engine reads the round by settling it (``context["settle"]``: the
        game's ``GameSpec.settle_request``; every refusal names its field)."""
        settle: Callable[[Mapping[str, Any]], Settled] = context["settle"]
        return settle(need_mapping(body, ""))


class Hand(Shape):
    """A hand's value: its category, the five cards used, the significant cards, a label."""

    category: str | Absent = None
    label: str | Absent = None
    cards: list[Card] | Absent = None
    significant: list[Card] | Absent = None


class Wager(Shape):
    stake: Money
    outcome: Literal["win", "lose", "push"]
    net: Money
    explanation: str


class Combination(Shape):
    category: str | Absent = None
    cards: list[Card] | Absent = None
    multiplier: int | Absent = None


class BoxSettlement(Shape):
    box: str
    seat: str
    player: BoxPlayer | Absent = None
    folded: bool
    hand: Hand | None = None
    small_hand: Hand | None = None
    wagers: dict[str, Wager]
    net: Money
    capped: bool
    explanation: str | Absent = None
    combinations: list[Combination]
    notes: list[str] | Absent = None


class DealerSettlement(Shape):
    cards: list[Card]
    hand: Hand | None = None
    qualified: bool
    bought: bool | Absent = None
    replaced: Annotated[list[Card] | Absent, Field(
        description="a bought game: the card(s) the dealer gave up")] = None
    drawn: Annotated[list[Card] | Absent, Field(
        description="a bought game: the card(s) he drew for them")] = None
    new_cards: list[Card] | Absent = None
    new_hand: Hand | None = None
    new_qualified: bool | None = None
    small: Annotated[list[Card] | Absent, Field(
        description="Big/Small: the dealer's Small Hand")] = None
    small_hand: Hand | None = None


class Settlement(Shape):
    """Every wager of every box, with the reason for each figure."""

    game: str
    profile: str
    dealer: DealerSettlement
    boxes: list[BoxSettlement]
    house_net: Money
    notes: list[str] | Absent = None


MAX_SAMPLES = 50_000


@dataclass(frozen=True)
class SplitAsked:
    profile: SplitProfile
    cards: tuple[PlayingCard, ...]
    dealer_up: PlayingCard
    known: tuple[PlayingCard, ...]
    seed: int
    samples: int
    top: int


class SuggestRequest(Request[SplitAsked]):
    profile: str | None = "split-classic"
    cards: Cards
    dealer_up: Cards
    known: OptionalCards = None
    seed: int | None = None
    # the ceiling is the default of SPLIT_MAX_SAMPLES, which the engine applies (a 422 naming
    # the field); documented, not enforced here, so a configured higher cap still works
    samples: Annotated[int | None, Field(
        ge=100, description="above the cap (SPLIT_MAX_SAMPLES) a 422 names it",
        json_schema_extra={"maximum": MAX_SAMPLES})] = None
    top: Annotated[int | None, Field(ge=1)] = None

    @classmethod
    def read(cls, body: Any, context: Context) -> SplitAsked:
        """``context["max_samples"]``: the cap (``SPLIT_MAX_SAMPLES``)."""
        body = need_mapping(body, "")
        profile = get_profile(get_str(body, "profile", default="split-classic"), "split")
        if not isinstance(profile, SplitProfile):  # get_profile(..., "split") promises it
            raise TypeError(f"{profile.name} is no split profile")
        cards = get_cards(body, "cards", count=7)
        (up,) = get_cards(body, "dealer_up", count=1)
        known = get_cards(body, "known", default=[])
        seed = get_int(body, "seed", default=0)
        samples = get_int(body, "samples", default=DEFAULT_SAMPLES, minimum=100)
        cap = int(context.get("max_samples", MAX_SAMPLES))
        if samples > cap:
            raise RequestError(f"samples must be at most {cap:,}", field="samples",
                               value=samples)
        top = get_int(body, "top", default=3, minimum=1)
        return SplitAsked(profile, cards, up, tuple(known), seed, samples, top)


class SplitOption(Shape):
    big: list[Card]
    small: list[Card]
    big_hand: str | Absent = None
    small_hand: str | Absent = None
    ev: float
    se: float
    counts: dict[str, int] | Absent = None
    explanation: str | Absent = None


class Suggestion(Shape):
    """The 21 ways to split, best first, against folding."""

    cards: list[Card] | Absent = None
    dealer_up: Card | Absent = None
    samples: int
    method: str
    unit: str
    fold_ev: float
    fold_is_better: bool
    explanation: Annotated[list[str] | Absent, Field(
        description="the best splits and the fold, in plain words")] = None
    options: list[SplitOption]
