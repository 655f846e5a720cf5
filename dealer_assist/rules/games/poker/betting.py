"""Betting rounds for `limit`, `pot-limit` and `no-limit` (RULES.md, common rules).

The figures a dealer needs -- who acts, may he check, what a call adds, the smallest and largest
"raise to" -- come from :func:`legal`; :func:`apply_bet` checks an action against them and
returns the next state. Rules implemented here (quoted in the tests):

* limit: "bets and raises are one fixed unit per round ... at most 4 bets in a round";
* no-limit: "a raise must raise by at least the largest bet or raise increment made earlier in
  the same round; the largest is all the player's chips";
* pot-limit: "the largest raise takes the player's total bet in the round to: the current bet +
  the pot after he has called";
* "An all-in raise smaller than a full raise does not reopen the betting for players who have
  already acted; several short all-ins that together make a full raise do reopen it";
* "No bet or raise is offered when no other player still in could put in more chips".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import IllegalActionError
from ...phrase import Phrase
from .state import Action, HandState


@dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may do; ``None`` means not allowed. Amounts are "raise to"."""

    fold: bool = False
    check: bool = False
    call: int | None = None
    bring_in: int | None = None
    bet: tuple[int, int] | None = None
    raise_: tuple[int, int] | None = None
    parole: bool = False

    def to_dict(self) -> dict[str, Any]:
        def span(r: tuple[int, int] | None) -> dict[str, int] | None:
            return None if r is None else {"min_to": r[0], "max_to": r[1]}

        return {"fold": self.fold, "check": self.check, "call": self.call,
                "bring_in": self.bring_in, "bet": span(self.bet), "raise": span(self.raise_),
                "parole": self.parole}


NOTHING = Legal()


def needs_to_act(state: HandState, seat: str) -> bool:
    """Owes a call, or has not acted yet while somebody else could still answer him."""
    if not state.can_put_in(seat):
        return False
    if state.bets.get(seat, 0) < state.current:
        return True
    return seat not in state.acted and any(state.can_put_in(p) for p in state.live if p != seat)


def next_to_act(state: HandState, after: str) -> str | None:
    """The first seat clockwise after ``after`` who must act, ``None`` when the round is over."""
    if len(state.live) < 2:
        return None
    for seat in state.after(after):
        if needs_to_act(state, seat):
            return seat
    return None


def _facing(state: HandState, seat: str) -> int:
    """The bet the seat faces: the stud opener faces the bring-in he must make."""
    return state.stakes.bring_in if state.opener == seat else state.current


def _others_could_add(state: HandState, seat: str, level: int) -> bool:
    return any(state.bets.get(p, 0) + state.stacks[p] > level for p in state.live if p != seat)


def _reopened(state: HandState, seat: str, level: int) -> bool:
    """Not acted yet, or raised since by at least one full bet (several short all-ins count)."""
    if seat not in state.acted:
        return True
    full = state.unit if state.profile.structure == "limit" else state.increment
    return level - state.faced.get(seat, 0) >= full


