"""The live round at a table as the screens and the API read it: replayed from its events.

A round's state comes only from its stored events, replayed through the pure engine of its game
(``rules.engine``; memoised by content in :mod:`.memo`). Recording a step (:mod:`.steps`,
a short transaction of its own) folds the events once, turns the step into engine actions and
applies them before taking any lock; the engine verifies, and on a ``RulesError`` nothing is
stored and the error propagates to the edge. The write is a compare-and-append. The client's
idempotency key makes a double tap or a resent request record once: a key already used in the
round returns the round as it is (the same step again) or is a :class:`Conflict` (a different
step under that key).

``expected_seq`` (optional) is the last sequence number the client saw: if the round moved on
meanwhile (another tablet), the step is refused with a Conflict instead of being applied to a
round the croupier did not see. Undo is an ``undo`` event naming the step it cancels; "Paid"
stores the settlement (``RoundSettlement``) and closes the round.

A round is voided only with a pit boss's approval. The croupier's *Redeal* (a box
received a wrong number of cards: the engine's ``Redeal``, verified but not stored as an event)
files a void request through :mod:`.voids` with the engine's reason; so does a misdeal asked for
from the round's page. While a void request is pending the round is *frozen*: it stays open but
takes no step (no undo, no "Paid") and no new round starts at the table. An approval makes the
round ``voided`` (a status set by the decision; the event stream is left as it was and still
replays); a rejection returns it to play where it stopped. The ``void`` meta event of the engine
codec is only replayed (rounds voided before approvals existed); the service no longer writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlmodel import Session, select

from ...models import Round, RoundStatus, Shift, ShiftStatus
from ...rules.cards import Card
from ...rules.engine import VOID, Game, Step
from ...rules.games.stud import draw_needed as cards_needed
from ...rules.games.stud import phase
from ...rules.phrase import Phrase
from ...rules.settlement import Settlement
from ...tablet.screen import closed_phase
from ..tables import tables
from . import house, store, voids
from .streams import Loaded

#: who records rounds: the people who run a table
RECORDERS = house.RECORDERS
#: the croupier's step that asks for a void (a box received a wrong number of cards)
REDEAL = "redeal"
FROZEN = Phrase("Void requested — waiting for a pit boss")


@dataclass(frozen=True, slots=True)
class BoxStake:
    """A box's stakes when the round starts (``seat`` defaults to the box), and who plays it
    (``player``: ``{"seat": "A"}`` or ``{"card": "..."}``, checked by the engine)."""

    box: str
    ante: int
    bonus: int = 0
    seat: str | None = None
    player: Mapping[str, Any] | None = None

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"box": self.box, "seat": self.seat or self.box, "ante": self.ante}
        if self.bonus:
            out["bonus"] = self.bonus
        if self.player is not None:
            out["player"] = dict(self.player)
        return out


@dataclass(frozen=True, slots=True)
class LiveRound:
    """A round as the table screen and the API show it: replayed from its events."""

    round: store.RoundView
    table: tables.TableView
    events: list[store.EventView]
    engine: Game[Any]
    state: Any
    steps: tuple[Step, ...]
    #: sequence numbers of the effective (not undone) steps
    effective: tuple[int, ...]
    settlement: Settlement | None
    stored_settlement: dict[str, Any] | None
    #: the round's newest void request (pending, approved or rejected), if any
    void_request: voids.ChangeView | None = None
    #: the round's own rules (game, profile data and hash, limits): what it replays under
    rules: dict[str, Any] = field(default_factory=dict)

    @property
    def ready(self) -> Settlement | None:
        """The boxes settled so far at the showdown (all of them once the round settles)."""
        if self.settlement is not None:
            return self.settlement
        return self.engine.settle_ready(self.state) if self.is_open else None

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def last_step(self) -> int | None:
        return self.effective[-1] if self.effective else None

    @property
    def is_open(self) -> bool:
        return self.round.status == RoundStatus.OPEN.value

    @property
    def void_pending(self) -> bool:
        """Frozen: open, with a void request waiting for a pit boss."""
        return (self.is_open and self.void_request is not None
                and self.void_request.status == voids.PENDING)

    @property
    def void_refused(self) -> voids.ChangeView | None:
        """The void request a pit boss rejected, while the round goes on."""
        found = self.void_request
        return found if self.is_open and found and found.status == voids.REJECTED else None

    @property
    def can_undo(self) -> bool:
        return self.is_open and bool(self.effective) and not self.void_pending

    @property
    def phase(self) -> str:
        if not self.is_open:
            return closed_phase(self.round.status)
        if self.void_pending:
            return FROZEN
        return phase(self.steps, self.settlement is not None)

    def summary(self) -> dict[str, Any]:
        """The JSON state summary (API): boxes, dealer, legal steps, settlement."""
        out = self.engine.summary(self.state)
        out.update(phase=self.phase, last_seq=self.last_seq,
                   undoable=self.last_step if self.can_undo else None,
                   next_steps=[s.to_dict() for s in self.steps] if self.is_open else [])
        return out


# --- reading ----------------------------------------------------------------------------------

def load(session: Session, round_id: int) -> LiveRound:
    """The round with its events folded (``NotFound`` for an unknown id)."""
    return view(house.HOUSE.load(session, round_id))


def view(loaded: Loaded) -> LiveRound:
    """A :class:`LiveRound` from a stream as read (or as the step just recorded left it)."""
    row, table, request = loaded.row, loaded.table, loaded.void_request
    if loaded.status != row.status:
        row = replace(row, status=loaded.status)
    engine, state = loaded.engine, loaded.folded.state
    settlement = engine.settle(state) if engine.can_settle(state) else None
    steps: tuple[Step, ...] = ()
    if loaded.is_open and (request is None or request.status != voids.PENDING):
        # ``void`` closed a redealt round before voids needed an approval: never offered now
        steps = tuple(s for s in engine.next_steps(state) if s.type != VOID)
    return LiveRound(row, table, loaded.events, engine, state, steps, loaded.effective, settlement,
                     loaded.stored, request, loaded.rules)


def open_round_id(session: Session, table_id: int) -> int | None:
    """The round in progress at a table (on its open shift), if any."""
    query = (select(Round.id).join(Shift, Shift.id == Round.shift_id)  # type: ignore[arg-type]
             .where(Round.table_id == table_id, Round.status == RoundStatus.OPEN.value,
                    Shift.status == ShiftStatus.OPEN.value)
             .order_by(Round.number.desc()))  # type: ignore[attr-defined]
    found: int | None = session.exec(query).first()
    return found


def last_round_id(session: Session, table_id: int) -> int | None:
    """The table's most recent round (to prefill the next round's bets)."""
    query = (select(Round.id).where(Round.table_id == table_id)
             .order_by(Round.id.desc()))  # type: ignore[union-attr]
    found: int | None = session.exec(query).first()
    return found


# --- writing ----------------------------------------------------------------------------------

def check_actor(session: Session, actor_id: int, shift_id: int | None = None) -> None:
    """Table staff; with ``shift_id``, staff of that (open) shift (``people/duties.py``)."""
    house.check_round_recorder(session, actor_id, shift_id)


def draw_needed(live: LiveRound, draw: Sequence[Card]) -> int:
    """How many cards the dealer's draw for a bought game takes after ``draw``: 1, or 2 when
    the first brings the free second replacement (the engine's ``draw_needed``)."""
    return cards_needed(live.state, tuple(draw))
