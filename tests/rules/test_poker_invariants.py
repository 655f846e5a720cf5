"""Properties of every legal hand, over random hands of all six profiles.

Hypothesis picks a profile, the players and their stacks, and then every decision among the
options the engine itself offers (``tests/rules/poker_hands.py``):

* chips are conserved: at every step the stacks plus the pot make the starting chips; once
  complete, the stacks plus the rake do;
* nobody wins more than he could: at most what each other player put in up to his own stake,
  plus the dead money;
* the hand always reaches ``complete``;
* replaying the same actions gives the same state, and applying an action (refused or not)
  never changes the state it was applied to.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.rules.errors import RulesError
from dealer_assist.rules.games.poker import Action, HandState, apply, poker_profiles
from tests.rules.poker_hands import choose, new_hand, replay_all

PROFILES = sorted(p.name for p in poker_profiles())
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hand(profile: str, seed: int) -> tuple[HandState, list[HandState], list[Action]]:
    rng = random.Random(seed)
    state0, _ = new_hand(rng, profile)
    states, actions = [state0], []
    while states[-1].status != "complete":
        action = choose(states[-1], rng)
        states.append(apply(states[-1], action))
        actions.append(action)
        assert len(actions) < 400, "the hand does not end"
    return state0, states, actions


@SETTINGS
@given(profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**32))
def test_chips_are_conserved_at_every_step_and_the_hand_completes(profile: str,
                                                                   seed: int) -> None:
    state0, states, _ = _hand(profile, seed)
    start = sum(state0.start.values())
    for state in states[:-1]:
        assert sum(state.stacks.values()) + state.pot == start
        assert all(v >= 0 for v in state.stacks.values())
    final = states[-1]
    assert final.status == "complete" and final.to_act is None
    assert sum(final.stacks.values()) + final.rake == start
    assert sum(p.amount for p in final.pots) + final.rake == final.pot
    assert sum(final.won.values()) == final.pot - final.rake


@SETTINGS
@given(profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**32))
def test_nobody_wins_more_than_he_could(profile: str, seed: int) -> None:
    _, states, _ = _hand(profile, seed)
    final = states[-1]
    dead = sum(final.dead.values())
    for seat, won in final.won.items():
        own = final.committed[seat] - final.dead.get(seat, 0)
        could = dead + sum(min(own, final.committed[o] - final.dead.get(o, 0))
                           for o in final.seats)
        assert won <= could, (seat, won, could)
        if seat in final.folded and won:
            assert won <= own  # a folded player only gets back his own uncalled chips
        for pot in final.pots:
            assert set(pot.awards) <= set(pot.eligible)


@SETTINGS
@given(profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**32))
def test_replaying_the_same_actions_gives_the_same_state(profile: str, seed: int) -> None:
    state0, states, actions = _hand(profile, seed)
    assert replay_all(state0, actions) == states[-1]


@SETTINGS
@given(profile=st.sampled_from(PROFILES), seed=st.integers(0, 2**32), at=st.integers(0, 40),
       kind=st.sampled_from(["check", "call", "fold", "bet", "raise", "bring_in", "draw",
                             "show", "muck", "parole"]),
       to=st.integers(1, 2000))
def test_an_action_refused_or_not_never_changes_the_state_it_was_applied_to(
        profile: str, seed: int, at: int, kind: str, to: int) -> None:
    _, states, _ = _hand(profile, seed)
    state = states[min(at, len(states) - 1)]
    before = _snapshot(state)
    seat = state.to_act or state.seats[0]
    try:
        apply(state, Action(kind, seat, to=to, discard=to % 7, agreed=True, cards=()))
    except RulesError as err:
        assert err.message
    assert _snapshot(state) == before


def _snapshot(state: HandState) -> dict[str, object]:
    """Every field, with the maps copied: an in-place change to one would show."""
    return {k: dict(v) if isinstance(v, Mapping) else v for k, v in vars(state).items()}
