"""The decision advisor's answer, shared by the advisor (``advice``) and each game's options
(``advise_russian``, ``advise_stud``, ``advise_split``): an :class:`Option`, the
:class:`Advice` of a stage, and cards as card indices."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..rules.cards import ALL_CARDS, Card, parse_cards
from ..rules.errors import IllegalActionError


@dataclass(frozen=True)
class Option:
    """One choice: ``action`` (``fold``, ``bet``, ``raise``, ``exchange``, ``sixth_card``,
    ``replace``, ``free_extra``, ``bought_extra``, ``split``, ``take_ante``, ``buy_game``)
    and the cards it names (discarded cards; a split's Small Hand), as card indices."""

    action: str
    cards: tuple[int, ...]
    ev: float
    se: float
    method: str
    #: variance of the option's result (ANTEs squared) when it is known exactly, else None
    variance: float | None = None

    def same_as(self, action: str, cards: tuple[int, ...] = ()) -> bool:
        return self.action == action and sorted(self.cards) == sorted(cards)


@dataclass(frozen=True)
class Advice:
    profile: str
    game: str
    stage: str
    options: list[Option]
    seconds: float
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> Option:
        return self.options[0]

    def find(self, action: str, cards: tuple[int, ...] = ()) -> Option | None:
        return next((o for o in self.options if o.same_as(action, cards)), None)


_CODES = {c.index: c.code for c in ALL_CARDS}


def as_text(cards: Any) -> Any:
    """Card codes, Card objects or card indices (ints) as something ``parse_cards`` reads."""
    if isinstance(cards, str):
        return cards
    if isinstance(cards, (int, np.integer)):
        return _CODES[int(cards)]
    return [_CODES[int(c)] if isinstance(c, (int, np.integer)) else c for c in cards]


def card_indices(cards: Any, what: str) -> np.ndarray:
    """Card codes, Card objects or indices as sorted card indices; errors name ``what``."""
    parsed = parse_cards(as_text(cards), what=what)
    return np.array(sorted(c.index for c in parsed), dtype=np.int64)


def dealer_five(dealer: Any) -> np.ndarray:
    """The dealer's five cards a no-game decision faces (refused by name when not five)."""
    d = None if dealer is None else card_indices(dealer, "dealer")
    if d is None or len(d) != 5:
        raise IllegalActionError("the dealer's five cards are needed", field="dealer",
                                 value=None if d is None else len(d))
    return d


def one_card(up: Any) -> int:
    if up is None:
        raise IllegalActionError("this game shows a dealer's card: give it as 'up'",
                                 field="up", value=None)
    cards = card_indices([up] if isinstance(up, (str, int, np.integer, Card)) else up, "up")
    if len(cards) != 1:
        raise IllegalActionError("'up' is one card", field="up", value=len(cards))
    return int(cards[0])