def raise_range(state: HandState, seat: str) -> tuple[int, int] | None:
    """Smallest and largest "raise to" (or bet to) for ``seat``, all-in included."""
    level = _facing(state, seat)
    mine = state.bets.get(seat, 0)
    allin = mine + state.stacks[seat]
    if allin <= level or not _others_could_add(state, seat, level):
        return None
    if not _reopened(state, seat, level):
        return None
    structure = state.profile.structure
    if structure == "limit":
        if level // state.unit >= state.profile.max_bets:
            return None
        target = (level // state.unit + 1) * state.unit
        low = high = target
    else:
        low = level + state.increment if level else state.unit
        if structure == "no-limit":
            high = allin
        else:  # the current bet + the pot after he has called
            high = level + state.pot + (level - mine)
    return min(low, allin), max(min(high, allin), min(low, allin))


def legal(state: HandState) -> Legal:
    """The options of the seat to act in a betting round (``NOTHING`` outside betting)."""
    seat = state.to_act
    if seat is None or state.status != "betting":
        return NOTHING
    span = raise_range(state, seat)
    if state.opener == seat:
        return Legal(bring_in=min(state.stakes.bring_in, state.stacks[seat]), raise_=span)
    mine = state.bets.get(seat, 0)
    call = min(state.current - mine, state.stacks[seat]) if state.current > mine else None
    return Legal(fold=True, check=state.current == mine, call=call,
                 bet=span if state.current == 0 else None,
                 raise_=span if state.current > 0 else None)


def _put_in(state: HandState, seat: str, to: int) -> HandState:
    add = to - state.bets.get(seat, 0)
    return state.but(stacks={**state.stacks, seat: state.stacks[seat] - add},
                     committed={**state.committed, seat: state.committed[seat] + add},
                     bets={**state.bets, seat: to})


def verify_bet(state: HandState, action: Action) -> None:
    """Raise ``IllegalActionError`` with a dealer's sentence unless the action is allowed."""
    seat = action.seat
    if state.status != "betting" or state.to_act is None:
        raise IllegalActionError("nobody may %(action)s now: the hand is at '%(status)s'",
                                 action=action.type.replace("_", " "), status=state.status)
    if seat != state.to_act:
        raise IllegalActionError("it is seat %(turn)s's turn, not seat %(seat)s's",
                                 turn=state.to_act, seat=seat)
    options = legal(state)
    kind = action.type
    if kind == "bring_in" and options.bring_in is None:
        raise IllegalActionError("seat %(seat)s has no bring-in to make", seat=seat)
    if kind in ("fold", "check", "call") and state.opener == seat:
        raise IllegalActionError("seat %(seat)s has the highest card and must bring in "
                                 "%(bring_in)s or raise", seat=seat, bring_in=options.bring_in)
    if kind == "check" and not options.check:
        raise IllegalActionError("seat %(seat)s may not check: the bet is %(current)s, call "
                                 "%(call)s more", seat=seat, current=state.current,
                                 call=options.call)
    if kind == "call":
        _verify_call(state, seat, action, options)
    if kind in ("bet", "raise"):
        _verify_raise(state, seat, action, options)


def _verify_call(state: HandState, seat: str, action: Action, options: Legal) -> None:
    if options.call is None:
        raise IllegalActionError("seat %(seat)s has nothing to call: check or bet", seat=seat)
    allin = state.bets.get(seat, 0) + state.stacks[seat]
    if action.to is not None and action.to > allin:
        raise IllegalActionError("seat %(seat)s has only %(stack)s chips: a call to %(to)s is "
                                 "more than he has", seat=seat, stack=state.stacks[seat],
                                 to=action.to)
    if action.to is not None and action.to != min(state.current, allin):
        raise IllegalActionError("a call by seat %(seat)s is to %(call)s, not %(to)s",
                                 seat=seat, call=min(state.current, allin), to=action.to)


def _verify_raise(state: HandState, seat: str, action: Action, options: Legal) -> None:
    kind, to = action.type, action.to
    word = Phrase("raise") if kind == "raise" else Phrase("bet")
    if to is None:
        raise IllegalActionError("a %(word)s needs 'to': the total bet of seat %(seat)s in "
                                 "this round", word=word, seat=seat)
    if kind == "bet" and state.current > 0 and state.opener != seat:
        raise IllegalActionError("seat %(seat)s may not bet: there is already a bet of "
                                 "%(current)s (raise instead)", seat=seat,
                                 current=state.current)
    if kind == "raise" and state.current == 0 and state.opener != seat:
        raise IllegalActionError("seat %(seat)s may not raise: nobody has bet (bet instead)",
                                 seat=seat)
    allin = state.bets.get(seat, 0) + state.stacks[seat]
    if to > allin:
        raise IllegalActionError("seat %(seat)s has only %(stack)s chips: he can %(word)s to at "
                                 "most %(allin)s", seat=seat, stack=state.stacks[seat],
                                 word=word, allin=allin)
    span = options.raise_ if kind == "raise" else options.bet
    if span is None:
        raise IllegalActionError("seat %(seat)s may not %(word)s now: %(why)s", seat=seat,
                                 word=word, why=_why_not(state, seat))
    low, high = span
    if to < low and to != allin:
        raise IllegalActionError("seat %(seat)s may %(word)s to at least %(low)s", seat=seat,
                                 word=word, low=low)
    if to > high:
        raise IllegalActionError("seat %(seat)s may %(word)s to at most %(high)s", seat=seat,
                                 word=word, high=high)


def _why_not(state: HandState, seat: str) -> Phrase:
    level = _facing(state, seat)
    if state.bets.get(seat, 0) + state.stacks[seat] <= level:
        return Phrase("he cannot put in more than a call")
    if not _others_could_add(state, seat, level):
        return Phrase("no other player could put in more chips")
    if not _reopened(state, seat, level):
        return Phrase("a short all-in does not reopen the betting for him (call or fold)")
    return Phrase("the limit of %(max_bets)s bets in this round is reached",
                  max_bets=state.profile.max_bets)


def apply_bet(state: HandState, action: Action) -> HandState:
    """The state after a verified betting action; ``to_act`` moves on (``None``: round over)."""
    verify_bet(state, action)
    seat = action.seat
    assert seat is not None
    kind = action.type
    if kind == "fold":
        state = state.but(folded=state.folded | {seat})
    elif kind == "check":
        state = state.but(acted=state.acted | {seat}, faced={**state.faced, seat: state.current})
    elif kind == "call":
        to = min(state.current, state.bets.get(seat, 0) + state.stacks[seat])
        state = _put_in(state, seat, to)
        state = state.but(acted=state.acted | {seat}, faced={**state.faced, seat: state.current})
    elif kind == "bring_in":
        to = min(state.stakes.bring_in, state.stacks[seat])
        state = _put_in(state, seat, to).but(
            current=to, opener=None, bring_in_seat=seat, aggressor=seat, acted=frozenset({seat}),
            faced={seat: to})
    else:
        assert action.to is not None
        state = _raise(state, seat, action.to)
    return state.but(to_act=next_to_act(state, seat))


def _raise(state: HandState, seat: str, to: int) -> HandState:
    level = _facing(state, seat)
    full_size = state.unit if state.profile.structure == "limit" or level == 0 else \
        state.increment
    full = to - level >= full_size
    opened = state.opener == seat
    state = _put_in(state, seat, to)
    return state.but(
        current=to, aggressor=seat, opener=None,
        bring_in_seat=seat if opened else state.bring_in_seat,
        increment=max(state.increment, to - level) if full else state.increment,
        acted=frozenset({seat}) if full else state.acted | {seat},
        faced={**state.faced, seat: to})


def close_round(state: HandState) -> HandState:
    """End a betting round: return the uncalled part of the top bet, clear the round's bets.

    "a bet nobody called is returned to its owner" -- the part above the second-highest bet
    of anyone (a folded player's bet counts as called up to what he put in).
    """
    bets = sorted(state.bets.values(), reverse=True)
    if bets and bets[0] > 0:
        top = bets[0]
        second = bets[1] if len(bets) > 1 else 0
        owners = [s for s, b in state.bets.items() if b == top]
        if len(owners) == 1 and top > second:
            owner, back = owners[0], top - second
            state = state.but(stacks={**state.stacks, owner: state.stacks[owner] + back},
                              committed={**state.committed,
                                         owner: state.committed[owner] - back})
    return state.but(bets={}, current=0, acted=frozenset(), faced={}, to_act=None, opener=None)


def begin_round(state: HandState, round_no: int, unit: int, first: str | None) -> HandState:
    """Open a betting round with ``first`` to act (``None``: nobody can bet, it is skipped)."""
    if sum(1 for p in state.live if state.can_put_in(p)) < 2:
        first = None
    return state.but(status="betting", round=round_no, unit=unit, increment=unit, current=0,
                     bets={}, acted=frozenset(), faced={}, aggressor=None, to_act=first)
