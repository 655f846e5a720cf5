"""Main pot and side pots for the player-versus-player games (Americana stud, 32-card draw).

RULES.md: "Side pots: an all-in player can win only the pots he contributed to; each pot goes to
the best hand among its contributors; a split pot's odd chip goes by the house rule (default: to
the first winner left of the button)."

Pure and integer-only: contributions in, pots and awards out. Hands are compared through any
ordered value (a ``HandValue`` or an ``int`` from ``rank_key``); equal values split a pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .errors import RulesError, StakeError


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


H = TypeVar("H", bound=_Ordered)


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the players who may win it (those who put in its full level)."""

    amount: int
    eligible: tuple[str, ...]


def build_pots(contributions: Mapping[str, int], folded: frozenset[str] = frozenset(),
               ) -> tuple[Pot, ...]:
    """Split the chips into a main pot and side pots, lowest all-in level first.

    Each distinct level of contribution makes a layer; a folded player's chips stay in the pots
    he fed but he is eligible for none. A layer only one player reached that nobody matched is
    an uncalled bet: it is a pot with that player alone, so he gets it back.
    """
    for player, amount in contributions.items():
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise StakeError("%(player)s's contribution must be a whole number >= 0",
                             player=player,
                             field=f"contributions.{player}", value=repr(amount))
    pots: list[Pot] = []
    previous = 0
    for level in sorted({a for a in contributions.values() if a > 0}):
        amount = sum(min(a, level) - min(a, previous) for a in contributions.values())
        eligible = tuple(p for p, a in contributions.items() if a >= level and p not in folded)
        if not eligible:  # only folded players reached this level: their own excess comes back
            eligible = tuple(p for p, a in contributions.items() if a >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    return tuple(pots)


def award_pots(pots: Sequence[Pot], hands: Mapping[str, H],
               order_from_button: Sequence[str]) -> dict[str, int]:
    """Who wins what: each pot to the best hand(s) among its eligible players.

    ``order_from_button`` lists the players clockwise starting left of the button; a split pot's
    odd chips go one by one to the winners in that order (the default house rule).
    """
    won: dict[str, int] = {p: 0 for p in order_from_button}
    for n, pot in enumerate(pots):
        missing = [p for p in pot.eligible if p not in won]
        if missing:
            raise RulesError("%(v)s is not seated at the table", v=missing[0], field=f"pots[{n}]",
                             value=missing[0])
        for player, amount in award_pot(pot, hands, order_from_button).items():
            won[player] += amount
    return won


def award_pot(pot: Pot, hands: Mapping[str, H] | None,
              order_from_button: Sequence[str]) -> dict[str, int]:
    """One pot: its winners, in ``order_from_button``, and what each gets (the poker engine's
    showdown and :func:`award_pots` both award this way).

    The best hand(s) among its eligible players who showed win it; nobody contends (``hands``
    None: everyone else folded, or Parole; or none of them showed: an uncalled bet) and its
    eligible players share it. A split pot's odd chips go one by one in that order."""
    shown = [p for p in pot.eligible if hands is not None and p in hands]
    if hands is not None and shown:  # a mucked hand contends for nothing
        best = max(hands[p] for p in shown)
        winners = [p for p in shown if not hands[p] < best]
    else:
        winners = list(pot.eligible)
    winners.sort(key=list(order_from_button).index)
    share, odd = divmod(pot.amount, len(winners))
    return {p: share + (1 if i < odd else 0) for i, p in enumerate(winners)}
