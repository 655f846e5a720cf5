"""Random legal hands for the poker engine's property tests and the benchmark.

``play`` drives a hand to the end with a ``random.Random`` choosing among the options the engine
itself offers (``legal``), dealing cards the dealer could really see: up cards and shown hands
come from the cards nobody has seen yet.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealer_assist.rules.cards import Card
from dealer_assist.rules.games.poker import (
    Action,
    HandState,
    SeatEntry,
    apply,
    can_act,
    get_poker_profile,
    legal,
    make_stakes,
    start_hand,
)
from dealer_assist.rules.games.poker.stud import known_cards


def new_hand(rng: random.Random, profile_name: str, players: int | None = None,
             ) -> tuple[HandState, list[SeatEntry]]:
    profile = get_poker_profile(profile_name)
    n = players or rng.randint(2, profile.max_players)
    if profile.is_stud:
        stakes = make_stakes(profile, {"ante": rng.choice([1, 2, 5])})
    else:
        stakes = make_stakes(profile, {"small_blind": rng.choice([1, 2, 5])})
    seats = [SeatEntry(str(i + 1), rng.choice([3, 10, 40, 100, 250, 1000])) for i in range(n)]
    if not profile.is_stud and n >= 3:
        for i in range(n):
            if rng.random() < 0.2:
                seats[i] = SeatEntry(seats[i].seat, seats[i].stack,
                                     rng.choice(["small", "small_big", "all", "new"]))
    button = rng.choice(seats).seat
    return start_hand(profile, stakes, button, seats), seats


def _unseen(state: HandState, rng: random.Random) -> list[Card]:
    seen = known_cards(state)
    cards = [c for c in state.profile.ranking.deck.cards if c not in seen]
    rng.shuffle(cards)
    return cards


def choose(state: HandState, rng: random.Random) -> Action:
    """One legal action for the state, chosen at random."""
    status, seat = state.status, state.to_act
    if status == "street":
        fresh = _unseen(state, rng)
        return Action("street", up={s: fresh[i] for i, s in enumerate(state.live)})
    if status == "draw":
        return Action("draw", seat, discard=rng.randint(0, state.profile.max_discard))
    if status == "parole":
        return Action("parole", seat, agreed=rng.random() < 0.15)
    if status == "showdown":
        assert seat is not None
        if rng.random() < 0.3 and can_act(state, Action("muck", seat)):
            return Action("muck", seat)
        fresh = _unseen(state, rng)
        return Action("show", seat, cards=tuple(fresh[:1 if state.profile.is_stud else 5]))
    return _bet_choice(state, rng)


def _bet_choice(state: HandState, rng: random.Random) -> Action:
    seat = state.to_act
    options = legal(state)
    choices: list[Action] = []
    if options.bring_in is not None:
        choices.append(Action("bring_in", seat))
    if options.check:
        choices += [Action("check", seat)] * 3
    if options.call is not None:
        choices += [Action("call", seat)] * 3
    if options.fold and not options.check:
        choices.append(Action("fold", seat))
    for kind, span in (("bet", options.bet), ("raise", options.raise_)):
        if span is not None:
            low, high = span
            choices += [Action(kind, seat, to=low), Action(kind, seat, to=high),
                        Action(kind, seat, to=rng.randint(low, high))]
    return rng.choice(choices)


def play(state: HandState, rng: random.Random, limit: int = 500) -> tuple[HandState,
                                                                       list[Action]]:
    """Play the hand to ``complete``; returns the final state and the actions taken."""
    actions: list[Action] = []
    while state.status != "complete":
        action = choose(state, rng)
        state = apply(state, action)
        actions.append(action)
        assert len(actions) < limit, "the hand does not end"
    return state, actions


def replay_all(state0: HandState, actions: Sequence[Action]) -> HandState:
    state = state0
    for action in actions:
        state = apply(state, action)
    return state
