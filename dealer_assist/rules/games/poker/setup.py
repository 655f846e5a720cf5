"""The start of a hand: seats, antes (stud), blinds and missed-blind dues (draw).

RULES.md, 32-card draw: "small blind left of the button, big blind next; with 4 or 5 players
dealt in, the over blind next ... The largest blind posted (OB with 4-5 players, otherwise BB) is
the opening blind; it counts as the first bet of round 1." "Heads-up ... the player left of the
button posts the small blind and the button the big blind". Missed blinds: "a returning player
who missed the small blind posts an amount equal to the big blind; missed small and big: the big
blind plus a dead small blind; missed all three: the over blind plus a dead small and big blind.
A new player posts the over blind (the big blind without an over blind) ... Dues are owed only by
a player who is not in a blind position this hand; with 2-3 players (no over blind) "missed all
three" counts as missed small and big."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import IllegalActionError, RulesError, StakeError
from .betting import begin_round, next_to_act
from .draw import HAND_SIZE
from .profile import PokerProfile, Stakes
from .state import HandState, Posting

MISSED = ("small", "small_big", "all", "new")


@dataclass(frozen=True, slots=True)
class SeatEntry:
    """A player dealt in: his seat, chips behind before the hand, blinds he missed."""

    seat: str
    stack: int
    missed: str | None = None


def _check_seats(profile: PokerProfile, button: str, seats: Sequence[SeatEntry]) -> None:
    n = len(seats)
    if not profile.min_players <= n <= profile.max_players:
        raise RulesError("%(name)s is played by %(min_players)s to %(max_players)s players, "
                         "not %(n_)s", name=profile.name,
                         min_players=profile.min_players, max_players=profile.max_players,
                         n_=n, field="seats", value=n)
    names = [s.seat for s in seats]
    for i, entry in enumerate(seats):
        if names.index(entry.seat) != i:
            raise RulesError("seat %(seat)s is listed twice", seat=entry.seat,
                             field=f"seats[{i}].seat",
                             value=entry.seat)
        if entry.stack < 1:
            raise StakeError("seat %(seat)s has no chips and cannot be dealt in",
                             seat=entry.seat,
                             field=f"seats[{i}].stack", value=entry.stack)
        if entry.missed is not None and (profile.is_stud or entry.missed not in MISSED):
            if profile.is_stud:
                raise RulesError("stud has no blinds to miss", field=f"seats[{i}].missed",
                                 value=entry.missed)
            raise RulesError("missed is one of %(v)s", v=", ".join(MISSED),
                             field=f"seats[{i}].missed", value=entry.missed)
    if button not in names:
        raise RulesError("the button must be at one of the seats (%(v)s)",
                         v=', '.join(names),
                         field="button", value=button)


def post_forced(profile: PokerProfile, stakes: Stakes, button: str,
               seats: Sequence[SeatEntry]) -> HandState:
    """The state after the forced chips are posted, before anyone acts."""
    _check_seats(profile, button, seats)
    stacks = {s.seat: s.stack for s in seats}
    state = HandState(profile=profile, stakes=stakes, seats=tuple(stacks), button=button,
                      start=dict(stacks), stacks=stacks,
                      committed=dict.fromkeys(stacks, 0), dead={}, posted=(), status="street")
    if profile.is_stud:
        for seat in state.seats:
            state = _post(state, seat, "ante", stakes.ante, dead=False, bet=False)
        return state.but(unit=stakes.bring_in)
    return _post_blinds(state, seats)


def _post(state: HandState, seat: str, kind: str, amount: int, *, dead: bool,
          bet: bool) -> HandState:
    """Post a forced amount (or what is left of his chips). A live blind is his round-1 bet."""
    paid = min(amount, state.stacks[seat])
    if paid <= 0:
        return state
    changes: dict[str, object] = {"stacks": {**state.stacks, seat: state.stacks[seat] - paid},
               "committed": {**state.committed, seat: state.committed[seat] + paid},
               "posted": (*state.posted, Posting(seat, kind, paid, dead))}
    if dead:
        changes["dead"] = {**state.dead, seat: state.dead.get(seat, 0) + paid}
    if bet:
        changes["bets"] = {**state.bets, seat: state.bets.get(seat, 0) + paid}
    return state.but(**changes)


def blind_seats(button: str, seats: tuple[str, ...]) -> tuple[str, ...]:
    """Small, big and (4-5 players) over blind; heads-up the button posts the big blind."""
    i = seats.index(button)
    left = seats[i + 1:] + seats[:i + 1]
    if len(seats) == 2:
        return (left[0], button)
    return left[:3] if len(seats) >= 4 else left[:2]


def _post_blinds(state: HandState, seats: Sequence[SeatEntry]) -> HandState:
    stakes = state.stakes
    blinds = blind_seats(state.button, state.seats)
    amounts = (stakes.small_blind, stakes.big_blind, stakes.over_blind)
    kinds = ("small_blind", "big_blind", "over_blind")
    opening = amounts[len(blinds) - 1]
    state = begin_round(state, 1, stakes.unit(state.profile, 1, opening), None)
    for seat, kind, amount in zip(blinds, kinds, amounts, strict=False):
        state = _post(state, seat, kind, amount, dead=False, bet=True)
    for entry in seats:
        if entry.missed is not None and entry.seat not in blinds:
            state = _post_dues(state, entry, over=len(blinds) == 3)
    cards_left = len(state.profile.ranking.deck) - HAND_SIZE * len(state.seats)
    if cards_left < 0:
        raise IllegalActionError("the deck cannot deal five cards to every player")
    state = state.but(opening_seat=blinds[-1], current=max(state.bets.values()),
                      deck_left=cards_left)
    return state.but(status="betting", to_act=next_to_act(state, blinds[-1]))


def _post_dues(state: HandState, entry: SeatEntry, *, over: bool) -> HandState:
    stakes, seat = state.stakes, entry.seat
    missed = "small_big" if entry.missed == "all" and not over else entry.missed
    if missed == "new":
        kind = "over_blind" if over else "big_blind"
        return _post(state, seat, kind, stakes.over_blind if over else stakes.big_blind,
                     dead=False, bet=True)
    if missed == "all":
        state = _post(state, seat, "over_blind", stakes.over_blind, dead=False, bet=True)
        state = _post(state, seat, "small_blind", stakes.small_blind, dead=True, bet=False)
        return _post(state, seat, "big_blind", stakes.big_blind, dead=True, bet=False)
    state = _post(state, seat, "big_blind", stakes.big_blind, dead=False, bet=True)
    if missed == "small_big":
        state = _post(state, seat, "small_blind", stakes.small_blind, dead=True, bet=False)
    return state
