"""Parlour Americana: ``POST /api/v1/parlour/hand`` and ``/parlour/end``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from ...rules.fields import need_mapping
from ...rules.games.parlour.calculator import end_of_game_request, settle_hand_request
from ...rules.games.parlour.hand import EndOfGame, HandResult
from .base import (
    Absent,
    Card,
    Cards,
    ChipsBySeat,
    Context,
    Money,
    Player,
    PlayerLabel,
    Request,
    Shape,
)

Players = list[Player]
Hands = Annotated[dict[str, Cards], Field(description="player -> cards")]
Labels = Annotated[dict[str, str], Field(description="player -> hand name")]
DEFAULT_PROFILE = "parlour-americana"


class ParlourBoard(Shape):
    pool: int | None = None
    sections: Annotated[dict[str, int] | None, Field(
        description="ante, 8-9-10, KQ-clubs, Ah, Kh, Qh, Jh, 10h; a section left out holds 0")] \
        = None


class ExtraHand(Shape):
    action: Literal["keep", "exchange", "sell"]
    buyer: PlayerLabel | None = None
    price: int | None = None


class ParlourBet(Shape):
    player: PlayerLabel
    type: Literal["bet", "call", "raise", "pass"]
    amount: Annotated[int | None, Field(
        description="bet and raise: chips added above the current bet")] = None


class ParlourHandRequest(Request[HandResult]):
    """One whole hand: the players, the board, the hands dealt, the extra hand, the betting."""

    profile: str | None = DEFAULT_PROFILE
    variant: Literal["basic", "clockwise"] | None = None
    players: Annotated[Players, Field(description="the dealer first, then clockwise")]
    board: ParlourBoard | None = None
    hands: Hands
    extra: Cards
    extra_hand: ExtraHand | None = None
    betting: list[ParlourBet] | None = None

    @classmethod
    def read(cls, body: Any, context: Context) -> HandResult:
        """The engine reads the hand by playing it (every refusal names its field): the
        result is what it read."""
        return settle_hand_request(need_mapping(body, ""))


class PoolResult(Shape):
    amount: Money
    winners: Players
    awards: ChipsBySeat
    outcome: Literal["no_bet", "uncalled", "showdown"] | Absent = None
    shows: Players | Absent = None
    hands: Labels | Absent = None


class SectionResult(Shape):
    chips: Money
    winners: Players
    awards: ChipsBySeat
    to_ante: Money


class Play(Shape):
    player: Player | Absent = None
    card: Card | Absent = None
    lead: bool | Absent = None
    pays: int | Absent = None
    stop: Card | Absent = None
    leads: Player | Absent = None


class Playout(Shape):
    plays: list[Play]
    winner: str
    paid_during: ChipsBySeat
    payments: ChipsBySeat
    ante_won: Money


class ParlourHand(Shape):
    """Every chip movement of the hand, and the board to carry on."""

    antes: ChipsBySeat
    held: Hands | Absent = None
    dead: list[Card] | Absent = None
    pool: PoolResult
    sections: dict[str, SectionResult]
    playout: Playout
    board_after: ParlourBoard
    net: ChipsBySeat


class ParlourEndRequest(Request[EndOfGame]):
    """The end-of-game deal: five cards face up each."""

    profile: str | None = DEFAULT_PROFILE
    players: Players
    board: ParlourBoard | None = None
    hands: Annotated[dict[str, Cards], Field(description="player -> five cards, face up")]

    @classmethod
    def read(cls, body: Any, context: Context) -> EndOfGame:
        return end_of_game_request(need_mapping(body, ""))


class ParlourEnd(Shape):
    winners: Players
    awards: ChipsBySeat
    hands: Labels
    left: Money
