"""The "Ante" play-out (RULES.md "Ante play-out"), fully determined by the hands and dead hand.

The dealer leads his lowest card (ace high; equal ranks clubs < diamonds < hearts < spades); the
holder of the next higher card of that suit plays it, up to the ace or a stop (the next card is in
the dead hand or already played). Whoever played last leads his lowest card of another suit (if he
has none, the next player clockwise who has one; if nobody has, his own lowest card). The first
player out of cards wins. In the ``clockwise`` variant (the seed's "Optional Play") each player in
turn from the left of the last player plays the next card or pays 1 chip to the ``ante`` section;
when the turn is back with the last player he plays it if he holds it, otherwise it is a stop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...cards import Card, Suit
from .profile import play_order


@dataclass(slots=True)
class Playout:
    """Every step (plays, payments, stops), the winner, and who pays what into the ``ante``."""

    plays: list[dict[str, Any]] = field(default_factory=list)
    winner: str = ""
    paid_during: dict[str, int] = field(default_factory=dict)
    #: what each player other than the winner pays afterwards: 1 chip per card still held
    payments: dict[str, int] = field(default_factory=dict)
    left: dict[str, tuple[Card, ...]] = field(default_factory=dict)


class _Table:
    """Who holds what during the play-out; ``play`` reports the first player out of cards."""

    def __init__(self, players: Sequence[str], hands: Mapping[str, Sequence[Card]],
                 dead: Sequence[Card]) -> None:
        self.players = tuple(players)
        self.held = {p: sorted(hands[p], key=play_order) for p in players}
        self.owner = {c: p for p in players for c in hands[p]}
        self.gone: set[Card] = set(dead)
        self.out = Playout(paid_during={p: 0 for p in players})

    def left_of(self, player: str) -> tuple[str, ...]:
        """The other players clockwise, starting at ``player``'s left."""
        i = self.players.index(player)
        return self.players[i + 1:] + self.players[:i]

    def play(self, player: str, card: Card, lead: bool = False) -> bool:
        self.held[player].remove(card)
        self.gone.add(card)
        step: dict[str, Any] = {"player": player, "card": card.code}
        if lead:
            step["lead"] = True
        self.out.plays.append(step)
        if not self.held[player]:
            self.out.winner = player
        return bool(self.out.winner)

    def lowest_other_suit(self, player: str, suit: Suit) -> Card | None:
        return next((c for c in self.held[player] if c.suit != suit), None)

    def next_lead(self, last: str, suit: Suit) -> tuple[str, Card]:
        for p in (last, *self.left_of(last)):
            card = self.lowest_other_suit(p, suit)
            if card is not None:
                return p, card
        return last, self.held[last][0]


def _turn_round(t: _Table, last: str, nxt: Card) -> str | None:
    """Clockwise variant: players from ``last``'s left pay 1 chip each until the holder of
    ``nxt`` is reached; ``None`` (a stop) when nobody, ``last`` included, holds it."""
    holder = None if nxt in t.gone else t.owner[nxt]
    for p in t.left_of(last):
        if p == holder:
            return p
        t.out.paid_during[p] += 1
        t.out.plays.append({"player": p, "pays": 1, "card": nxt.code})
    return holder  # back with the last player: he plays it if he holds it


def _run(t: _Table, leader: str, card: Card, clockwise: bool) -> tuple[str, Card | None]:
    """Lead ``card`` and follow the suit up; (who played last, the stop card or None)."""
    if t.play(leader, card, lead=True):
        return leader, None
    last = leader
    for rank in range(card.rank + 1, 15):
        nxt = Card(rank, card.suit)
        holder: str | None
        if clockwise:
            holder = _turn_round(t, last, nxt)
        else:
            holder = None if nxt in t.gone else t.owner[nxt]
        if holder is None:
            return last, nxt
        if t.play(holder, nxt):
            return holder, None
        last = holder
    return last, None


def play_out(players: Sequence[str], hands: Mapping[str, Sequence[Card]], dead: Sequence[Card],
             variant: str = "basic") -> Playout:
    """Play the whole "Ante" out; ``players[0]`` is the dealer and leads first."""
    t = _Table(players, hands, dead)
    clockwise = variant == "clockwise"
    leader = players[0]
    card = t.held[leader][0]
    while True:
        last, stop = _run(t, leader, card, clockwise)
        if t.out.winner:
            break
        leader, card = t.next_lead(last, card.suit)
        if stop is not None:
            t.out.plays.append({"stop": stop.code, "leads": leader})
    t.out.payments = {p: len(t.held[p]) for p in players if p != t.out.winner}
    t.out.left = {p: tuple(t.held[p]) for p in players}
    return t.out
