"""A step applied to a stream's fold: what the record path stores, and what a tablet computes
while the server cannot be reached -- one function for both (DESIGN.md principle 9).

Pure: no storage, no clock. The caller has folded the stream's events (``Folded``) and checked
who records and whether the stream is open; :func:`play` verifies the step with the engine and
says what to store and the fold after it; :func:`follow_ups` the steps the engine records by
itself after it (``Step.auto``: a deal with nothing face up, a forced BET), each verified and
applied like any step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .engine import PAID, UNDO, VOID, Folded, Game
from .errors import IllegalActionError

#: steps about the stream, not the game: no follow-up is recorded after them
META = frozenset({PAID, UNDO, VOID})
#: a chain of steps the engine records by itself is short (a deal, a forced BET)
MOST_FOLLOW_UPS = 4


@dataclass(frozen=True, slots=True)
class Played:
    """A step the engine accepted: the payload to store, the fold after it and the settlement
    to store when it completes the stream (None: nothing to store yet)."""

    stored: dict[str, Any]
    folded: Folded[Any]
    settlement: Any = None


def play(engine: Game[Any], folded: Folded[Any], type: str, payload: Mapping[str, Any],
         last_seq: int, *, undone: Callable[[int], Folded[Any]],
         settles_when_complete: bool = False) -> Played | None:
    """Verify and apply one new step to ``folded`` (the stream after its events up to
    ``last_seq``). ``undone(seq)``: the fold of the events before ``seq`` (what undoing step
    ``seq`` leaves; the server's replay memo, the tablet's replay). An undo needs a step to
    undo (the caller says so in its own words). None: the stream already holds what the step
    asks (``Game.needless``): nothing to store. A ``RulesError`` refuses the step."""
    state, effective = folded.state, folded.steps
    if type == PAID and not settles_when_complete:
        return Played({}, Folded(state, effective, PAID), engine.settle(state))  # incomplete: error
    if type == VOID:
        raise IllegalActionError("a round is voided only with a pit boss's approval: ask for a "
                                 "void (Redeal, or the round's page)", field="type", value=VOID)
    if type == UNDO:
        cancels = {engine.undo_field: payload.get(engine.undo_field, effective[-1])}
        engine.check_undo(effective, cancels)
        # undoing step s leaves the stream as the events before s left it (the engine's fold)
        before = undone(effective[-1])
        return Played(cancels, Folded(before.state, before.steps))
    actions = engine.decode(state, type, payload)  # decoded once
    if engine.needless(state, actions):
        return None
    new = engine.play(state, actions, new=True, type=type)
    settlement = engine.settle(new) if settles_when_complete and engine.can_settle(new) else None
    return Played(engine.encode_event(type, actions), Folded(new, (*effective, last_seq + 1)),
                  settlement)


def follow_ups(engine: Game[Any], folded: Folded[Any]) -> tuple[list[tuple[str, dict[str, Any]]],
                                                            Folded[Any]]:
    """The steps the engine records by itself after ``folded`` (``Step.auto``), each verified
    and applied like any step: their events (type, stored payload) and the fold after them."""
    out: list[tuple[str, dict[str, Any]]] = []
    state, effective = folded.state, folded.steps
    last = effective[-1] if effective else 0
    for _ in range(MOST_FOLLOW_UPS):
        auto = next((s for s in engine.next_steps(state) if s.auto), None)
        if auto is None:
            break
        actions = engine.decode(state, auto.type, {"box": auto.box} if auto.box else {})
        state = engine.play(state, actions, new=True, type=auto.type)
        last += 1
        effective = (*effective, last)
        out.append((auto.type, engine.encode_event(auto.type, actions)))
    return out, Folded(state, effective)


def follow_key(key: str, n: int, most: int) -> str:
    """The idempotency key of the ``n``-th event a request appends (the first: its own), at
    most ``most`` characters."""
    if n == 0:
        return key
    tail = f"~{n}"
    return key[:most - len(tail)] + tail
