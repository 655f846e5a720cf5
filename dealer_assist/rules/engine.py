"""The one Game protocol: every game of the engine is played and replayed the same way.

A round (a house round, a poker hand, a parlour evening) is an ordered stream of stored events
``(seq, type, JSON payload)``. A :class:`Game` knows

* how a round starts: :meth:`Game.start` from the round's own stored rules (the game, its
  house-rules profile as data, the limits or stakes in force): replay reads only those;
* its codec: :meth:`Game.decode` turns an event's payload into step records (actions) and
  :meth:`Game.encode` turns the records back into the canonical payload that is stored (a
  payload is decoded once; what is stored is the records' encoding);
* its table of steps: for each record type one :class:`StepRule` -- ``verify`` (the one place
  that checks the step and raises a named ``RulesError``), ``apply`` (the new state; the old one
  is never changed) and, for a step recorded now, the checks that stored steps are spared;
  each step's ``can_*`` for the UI is its ``verify`` asked as a question;
* settlement (:meth:`Game.settle`) and what the screen shows (:meth:`Game.summary`,
  :meth:`Game.next_steps`: built from the ``can_*`` only, so no button is offered that the engine
  would refuse).

:meth:`Game.replay` folds stored events and honours the meta events, which are not steps:

* ``undo`` (``{"cancels": seq}``; a poker hand's ``{"seq": seq}``) cancels the last effective
  step, named so that a stale tablet's undo fails instead of undoing someone else's step.
  Nothing is deleted: replay skips the cancelled step. An undo is itself never undone.
* ``paid`` ``{}`` closes a settled house round (and ``void`` a redealt one); they end the stream.

Pure and standard library only, like the whole rules package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .errors import IllegalActionError, RulesError
from .fields import RequestError, get_int, need_mapping
from .inputs import Input

UNDO, PAID, VOID = "undo", "paid", "void"
META_EVENTS = frozenset({UNDO, PAID, VOID})

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Event:
    """One stored event as the engine sees it: sequence number, type and JSON payload."""

    seq: int
    type: str
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Folded(Generic[S]):
    """A replayed round: the state and the sequence numbers of its effective steps, in order."""

    state: S
    steps: tuple[int, ...] = ()
    #: ``paid`` or ``void`` when the stream was closed, else None
    closed: str | None = None

    @property
    def last_step(self) -> int | None:
        return self.steps[-1] if self.steps else None


@dataclass(frozen=True, slots=True)
class StepRule(Generic[S, A]):
    """One step of a game's table: how it is checked and what it does.

    ``verify(state, record)`` raises a named ``RulesError`` or returns; ``apply(state, record)``
    returns the new state and is called only once ``verify`` passed. ``verify_new`` holds the
    checks a step recorded now must pass and a stored step is spared (a surplus card stored
    before a rule was enforced still replays)."""

    verify: Callable[[S, A], None]
    apply: Callable[[S, A], S]
    verify_new: Callable[[S, A], None] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One legal step the UI may offer now (a button or a small form).

    ``cards``/``max_cards``: how many cards the croupier enters (0: a plain button); no step
    before the reveal asks for a card nobody at the table has seen (dealing order);
    ``discard``: the box's cards that may be discarded, with ``discard_counts`` the allowed
    numbers of them (for a Big/Small ``split``: the seven cards to choose the Small Hand
    from); ``amount``: a fixed stake (BET); ``min_amount``/``max_amount``: a stake
    the croupier types (insurance); ``modes``: choices (Big/Small extra cards); ``fees``:
    fee by number of cards (Oasis); ``suggest``: the engine can propose a split.
    """

    type: str
    box: str | None = None
    label: str = ""
    cards: int = 0
    max_cards: int = 0
    discard: tuple[str, ...] = ()
    discard_counts: tuple[int, ...] = ()
    amount: int | None = None
    min_amount: int | None = None
    max_amount: int | None = None
    modes: tuple[str, ...] = ()
    fees: Mapping[int, int] = field(default_factory=dict)
    suggest: bool = False
    #: ``show`` of a Big/Small box with free extra cards: the Small Hand's cards too
    small: int = 0
    #: what the croupier enters, in order (:mod:`.inputs`): none is one tap
    inputs: tuple[Input, ...] = ()
    #: the engine can suggest this step's entry (:meth:`Game.suggest_step`)
    suggests: bool = False
    #: the engine records this step by itself (nothing to enter or decide): the record path
    #: records it after the step that brought it, in the same write
    auto: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "label": self.label}
        if self.box is not None:
            out["box"] = self.box
        for name in ("cards", "max_cards", "amount", "min_amount", "max_amount", "small"):
            value = getattr(self, name)
            if value:
                out[name] = value
        if self.discard:
            out["discard"] = list(self.discard)
            out["discard_counts"] = list(self.discard_counts)
        if self.modes:
            out["modes"] = list(self.modes)
        if self.fees:
            out["fees"] = {str(k): v for k, v in self.fees.items()}
        if self.suggest:
            out["suggest"] = True
        if self.suggests:
            out["suggests"] = True
        out["inputs"] = [i.to_dict() for i in self.inputs]
        if self.auto:
            out["auto"] = True
        return out


