"""The player cards a round's boxes name: each must be a registered card.

Here, with the round's steps, rather than with the cards' own service (``services.players``),
which reads the rounds for its ratings: the record path checks, the players' service reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from ...models import PlayerCard
from ...rules.games.stud.actions import PlaceBox
from ..errors import ValidationError


def check_cards(session: Session, places: Iterable[PlaceBox]) -> None:
    """Every card a ``place`` names is a registered player card (the n-th box's field)."""
    named = [(i, p.player.card) for i, p in enumerate(places)
             if p.player is not None and p.player.card]
    if not named:
        return
    known = set(session.exec(select(PlayerCard.card).where(
        col(PlayerCard.card).in_(sorted({c for _i, c in named})))).all())
    for i, card in named:
        if card not in known:
            raise ValidationError("No player card %(card)s: seat the rated player first.",
                                  card=card, field=f"boxes[{i}].player.card")
