"""What a stream is to the one record path (:mod:`.record`): its kinds and its reads.

A stream is a house round, a poker hand or a parlour evening. :class:`Stream` says what differs
when a step is recorded (where its events hang, who may record, how its row is locked, what a
finished stream stores); :class:`Opener` what differs when one starts (where it starts, what
the start's read finds, its row). :class:`Loaded` is a stream as one read found it,
:class:`Recorded` a stream after a request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from sqlmodel import Session

from ...rules.engine import Folded, Game
from ..people import duties
from . import store

OPEN = "open"


@dataclass(frozen=True, slots=True)
class Wording:
    """A stream's refusals, as its screen says them (``%(number)s``, ``%(status)s``...)."""

    closed: str
    stale: str
    frozen: str
    reused: str
    nothing: str


@dataclass(frozen=True, slots=True)
class Facts:
    """What a stream's one read found besides the stream, for the checks: the table (the audit
    entries name it), the role of ``actor_id`` (None: no such account, or disabled) and the
    shift's status and opener (duties rules 5 and 6) and the dealer of its newest stint
    (rule 5 since ``duties.UNREAD``: not read, the check reads it)."""

    table_id: int | None
    actor_role: str | None = None
    shift_status: str | None = None
    shift_opened_by: int | None = None
    actor_id: int | None = None
    dealer_id: int | None | duties.Unread = duties.UNREAD


@dataclass(frozen=True, slots=True)
class Locked:
    """The stream's row under the write lock: what the compare of compare-and-append reads."""

    status: str
    void_pending: bool
    last_seq: int


@dataclass(frozen=True, slots=True)
class Closed:
    """A stream a step completed: its status now and the settlement as stored."""

    status: str
    stored: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Loaded:
    """A stream as read at the start of an attempt (or as left by the step just recorded)."""

    id: int
    number: int
    status: str
    shift_id: int | None
    rules: dict[str, Any]
    engine: Game[Any]
    events: list[store.EventView]
    folded: Folded[Any]
    void_pending: bool = False
    #: the stream's row as read (a house round's or a poker hand's ``game_round``)
    row: Any = None
    #: a house round's table, and its newest void request (``voids.ChangeView``), if any
    table: Any = None
    void_request: Any = None
    #: a parlour evening's name
    name: str | None = None
    #: the settlement stored by the step just recorded, if it completed the stream
    stored: dict[str, Any] | None = None
    #: what the same read found for the checks (None: the stream reads them when asked)
    facts: Facts | None = None
    #: the rules as stored (the replay memo's key; None: made from ``rules``)
    rules_text: str | None = None
    #: the last sequence number the stream's row was read with (None: the read was one
    #: snapshot, or did not say); its events were read by a statement of their own
    read_seq: int | None = None

    @property
    def torn(self) -> bool:
        """A write committed between the row's statement and the events' (the read is not one
        snapshot, ``txn.begin_read``): the row's status may be older than the events."""
        return self.read_seq is not None and self.read_seq != self.last_seq

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0

    @property
    def effective(self) -> tuple[int, ...]:
        return self.folded.steps

    @property
    def last_step(self) -> int | None:
        return self.folded.last_step

    @property
    def is_open(self) -> bool:
        return self.status == OPEN


@dataclass(frozen=True, slots=True)
class Recorded:
    """The stream after a request, and whether this request stored something (201 vs 200)."""

    loaded: Loaded
    created: bool
    #: the engine's state this request started from (a step stored by it), else None
    before: Any = None


class Stream(Protocol):
    """One kind of stream, as the record path needs it."""

    wording: Wording
    #: the ``round_event`` column that names the stream (``round_id`` or ``game_id``)
    column: str
    #: a complete state stores its settlement at once (a poker hand); else only ``paid`` does
    settles_when_complete: bool

    def load(self, session: Session, stream_id: int, actor_id: int | None = None) -> Loaded:
        """The stream and its events, folded (``NotFound`` for an unknown id); ``actor_id``:
        whoever records, whose role the same read may fetch (``Loaded.facts``)."""
        ...

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        """Who may record (with ``loaded``: also who may record in this stream now)."""
        ...

    def lock(self, session: Session, loaded: Loaded) -> Locked:
        """The stream's row, locked until commit: its status, pending void and last sequence
        number now."""
        ...

    def store_settlement(self, session: Session, loaded: Loaded, seq: int, settlement: Any,
                         state: Any) -> Closed:
        """Store a complete stream's settlement and close it."""
        ...


@dataclass(frozen=True, slots=True)
class Opening:
    """What a start's one read found: the stream this idempotency key already started (a
    resend), and whatever the opener read besides (its table, shift, who starts)."""

    started: int | None
    found: Any = None


class Opener(Protocol):
    """How one kind of stream starts (a house round, a poker hand, a parlour evening)."""

    @property
    def stream(self) -> Stream:
        """The stream it starts, recorded like any afterwards."""
        ...

    @property
    def step(self) -> str | None:
        """The type of the start's own first event (a house round's bets); None: the start is
        the stream's row alone, which keeps the key (``start_key``)."""
        ...

    def read(self, session: Session, scope_id: int | None, actor_id: int,
             key: str) -> Opening:
        """One read, no lock: who may start here (refused first) and what this key started."""
        ...

    def same(self, session: Session, loaded: Loaded, payload: Mapping[str, Any]) -> bool:
        """A start stored in the row (``step`` None): did ``payload`` start ``loaded``?"""
        ...

    def check(self, session: Session, opening: Opening, actor_id: int,
              payload: Mapping[str, Any]) -> Loaded | None:
        """The checks of a new start; the stream to be, empty (None: made under the lock)."""
        ...

    def lock(self, session: Session, opening: Opening, key: str) -> Any:
        """Under the write lock, what the read found as it is now (None: it moved)."""
        ...

    def insert(self, session: Session, opening: Opening, locked: Any, empty: Loaded | None,
               actor_id: int, key: str) -> Loaded:
        """The stream's row (and its audit entry): the new stream, still without events."""
        ...


#: a stream's own step that is no event: an answer, a write to run under the compare, or None
Before = Callable[[Loaded], "Recorded | Callable[[], Recorded] | None"]
