"""The live round at a table: start it, record each croupier step, undo, pay out.

A round's state comes only from its stored events, replayed through the pure flow of its game
(``rules.games.flow``; memoised by content in :mod:`.memo`). Recording a step (:mod:`.steps`,
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

A round is voided only with a pit boss's approval (issue 6). The croupier's *Redeal* (a box
received a wrong number of cards: the engine's ``Redeal``, verified but not stored as an event)
files a void request through :mod:`.voids` with the engine's reason; so does a misdeal asked for
from the round's page. While a void request is pending the round is *frozen*: it stays open but
takes no step (no undo, no "Paid") and no new round starts at the table. An approval makes the
round ``voided`` (a status set by the decision; the event stream is left as it was and still
replays); a rejection returns it to play where it stopped. The ``void`` meta event of the flow
codec is only replayed (rounds voided before approvals existed); the service no longer writes it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from sqlalchemy import text
from sqlmodel import Session, func, select

from ...models import (
    POKER_GAMES,
    Round,
    RoundEvent,
    RoundSettlement,
    RoundStatus,
    Shift,
    ShiftStatus,
    User,
)
from ...rules.cards import Card
from ...rules.games import common
from ...rules.games.flow import PAID, UNDO, VOID, Event, Folded, GameFlow, Step, phase, start_rules
from ...rules.phrase import Phrase
from ...rules.settlement import Settlement
from ..disputes import voids
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import duties
from ..shifts import shifts
from ..tables import tables
from . import memo
from . import store as rounds

#: who records rounds: the people who run a table
RECORDERS = shifts.OPENERS
#: the croupier's step that asks for a void (a box received a wrong number of cards)
REDEAL = "redeal"
FROZEN = Phrase("Void requested — waiting for a pit boss")


def _engine_version() -> str:
    try:
        return f"dealer_assist {metadata.version('dealer_assist')}"
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "dealer_assist dev"


ENGINE_VERSION = _engine_version()


@dataclass(frozen=True, slots=True)
class BoxStake:
    """A box's stakes when the round starts (``seat`` defaults to the box)."""

    box: str
    ante: int
    bonus: int = 0
    seat: str | None = None

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"box": self.box, "seat": self.seat or self.box, "ante": self.ante}
        if self.bonus:
            out["bonus"] = self.bonus
        return out


@dataclass(frozen=True, slots=True)
class LiveRound:
    """A round as the table screen and the API show it: replayed from its events."""

    round: rounds.RoundView
    table: tables.TableView
    events: list[rounds.EventView]
    flow: GameFlow
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
        return self.flow.settle_ready(self.state) if self.is_open else None

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
            return Phrase("Round %(status)s", status=Phrase(self.round.status))
        if self.void_pending:
            return FROZEN
        return phase(self.steps, self.settlement is not None)

    def summary(self) -> dict[str, Any]:
        """The JSON state summary (API): boxes, dealer, legal steps, settlement."""
        out = self.flow.summary(self.state)
        out.update(phase=self.phase, last_seq=self.last_seq,
                   undoable=self.last_step if self.can_undo else None,
                   next_steps=[s.to_dict() for s in self.steps] if self.is_open else [])
        return out


# --- reading ----------------------------------------------------------------------------------

def flow_of(session: Session, row: Round) -> tuple[GameFlow, Any]:
    """The flow and empty round of ``row``, from its own rules only."""
    return start_rules(rounds.rules_of(session, row))


def _rules_key(rules: Mapping[str, Any]) -> str:
    """What a fold depends on besides the events: the round's own rules, canonically."""
    return json.dumps(rules, sort_keys=True, separators=(",", ":"))


def _stored(session: Session, round_id: int) -> dict[str, Any] | None:
    row = session.exec(select(RoundSettlement).where(RoundSettlement.round_id == round_id)
                       .order_by(RoundSettlement.through_seq.desc())).first()  # type: ignore[attr-defined]
    return json.loads(row.settlement) if row else None


def load(session: Session, round_id: int) -> LiveRound:
    """The round with its events folded (``NotFound`` for an unknown id)."""
    row = session.get(Round, round_id)
    if row is None:
        raise NotFound("No round with id %(round_id)s.", round_id=round_id)
    table = tables.get_table(session, row.table_id)
    if table.game in POKER_GAMES:  # issue 15: a poker hand replays with the poker engine
        raise Conflict("Round %(number)s is a hand of the poker table %(name)s: read it at "
                       "/api/v1/poker/hands/%(round_id)s.",
                       number=row.number, name=table.name, round_id=round_id)
    events = rounds.events(session, round_id)
    # most rounds never see a void request or a settlement row: one cheap look before the
    # heavier queries (the time of a step is mostly SQL statements built and run)
    requests = (voids.changes(session, kind="void", round_id=round_id)
                if _has_void_request(session, round_id) else [])
    stored = _stored(session, round_id) if row.status != RoundStatus.OPEN.value else None
    rules = rounds.rules_of(session, row)
    return assemble(_view(row), table, rules, events, fold(rules, events), stored,
                    requests[-1] if requests else None)


_ANY_VOID_REQUEST = text("SELECT 1 FROM round_change_request WHERE round_id = :rid "
                         "AND kind = 'void' LIMIT 1")


def _has_void_request(session: Session, round_id: int) -> bool:
    return session.connection().execute(_ANY_VOID_REQUEST, {"rid": round_id}).first() is not None


def _view(row: Round) -> rounds.RoundView:
    return rounds.RoundView(row.id or 0, row.table_id, row.shift_id, row.number, row.status,
                            row.opened_at)