Decoder = Callable[[Any, Mapping[str, Any]], tuple[Any, ...]]
Encoder = Callable[[Any], dict[str, Any]]


class Game(Generic[S]):
    """A game as the record path and the screens see it. Each family fills the table and the
    codec and implements the hooks; everything else here is the same for every game."""

    #: the game's API name ("russian", "americana"...)
    name: str = ""
    #: event type -> (state, payload) -> the step records it stands for (parse only)
    decoders: Mapping[str, Decoder] = {}
    #: record type -> its rule (verify, apply)
    table: Mapping[type[Any], StepRule[Any, Any]] = {}
    #: the undo payload's field naming the step it cancels
    undo_field: str = "cancels"
    #: event types that record several records at once and store them as a list
    list_events: Mapping[str, str] = {}
    #: the meta events a stream of the game may hold besides its steps
    meta_events: tuple[str, ...] = (UNDO,)

    # --- hooks ---------------------------------------------------------------------------
    def start(self, rules: Mapping[str, Any]) -> S:
        """The empty round of a round's own stored rules."""
        raise NotImplementedError

    def encode(self, action: Any) -> dict[str, Any]:
        """The canonical JSON payload of one step record."""
        raise NotImplementedError

    def settle(self, state: S) -> Any:
        """The settlement of a complete round (an object with ``to_dict()``)."""
        raise NotImplementedError

    def can_settle(self, state: S) -> bool:
        raise NotImplementedError

    def summary(self, state: S) -> dict[str, Any]:
        raise NotImplementedError

    def next_steps(self, state: S) -> tuple[Step, ...]:
        return ()

    def suggest_step(self, state: S, type: str,
                     payload: Mapping[str, Any]) -> tuple[dict[str, Any], Any] | None:
        """The entry the engine suggests for a step it offers with ``suggests`` (from what was
        entered so far): the payload to accept and a phrase saying why; None: no suggestion."""
        return None

    def refine_step(self, state: S, type: str, payload: Mapping[str, Any]) -> Step | None:
        """The step ``type`` as the engine offers it knowing what was entered so far (an input
        with ``refines``), or None: the step as offered stands."""
        return None

    def settle_ready(self, state: S) -> Any:
        """The showdown so far: the settlement of what is known now, or None."""
        return None

    def voided(self, state: S) -> str | None:
        """Why the round was voided (a redeal), or None."""
        return None

    def needless(self, state: S, actions: tuple[Any, ...]) -> bool:
        """True when the decoded step asks for what the state already holds and an earlier
        contract sent it (a house round's ``take_ante`` after the reveal took the ANTE): the
        record path answers it with the stream as it is and stores nothing."""
        return False

    def where(self, state: S) -> str | None:
        """The field path a refusal of the next step is reported under (a poker hand:
        ``actions[n]``), or None."""
        return None

    # --- the table of steps --------------------------------------------------------------
    def rule(self, action: Any) -> StepRule[S, Any]:
        found = self.table.get(type(action))
        if found is None:
            raise not_a_step(action, self.name)
        return found

    def verify(self, state: S, action: Any, *, new: bool = False) -> None:
        """The step's checks (``new``: also those only a step recorded now must pass)."""
        rule = self.rule(action)
        rule.verify(state, action)
        if new and rule.verify_new is not None:
            rule.verify_new(state, action)

    def apply(self, state: S, action: Any, *, new: bool = False) -> S:
        """Verify ``action`` against ``state`` and return the new state."""
        self.verify(state, action, new=new)
        return self.rule(action).apply(state, action)

    # --- the codec -----------------------------------------------------------------------
    def decode(self, state: S, type: str, payload: Any) -> tuple[Any, ...]:
        """The records an event stands for; ``RequestError`` for an unknown type or payload."""
        decoder = self.decoders.get(type)
        if decoder is None:
            known = ", ".join(sorted([*self.decoders, *self.meta_events]))
            raise RequestError("unknown step '%(type)s' for %(game)s (known: %(known)s)",
                               type=type, game=self.name, known=known, field="type",
                               value=type)
        return decoder(state, need_mapping(payload, "payload"))

    def encode_event(self, type: str, actions: tuple[Any, ...]) -> dict[str, Any]:
        """The canonical payload of an event from its records (what is stored and compared)."""
        many = self.list_events.get(type)
        if many is not None:
            return {many: [self.encode(a) for a in actions]}
        return self.encode(actions[0]) if actions else {}

    def normalize(self, state: S, type: str, payload: Any) -> dict[str, Any]:
        """The canonical payload of an event: decoded, then encoded."""
        return self.encode_event(type, self.decode(state, type, payload))

    def play(self, state: S, actions: Iterable[Any], *, new: bool = False,
             type: str | None = None) -> S:
        """Apply decoded records in order (each verified by the engine). The records of an
        event ``type`` stored as a list are refused under their place in it (``boxes[2]``)."""
        many = self.list_events.get(type) if type is not None else None
        done = 0
        try:
            for action in actions:
                state = self.apply(state, action, new=new)
                done += 1
        except RulesError as err:
            where = f"{many}[{done}]" if many is not None else self.where(state)
            raise err.at(where) if where else err from None
        return state

    def step(self, state: S, type: str, payload: Any, *, new: bool = False) -> S:
        """Apply one event to ``state``."""
        return self.play(state, self.decode(state, type, payload), new=new, type=type)

    def replay(self, state: S, events: Iterable[Event]) -> Folded[S]:
        """Fold stored events into a state from the empty round ``state``, honouring undo."""
        history: list[tuple[int, S]] = []
        closed: str | None = None
        for event in events:
            if closed is not None:
                raise IllegalActionError("the round was closed (%(closed)s) before event "
                                         "%(seq)s", closed=closed, seq=event.seq, field="type",
                                         value=event.type)
            if event.type == UNDO:
                self.check_undo(tuple(seq for seq, _ in history), event.payload)
                state = history.pop()[1]
            elif event.type in (PAID, VOID):
                closed = event.type
            else:
                history.append((event.seq, state))
                state = self.step(state, event.type, event.payload)
        return Folded(state, tuple(seq for seq, _ in history), closed)

    def check_undo(self, steps: tuple[int, ...], payload: Mapping[str, Any]) -> None:
        """An undo names the last effective step; anything else is refused."""
        check_undo(steps, payload, self.undo_field)


def check_undo(steps: tuple[int, ...], payload: Mapping[str, Any],
               name: str = "cancels") -> None:
    """An undo names the last effective step (in ``name``); anything else is refused."""
    if not steps:
        raise IllegalActionError("there is no step to undo", field=name)
    cancels = get_int(need_mapping(payload, "payload"), name)
    if cancels != steps[-1]:
        raise IllegalActionError("only the last step (%(v)s) can be undone, not step "
                                 "%(cancels)s; reload the round",
                                 v=steps[-1], cancels=cancels, field=name, value=cancels)


def not_a_step(action: Any, game: str) -> IllegalActionError:
    """A record of another game reached this game (a codec bug, never a croupier's)."""
    return IllegalActionError("%(name__)s is not a step of %(game)s",
                              name__=type(action).__name__, game=game, field="type",
                              value=type(action).__name__)


def passes(check: Callable[..., object], *args: Any) -> bool:
    """Whether ``check(*args)`` runs without a ``RulesError``: every ``can_*`` is its
    ``verify_*`` asked this way, so the buttons a screen shows and the checks agree."""
    try:
        check(*args)
    except RulesError:
        return False
    return True
