"""Russian poker's own steps (seed 001): an improvement (exchange or sixth card), insurance and
the redeal. Every other step is a shared house step (``stud/actions.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from ...cards import Card
from ..stud.actions import SharedStep


@dataclass(frozen=True, slots=True)
class Exchange:
    """One improvement: discard 1..5 cards and draw as many, for the improvement fee.

    Dealing order: ``count`` cards exchanged face down (``discard`` empty; ``draw`` the new
    cards if the croupier saw them, else empty)."""

    box: str
    discard: tuple[Card, ...]
    draw: tuple[Card, ...]
    count: int = 0


@dataclass(frozen=True, slots=True)
class SixthCard:
    """One improvement: buy a sixth card, for the improvement fee (``None``: face down)."""

    box: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class Insure:
    """Insurance against the dealer's "no game" (three of a kind or better); ``cards``: the
    hand the player shows to insure (empty when the round already knows it)."""

    box: str
    amount: int
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class Redeal:
    """A box received a wrong number of cards: the round is void, nothing is paid."""

    box: str
    cards_received: int


RussianStep: TypeAlias = SharedStep | Exchange | SixthCard | Insure | Redeal
"""Any step of Russian poker."""
