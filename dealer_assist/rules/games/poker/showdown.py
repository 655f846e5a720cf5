"""Showdown order, show and muck, and the pots: main and side pots, odd chips, rake.

RULES.md: "Showdown order: the last player to bet or raise in the final round shows first; if
nobody bet, the first player still in clockwise from the button. Then clockwise; a player may
muck a losing hand, but the first to show may not muck." and "Side pots: an all-in player can
win only the pots he contributed to; each pot goes to the best hand among its contributors ...
Antes and dead blinds go into the pot but are nobody's bet." Odd chips: "one each to the winners
clockwise from the button".
"""

from __future__ import annotations

from collections.abc import Mapping

from ...errors import IllegalActionError
from ...evaluator import rank_key
from ...pots import Pot, award_pot, build_pots
from .draw import HAND_SIZE
from .state import Action, HandState, PotResult
from .stud import check_new_cards, stud_show


def begin_showdown(state: HandState) -> HandState:
    """Order the players still in: the final round's last aggressor first, else left of button."""
    live = state.live
    first = state.aggressor if state.aggressor in live else next(
        s for s in state.from_button if s in live)
    order = tuple(s for s in (first, *state.after(first)) if s in live)
    order = tuple(dict.fromkeys(order))
    return state.but(status="showdown", show_order=order, to_act=order[0])


def _next_to_show(state: HandState) -> str | None:
    done = set(state.shown) | state.mucked
    return next((s for s in state.show_order if s not in done), None)


def _check_turn(state: HandState, action: Action) -> str:
    if state.status != "showdown":
        raise IllegalActionError("nobody shows now: the hand is at '%(status)s'",
                                 status=state.status)
    if action.seat != state.to_act:
        raise IllegalActionError("seat %(to_act)s shows next, not seat %(seat)s (order "
                                 "%(v)s)",
                                 to_act=state.to_act, seat=action.seat,
                                 v=', '.join(state.show_order))
    assert action.seat is not None
    return action.seat


def apply_show(state: HandState, action: Action) -> HandState:
    seat = _check_turn(state, action)
    cards = action.cards or ()
    if state.profile.is_stud:
        hand = stud_show(state, seat, cards)
    else:
        if len(cards) != HAND_SIZE:
            raise IllegalActionError("seat %(seat)s shows %(HAND_SIZE)s cards, not "
                                     "%(count)s",
                                     seat=seat, HAND_SIZE=HAND_SIZE, count=len(cards),
                                     value=len(cards))
        check_new_cards(state, ((f"seat {seat}'s hand", c) for c in cards))
        hand = cards
    state = state.but(shown={**state.shown, seat: hand})
    return state.but(to_act=_next_to_show(state))


def apply_muck(state: HandState, action: Action) -> HandState:
    """A player may muck, except the first to show and the last contender of a pot."""
    seat = _check_turn(state, action)
    if seat == state.show_order[0]:
        raise IllegalActionError("seat %(seat)s shows first and may not muck", seat=seat)
    for pot in layered_pots(state):
        if seat in pot.eligible and not any(
                p in state.shown or (p not in state.mucked and p != seat)
                for p in pot.eligible if p != seat):
            raise IllegalActionError("seat %(seat)s is the last player in a pot of "
                                     "%(amount)s and must show",
                                     seat=seat, amount=pot.amount)
    state = state.but(mucked=state.mucked | {seat})
    return state.but(to_act=_next_to_show(state))


def layered_pots(state: HandState) -> tuple[Pot, ...]:
    """Main and side pots from what each put in; dead blinds are added to the main pot."""
    live_part = {s: state.committed[s] - state.dead.get(s, 0) for s in state.seats}
    pots = list(build_pots(live_part, state.folded))
    dead = sum(state.dead.values())
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, state.live))
    return tuple(pots)


def pots_to_award(state: HandState) -> tuple[Pot, ...]:
    """The main and side pots as they will be pushed: the rake (profile data) taken from the
    main pot first. Known once the betting is over: the dealer stacks them at the showdown,
    before the hands are shown."""
    pots = layered_pots(state)
    owed, out = state.profile.rake(sum(p.amount for p in pots)), []
    for pot in pots:
        taken = min(owed, pot.amount)
        owed -= taken
        out.append(Pot(pot.amount - taken, pot.eligible))
    return tuple(out)


def settle(state: HandState, keys: Mapping[str, int] | None) -> HandState:
    """Award every pot and complete the hand.

    ``keys`` are the shown hands' strengths; ``None`` means nobody contends (everyone else
    folded, or Parole): every eligible player of a pot shares it.
    """
    pots = pots_to_award(state)
    rake = state.profile.rake(sum(p.amount for p in layered_pots(state)))
    results, won = [], dict.fromkeys(state.seats, 0)
    order = state.from_button
    for pot in pots:
        awards = award_pot(pot, keys, order)
        for p, a in awards.items():
            won[p] += a
        results.append(PotResult(pot.amount, pot.eligible, tuple(awards), awards))
    stacks = {s: state.stacks[s] + won[s] for s in state.seats}
    return state.but(status="complete", to_act=None, pots=tuple(results), rake=rake, won=won,
                     stacks=stacks)


def settle_showdown(state: HandState) -> HandState:
    ranking = state.profile.ranking
    keys = {s: rank_key(cards, ranking) for s, cards in state.shown.items()}
    return settle(state, keys)
