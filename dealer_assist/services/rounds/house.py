"""A house round (Russian poker and the stud games) as a stream of the one record path, and what
every stream kept in a ``game_round`` row shares with it (a poker hand is one too): locking the
row, the pending void that freezes it, the stored settlement.
"""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any

from sqlalchemy import text
from sqlmodel import Session, col, select

from ...models import Round, RoundSettlement, RoundStatus, User
from ...rules.registry import get_game, start_rules
from ..errors import N_, Conflict, NotFound, PermissionDenied
from ..people import duties
from ..shifts import shifts
from ..tables import tables
from . import memo, txn
from . import store as rounds
from .record import Loaded, Wording

#: who records rounds: the people who run a table
RECORDERS = shifts.OPENERS
#: a void request's status while no pit boss has decided (``disputes.voids.PENDING``)
PENDING = "pending"

HOUSE_WORDING = Wording(
    closed=N_("Round %(number)s is %(status)s; it takes no more steps."),
    stale=N_("Round %(number)s changed on another device (now at step %(last_seq)s, you saw "
          "%(expected_seq)s); the screen shows it now."),
    frozen=N_("Round %(number)s waits for a pit boss to decide on its void; nothing is recorded "
           "until then."),
    reused=N_("This idempotency key was already used for a different step."),
    nothing=N_("Round %(number)s has no step to undo."),
)


def _engine_version() -> str:
    try:
        return f"dealer_assist {metadata.version('dealer_assist')}"
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "dealer_assist dev"


ENGINE_VERSION = _engine_version()

_ANY_VOID_REQUEST = text("SELECT 1 FROM round_change_request WHERE round_id = :rid "
                         "AND kind = 'void' LIMIT 1")
#: a round's pending void requests (a void waiting for a pit boss freezes the round)
_PENDING_VOIDS = text(
    "SELECT count(*) FROM round_change_request r LEFT JOIN round_change_decision d "
    "ON d.request_id = r.id WHERE r.round_id = :rid AND r.kind = 'void' AND d.id IS NULL")


def void_request(session: Session, round_id: int) -> Any:
    """The round's newest void request (``voids.ChangeView``: pending, approved or rejected),
    if any. Most rounds never see one: a cheap look first (the time of a step is mostly SQL
    statements)."""
    if session.connection().execute(_ANY_VOID_REQUEST, {"rid": round_id}).first() is None:
        return None
    from ..disputes import voids  # late: the disputes' review reads rounds through here

    requests = voids.changes(session, kind="void", round_id=round_id)
    return requests[-1] if requests else None


def pending(request: Any) -> bool:
    """A void request still waiting for a pit boss (the round is frozen)."""
    return request is not None and request.status == PENDING


def lock_round(session: Session, loaded: Loaded) -> tuple[Round, str, bool]:
    """The round row locked until commit, its status and whether a void is pending now."""
    row = txn.lock_round(session, loaded.id)
    pending = session.connection().execute(_PENDING_VOIDS, {"rid": loaded.id}).scalar()
    return row, row.status, bool(pending) and row.status == RoundStatus.OPEN.value


def stored_settlement(session: Session, round_id: int) -> dict[str, Any] | None:
    row = session.exec(select(RoundSettlement).where(RoundSettlement.round_id == round_id)
                       .order_by(col(RoundSettlement.through_seq).desc())).first()
    return json.loads(row.settlement) if row else None


def store_round_settlement(session: Session, row: Round, seq: int, body: dict[str, Any], *,
                           engine: str, profile: str, version: str) -> dict[str, Any]:
    """The settlement row of a complete round; the round is settled."""
    text_ = rounds.encode_payload(body)
    assert row.id is not None
    session.add(RoundSettlement(round_id=row.id, through_seq=seq, settlement=text_,
                                engine_version=engine, profile=profile, profile_version=version))
    row.status = RoundStatus.SETTLED.value
    session.add(row)
    session.flush()
    stored: dict[str, Any] = json.loads(text_)
    return stored


def check_recorder(session: Session, actor_id: int, shift_id: int | None, message: str,
                   what: str) -> None:
    """Table staff; with ``shift_id``, staff of that (open) shift (``people/duties.py``)."""
    user = session.get(User, actor_id)
    if user is None or not user.active or user.role not in RECORDERS:
        raise PermissionDenied(message)
    if shift_id is not None:
        duties.check_recorder(session, user=user, shift_id=shift_id)
        duties.check_shift_open(session, shift_id, what)


def check_round_recorder(session: Session, actor_id: int, shift_id: int | None = None) -> None:
    """Who records a house round: table staff; with ``shift_id``, staff of that open shift."""
    check_recorder(session, actor_id, shift_id,
                   N_("Only a croupier, pit boss or shift manager records rounds."),
                   "recording a step")


def profile_version(rules: dict[str, Any]) -> str:
    """A fingerprint of the round's profile as data (its stored hash, shortened)."""
    return str(rules["profile_hash"])[:16]


class HouseStream:
    """A house round: ``round_event.round_id``; "Paid" stores the settlement."""

    wording = HOUSE_WORDING
    column = "round_id"
    settles_when_complete = False

    def load(self, session: Session, stream_id: int) -> Loaded:
        row = session.get(Round, stream_id)
        if row is None:
            raise NotFound("No round with id %(round_id)s.", round_id=stream_id)
        table = tables.get_table(session, row.table_id)
        if get_game(table.game).poker_room:  # issue 15: a poker hand is read as a hand
            raise Conflict("Round %(number)s is a hand of the poker table %(name)s: read it at "
                           "/api/v1/poker/hands/%(round_id)s.", number=row.number,
                           name=table.name, round_id=stream_id)
        events = rounds.events(session, stream_id)
        request = void_request(session, stream_id)
        is_open = row.status == RoundStatus.OPEN.value
        rules = rounds.rules_of(session, row)
        flow, _empty = start_rules(rules)
        return Loaded(stream_id, row.number, row.status, row.shift_id, rules, flow, events,
                      memo.replay(flow, rules, events),
                      void_pending=is_open and pending(request),
                      head=(rounds.round_view(row), table, request),
                      stored=None if is_open else stored_settlement(session, stream_id))

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        check_round_recorder(session, actor_id, loaded.shift_id if loaded else None)

    def lock(self, session: Session, loaded: Loaded) -> tuple[Any, str, bool]:
        return lock_round(session, loaded)

    def store_settlement(self, session: Session, row: Any, loaded: Loaded, seq: int,
                         settlement: Any, state: Any) -> dict[str, Any]:
        return store_round_settlement(session, row, seq, settlement.to_dict(),
                                      engine=ENGINE_VERSION, profile=state.profile.name,
                                      version=profile_version(loaded.rules))


HOUSE = HouseStream()