def fold(rules: Mapping[str, Any], events: Sequence[rounds.EventView]) -> Folded:
    """The engine's replay of ``events`` from the empty round of the round's own ``rules``,
    memoised by content (:mod:`.memo`): replay stays the truth, a request replays at most once."""
    flow, empty = start_rules(rules)
    key = memo.digest((_rules_key(rules),), ((e.seq, e.type, e.payload) for e in events))
    return memo.fold(key, lambda: flow.replay(empty, [Event(e.seq, e.type, e.payload)
                                                       for e in events]))


def remember(rules: Mapping[str, Any], events: Sequence[rounds.EventView],
             folded: Folded) -> None:
    """Enter a fold the service computed step by step (after an append) in the memo."""
    key = memo.digest((_rules_key(rules),), ((e.seq, e.type, e.payload) for e in events))
    memo.put(key, folded)


def assemble(view: rounds.RoundView, table: tables.TableView, rules: dict[str, Any],
             events: list[rounds.EventView], folded: Folded, stored: dict[str, Any] | None,
             request: voids.ChangeView | None) -> LiveRound:
    """A :class:`LiveRound` from its parts (read back by :func:`load`, or just written)."""
    flow, _empty = start_rules(rules)
    settlement = flow.settle(folded.state) if flow.can_settle(folded.state) else None
    steps: tuple[Step, ...] = ()
    if view.status == RoundStatus.OPEN.value and (request is None
                                                  or request.status != voids.PENDING):
        # ``void`` closed a redealt round before voids needed an approval: never offered now
        steps = tuple(s for s in flow.next_steps(folded.state) if s.type != VOID)
    return LiveRound(view, table, events, flow, folded.state, steps, folded.steps, settlement,
                     stored, request, rules)


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
    user = session.get(User, actor_id)
    if user is None or not user.active or user.role not in RECORDERS:
        raise PermissionDenied("Only a croupier, pit boss or shift manager records rounds.")
    if shift_id is not None:
        duties.check_recorder(session, user=user, shift_id=shift_id)
        duties.check_shift_open(session, shift_id, "recording a step")


def _event_by_key(session: Session, round_ids: Sequence[int], key: str) -> RoundEvent | None:
    if not round_ids:
        return None
    query = select(RoundEvent).where(RoundEvent.round_id.in_(round_ids),  # type: ignore[attr-defined]
                                     RoundEvent.idempotency_key == key)
    return session.exec(query).first()


def same_event(existing: RoundEvent, type: str, payload: Mapping[str, Any]) -> bool:
    return existing.type == type and existing.payload == rounds.encode_payload(payload)


def check_key(key: str) -> str:
    key = (key or "").strip()
    if not key or len(key) > rounds.KEY_MAX:
        raise ValidationError("An idempotency key is 1 to %(KEY_MAX)s characters.",
                              KEY_MAX=rounds.KEY_MAX,
                              field="idempotency_key")
    return key


def start_round(session: Session, *, table_id: int, actor_id: int, boxes: Sequence[BoxStake],
                idempotency_key: str) -> LiveRound:
    """Start a round on the table's open shift with its first step, the bets (``place``).

    A short transaction of its own, committed here (:func:`.steps.begin`)."""
    from . import steps

    return steps.begin(session, table_id=table_id, actor_id=actor_id, boxes=boxes,
                       idempotency_key=idempotency_key).live_round


def record_step(session: Session, *, round_id: int, actor_id: int, type: str,
                payload: Mapping[str, Any] | None, idempotency_key: str,
                expected_seq: int | None = None) -> LiveRound:
    """Record one step (``undo`` and ``paid`` included) and return the new round.

    ``redeal`` stores no event: it asks a pit boss to void the round. A short transaction of
    its own, committed here (:func:`.steps.record`)."""
    from . import steps

    return steps.record(session, round_id=round_id, actor_id=actor_id, type=type,
                        payload=payload, idempotency_key=idempotency_key,
                        expected_seq=expected_seq).live_round


def check_seq(live: LiveRound, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != live.last_seq:
        raise Conflict("Round %(number)s changed on another device (now at step "
                       "%(last_seq)s, you saw %(expected_seq)s); the screen shows it now.",
                       number=live.round.number, last_seq=live.last_seq,
                       expected_seq=expected_seq)


def undo(session: Session, *, round_id: int, actor_id: int, idempotency_key: str,
         expected_seq: int | None = None) -> LiveRound:
    """Cancel the last effective step (an ``undo`` event; nothing is deleted)."""
    return record_step(session, round_id=round_id, actor_id=actor_id, type=UNDO, payload={},
                       idempotency_key=idempotency_key, expected_seq=expected_seq)


def pay(session: Session, *, round_id: int, actor_id: int, idempotency_key: str,
        expected_seq: int | None = None) -> LiveRound:
    """"Paid": store the settlement and close the round (the engine must say it can settle)."""
    return record_step(session, round_id=round_id, actor_id=actor_id, type=PAID, payload={},
                       idempotency_key=idempotency_key, expected_seq=expected_seq)


def draw_needed(live: LiveRound, draw: Sequence[Card]) -> int:
    """How many cards the dealer's draw for a bought game takes after ``draw``: 1, or 2 when
    the first brings the free second replacement (``rules.games.common.draw_needed``)."""
    state = live.state
    p = state.profile
    return common.draw_needed(state.dealer, draw, p.ranking, p.qualifier,
                              free_second_replacement=p.free_second_replacement)


def profile_version(rules: Mapping[str, Any]) -> str:
    """A fingerprint of the round's profile as data (its stored hash, shortened)."""
    return str(rules["profile_hash"])[:16]


def event_count(session: Session, round_id: int) -> int:
    query = select(func.count()).select_from(RoundEvent).where(RoundEvent.round_id == round_id)
    return int(session.exec(query).one())
