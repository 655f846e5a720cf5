"""A hand as an event stream: :func:`apply` folds one action into the state, :func:`replay`
folds them all. Phases follow one another here and nowhere else:

stud: street -> betting -> street -> ... (4 rounds) -> showdown -> complete;
draw: betting (round 1) -> draw -> parole -> betting (round 2) -> showdown -> complete.

A betting round nobody can bet in is skipped; everyone else folding ends the hand at once ("the
last player wins every pot he is eligible for without showing; a bet nobody called is returned
to its owner").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ...errors import IllegalActionError, RulesError
from .betting import apply_bet, close_round, legal
from .draw import apply_draw, apply_parole, begin_draw, begin_round_two
from .profile import PokerProfile, Stakes
from .setup import SeatEntry, post_forced
from .showdown import apply_muck, apply_show, begin_showdown, settle, settle_showdown
from .state import ACTION_TYPES, Action, HandState
from .stud import STREETS, apply_street

Handler = Callable[[HandState, Action], HandState]


def _need_seat(state: HandState, action: Action) -> None:
    if action.seat is None:
        raise IllegalActionError("a %(type)s action needs 'seat'", type=action.type)
    if action.seat not in state.seats:
        raise IllegalActionError("seat %(seat)s is not at this table", seat=action.seat,
                                 value=action.seat)


def _stud_only(handler: Handler, stud: bool) -> Handler:
    def check(state: HandState, action: Action) -> HandState:
        if state.profile.is_stud != stud:
            game = "stud" if stud else "draw"
            raise IllegalActionError("'%(type)s' is a %(game)s action; %(name)s has none",
                                     type=action.type, game=game, name=state.profile.name)
        return handler(state, action)
    return check


def _seated(handler: Handler) -> Handler:
    def check(state: HandState, action: Action) -> HandState:
        _need_seat(state, action)
        return handler(state, action)
    return check


HANDLERS: dict[str, Handler] = {
    "street": _stud_only(apply_street, True),
    "bring_in": _stud_only(_seated(apply_bet), True),
    "check": _seated(apply_bet), "call": _seated(apply_bet), "bet": _seated(apply_bet),
    "raise": _seated(apply_bet), "fold": _seated(apply_bet),
    "draw": _stud_only(_seated(apply_draw), False),
    "parole": _stud_only(apply_parole, False),
    "show": _seated(apply_show), "muck": _seated(apply_muck),
}
assert set(HANDLERS) == set(ACTION_TYPES)


def verify_action(state: HandState, action: Action) -> HandState:
    """The state after ``action``, or ``IllegalActionError`` naming why it is refused."""
    if state.status == "complete":
        raise IllegalActionError("the hand is complete: no more actions")
    handler = HANDLERS.get(action.type)
    if handler is None:
        raise IllegalActionError("unknown action '%(type)s' (known: %(v)s)",
                                 type=action.type, v=', '.join(ACTION_TYPES), value=action.type)
    return _flow(handler(state, action)).but(actions=state.actions + 1)


def can_act(state: HandState, action: Action) -> bool:
    """Whether ``action`` is allowed now (the state is left as it was either way)."""
    try:
        verify_action(state, action)
    except RulesError:
        return False
    return True


def apply(state: HandState, action: Action) -> HandState:
    return verify_action(state, action)


def start_hand(profile: PokerProfile, stakes: Stakes, button: str,
               seats: Sequence[SeatEntry]) -> HandState:
    """The state after the antes or blinds, ready for the first action (or already over)."""
    return _flow(post_forced(profile, stakes, button, seats))


def replay(profile: PokerProfile, stakes: Stakes, button: str, seats: Sequence[SeatEntry],
           actions: Iterable[Action]) -> HandState:
    """The state after every action; an error carries ``field`` ``actions[i]``."""
    state = start_hand(profile, stakes, button, seats)
    for i, action in enumerate(actions):
        try:
            state = verify_action(state, action)
        except RulesError as err:
            raise err.at(f"actions[{i}]") from None
    return state


def _flow(state: HandState) -> HandState:
    """Move through every phase that needs no dealer input."""
    while True:
        if state.status == "betting" and state.to_act is None:
            state = _after_betting(state)
        elif state.status == "draw" and state.to_act is None:
            state = begin_round_two(state)
        elif state.status == "parole" and state.parole:
            state = settle(state, None)
        elif state.status == "showdown" and state.to_act is None:
            state = settle_showdown(state)
        else:
            return state


def _after_betting(state: HandState) -> HandState:
    state = close_round(state)
    if len(state.live) == 1:
        return settle(state, None)
    last = STREETS if state.profile.is_stud else 2
    if state.round < last:
        return state.but(status="street") if state.profile.is_stud else begin_draw(state)
    return begin_showdown(state)


__all__ = ["apply", "can_act", "legal", "replay", "start_hand", "verify_action"]
