"""32-card draw: the draw with deck tracking, round 2 and Parole (seed 002).

RULES.md: "Draw: clockwise from the first player still in left of the button, each player
discards 0 to 4 cards (never 5) and gets as many. When the deck runs out, the rest of the deck
is dealt first, then the discards of the OTHER players are shuffled and dealt; a player never
gets his own discards back. (There is no burn card.)"

The engine needs only the counts: ``deck_left`` is what the dealer can still deal from the stub,
``pile`` the discards (by seat) not yet shuffled into a stub. A folded hand goes to the muck and
is never reshuffled (it is not a discard).
"""

from __future__ import annotations

from typing import Any

from ...errors import IllegalActionError
from .betting import begin_round
from .state import Action, HandState

HAND_SIZE = 5


def first_drawer(state: HandState) -> str | None:
    return next((s for s in state.from_button if s in state.live and s not in state.drawn), None)


def deck_view(state: HandState) -> dict[str, Any]:
    """``left``: cards in the stub now; ``reshuffle``: whose discards the next drawer gets.

    Only when fewer than 4 cards are left (the most one player may draw), and never the next
    drawer's own discards.
    """
    drawer = state.to_act if state.status == "draw" else None
    reshuffle: list[str] = []
    if drawer is not None and state.deck_left < 4:
        reshuffle = [s for s in state.seats if s != drawer and state.pile.get(s, 0) > 0]
    return {"left": state.deck_left, "reshuffle": reshuffle}


def apply_draw(state: HandState, action: Action) -> HandState:
    """One player's discard count; the stub and the discard pile follow."""
    seat, count = action.seat, action.discard
    if state.status != "draw":
        raise IllegalActionError("nobody draws now: the hand is at '%(status)s'",
                                 status=state.status)
    if seat != state.to_act:
        raise IllegalActionError("it is seat %(to_act)s's turn to draw, not seat %(seat)s's",
                                 to_act=state.to_act, seat=seat)
    assert seat is not None
    limit = state.profile.max_discard
    if count is None or not 0 <= count <= limit:
        raise IllegalActionError("seat %(seat)s may discard 0 to %(limit)s cards, not "
                                 "%(count)s", seat=seat,
                                 limit=limit, count=count,
                                 value=count)
    left, pile, reshuffled = state.deck_left, dict(state.pile), state.reshuffled
    if count <= left:
        left -= count
    else:
        pool = [s for s in state.seats if s != seat and pile.get(s, 0) > 0]
        size = sum(pile[s] for s in pool)
        if size < count - left:
            raise IllegalActionError(
                "seat %(seat)s cannot draw %(count)s: the stub holds %(left)s and the other "
                "players' discards %(size)s", seat=seat, count=count,
                left=left, size=size, value=count)
        left = size - (count - left)
        for s in pool:
            pile[s] = 0
        reshuffled = tuple(pool)
    pile[seat] = pile.get(seat, 0) + count
    state = state.but(deck_left=left, pile=pile, reshuffled=reshuffled,
                      drawn=state.drawn | {seat})
    return state.but(to_act=first_drawer(state))


def begin_draw(state: HandState) -> HandState:
    state = state.but(status="draw", drawn=frozenset())
    return state.but(to_act=first_drawer(state))


def begin_round_two(state: HandState) -> HandState:
    """Round 2 "starts with the first player still in left of the opening blind's seat".

    "Parole: before anyone acts in round 2 (and only when round 2 will have betting: at least
    two players still in who are not all in), the first player to act may propose Parole".
    """
    assert state.opening_seat is not None
    stakes = state.stakes
    opening = stakes.over_blind if len(state.seats) >= 4 else stakes.big_blind
    unit = stakes.unit(state.profile, 2, opening)
    first = next((s for s in state.after(state.opening_seat) if state.can_put_in(s)), None)
    state = begin_round(state, 2, unit, first)
    if state.to_act is not None:
        state = state.but(status="parole")
    return state


def apply_parole(state: HandState, action: Action) -> HandState:
    """The Parole answer: agreed by everyone still in ends the hand, otherwise betting starts."""
    if state.status != "parole":
        raise IllegalActionError("Parole may be proposed only before anyone acts in round 2")
    if action.seat is not None and action.seat != state.to_act:
        raise IllegalActionError("only seat %(to_act)s, first to act in round 2, may "
                                 "propose Parole, not seat %(seat)s",
                                 to_act=state.to_act, seat=action.seat)
    if action.agreed is None:
        raise IllegalActionError("a parole action needs 'agreed': true or false")
    if action.agreed:
        return state.but(parole=True, to_act=None)
    return state.but(status="betting", parole=False)
