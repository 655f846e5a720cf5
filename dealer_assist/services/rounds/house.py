"""A house round (Russian poker and the stud games) as a stream of the one record path, and what
every stream kept in a ``game_round`` row shares with it (a poker hand is one too): locking the
row, the pending void that freezes it, the stored settlement.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from importlib import metadata
from typing import Any

from sqlalchemy import bindparam, exists, func, insert, true, update
from sqlalchemy import select as core_select
from sqlmodel import Session, col, select

from ...audit import capture
from ...models import GameTable, Round, RoundEvent, RoundSettlement, RoundStatus, Shift, User
from ...models.audit import RoundChangeDecision, RoundChangeRequest
from ...models.base import utcnow
from ...rules.engine import Game
from ...rules.games.registry import get_game, rules_engine
from ...tablet import refusal
from ..errors import N_, Conflict, NotFound, PermissionDenied
from ..people import duties, stints
from ..shifts import shifts
from ..tables import tables
from . import memo, store, txn
from .streams import Closed, Facts, Loaded, Locked, Wording

#: who records rounds: the people who run a table
RECORDERS = shifts.OPENERS
#: a void request's status while no pit boss has decided (``voids.PENDING``)
PENDING = "pending"

HOUSE_WORDING = Wording(closed=refusal.CLOSED, stale=refusal.STALE, frozen=refusal.FROZEN,
                        reused=refusal.REUSED, nothing=refusal.NOTHING)


def _engine_version() -> str:
    try:
        return f"dealer_assist {metadata.version('dealer_assist')}"
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "dealer_assist dev"


ENGINE_VERSION = _engine_version()

_R = Round.__table__  # type: ignore[attr-defined]
_T = GameTable.__table__  # type: ignore[attr-defined]
_S = Shift.__table__  # type: ignore[attr-defined]
_U = User.__table__  # type: ignore[attr-defined]
_E = RoundEvent.__table__  # type: ignore[attr-defined]
_SETTLEMENT = RoundSettlement.__table__  # type: ignore[attr-defined]
_REQUEST = RoundChangeRequest.__table__  # type: ignore[attr-defined]
_DECISION = RoundChangeDecision.__table__  # type: ignore[attr-defined]


def _void_requested(*, pending: bool) -> Any:
    """Whether the round (of the enclosing query) has a void request; ``pending``: one that
    no pit boss has decided yet (a void waiting for a pit boss freezes the round)."""
    query = core_select(_REQUEST.c.id).where(_REQUEST.c.round_id == _R.c.id,
                                             _REQUEST.c.kind == "void")
    if pending:
        query = query.where(~exists().where(_DECISION.c.request_id == _REQUEST.c.id))
    return exists(query)


def _last_seq() -> Any:
    """The round's (of the enclosing query) last event's sequence number (NULL: none yet)."""
    return (core_select(func.max(_E.c.seq)).where(_E.c.round_id == _R.c.id)
            .scalar_subquery())


#: a step reads its round in one statement -- the round row, its table, its shift's
#: opener and status, whether any void was asked for, the role of whoever records (NULL:
#: no such account, or disabled) and the dealer tapped in at the table (rule 5). Built once;
#: SQLAlchemy compiles it once.
_HEAD = (core_select(*(c.label(f"r_{c.name}") for c in _R.c),
                     *(c.label(f"t_{c.name}") for c in _T.c),
                     _S.c.status.label("shift_status"), _S.c.opened_by.label("shift_opened_by"),
                     _void_requested(pending=False).label("any_void"),
                     core_select(_U.c.role).where(_U.c.id == bindparam("uid"),
                                                  _U.c.active == true())
                     .scalar_subquery().label("actor_role"),
                     stints.current_dealer().label("dealer_id"),
                     _last_seq().label("last_seq"))
         .select_from(_R.join(_T, _T.c.id == _R.c.table_id).join(_S, _S.c.id == _R.c.shift_id))
         .where(_R.c.id == bindparam("rid")))
#: the compare of compare-and-append in one statement: the round's status, whether a void is
#: pending and its last sequence number, as they are now (SQLite: under ``BEGIN IMMEDIATE``,
#: which has serialised the writer)
_COMPARE = (core_select(_R.c.status, _void_requested(pending=True).label("pending"),
                        _last_seq().label("last_seq"))
            .where(_R.c.id == bindparam("rid")))
#: PostgreSQL: the round row locked until commit first (``FOR NO KEY UPDATE``), then the
#: compare in a statement of its own -- its snapshot is taken after the lock was granted, so it
#: sees what the transaction we waited for committed (a subquery of the locking statement
#: itself would still read the snapshot from before the wait)
_ROW_LOCK = (core_select(_R.c.id).where(_R.c.id == bindparam("rid"))
             .with_for_update(key_share=True))


@dataclass(frozen=True, slots=True)
class RoundRead:
    """A game_round stream's row as one statement reads it (:data:`_HEAD`)."""

    round: store.RoundView
    table: tables.TableView
    rules_text: str | None
    any_void: bool
    facts: Facts
    #: the last event's sequence number as the same statement saw it (0: none)
    last_seq: int = 0


def read_round(session: Session, round_id: int, actor_id: int | None = None) -> RoundRead | None:
    """The round, its table, its shift's facts and the actor's role: one round trip."""
    row = session.connection().execute(_HEAD, {"rid": round_id, "uid": actor_id}).first()
    if row is None:
        return None
    m = row._mapping
    view = store.RoundView(**{f.name: m[f"r_{f.name}"] for f in fields(store.RoundView)})
    table = tables.TableView(**{f.name: m[f"t_{f.name}"] for f in fields(tables.TableView)})
    return RoundRead(view, table, m["r_rules"], bool(m["any_void"]),
                     Facts(table.id, m["actor_role"], m["shift_status"], m["shift_opened_by"],
                           actor_id, m["dealer_id"]), int(m["last_seq"] or 0))


def void_request(session: Session, round_id: int, any_void: bool | None = None) -> Any:
    """The round's newest void request (``voids.ChangeView``: pending, approved or rejected),
    if any. Most rounds never see one: the stream's read says whether to look (``any_void``)."""
    if any_void is None:
        any_void = session.connection().execute(
            core_select(_void_requested(pending=False)).select_from(_R)
            .where(_R.c.id == round_id)).scalar()
    if not any_void:
        return None
    from . import voids  # late: voids -> review -> poker_hands -> this module

    requests = voids.changes(session, kind="void", round_id=round_id)
    return requests[-1] if requests else None


def pending(request: Any) -> bool:
    """A void request still waiting for a pit boss (the round is frozen)."""
    return request is not None and request.status == PENDING


def lock_round(session: Session, loaded: Loaded) -> Locked:
    """The round row locked until commit: its status, whether a void is pending, its last
    sequence number (SQLite one statement, PostgreSQL two: see :data:`_ROW_LOCK`)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        conn.execute(_ROW_LOCK, {"rid": loaded.id})
    row = conn.execute(_COMPARE, {"rid": loaded.id}).first()
    if row is None:
        raise NotFound("No round with id %(round_id)s.", round_id=loaded.id)
    return Locked(row.status, bool(row.pending) and row.status == RoundStatus.OPEN.value,
                  int(row.last_seq or 0))


def stored_settlement(session: Session, round_id: int) -> dict[str, Any] | None:
    row = session.exec(select(RoundSettlement).where(RoundSettlement.round_id == round_id)
                       .order_by(col(RoundSettlement.through_seq).desc())).first()
    return json.loads(row.settlement) if row else None


_INSERT_SETTLEMENT = insert(_SETTLEMENT)
_SETTLE = update(_R).where(_R.c.id == bindparam("rid"), _R.c.status == RoundStatus.OPEN.value)


def store_round_settlement(session: Session, loaded: Loaded, seq: int, body: dict[str, Any],
                           *, engine: str, profile: str, version: str) -> Closed:
    """The settlement row of a complete round; the round is settled. Two Core statements and
    their audit entries (as the flush hook writes them: the settlement, then the round)."""
    text_ = store.encode_payload(body)
    values: dict[str, Any] = {"round_id": loaded.id, "through_seq": seq, "settlement": text_,
                              "engine_version": engine, "profile": profile,
                              "profile_version": version, "created_at": utcnow()}
    conn = session.connection()
    values["id"] = store.new_id(conn.execute(_INSERT_SETTLEMENT, values))
    settled = RoundStatus.SETTLED.value
    if conn.execute(_SETTLE.values(status=settled), {"rid": loaded.id}).rowcount != 1:
        raise txn.Stale  # not open any more (the lock said it was: a bug, never a half-write)
    table_id = loaded.facts.table_id if loaded.facts else None
    capture.append_rows(session, [
        capture.created(_SETTLEMENT.name, values, table_id),
        capture.updated(_R.name, {"id": loaded.id}, {"status": (loaded.status, settled)},
                        table_id)])
    stored: dict[str, Any] = json.loads(text_)
    return Closed(settled, stored)


def check_recorder(session: Session, actor_id: int, shift_id: int | None, message: str,
                   what: str, facts: Facts | None = None) -> None:
    """Table staff; with ``shift_id``, staff of that (open) shift (``people/duties.py``).
    ``facts``: the actor's role and the shift as the stream's read found them (no more reads
    unless a croupier recorded in a shift someone else opened)."""
    opened_by = facts.shift_opened_by if facts else None
    status = facts.shift_status if facts else None
    if facts is None or facts.actor_id != actor_id or opened_by is None or status is None:
        user = session.get(User, actor_id)
        if user is None or not user.active or user.role not in RECORDERS:
            raise PermissionDenied(message)
        if shift_id is not None:
            duties.check_recorder(session, user=user, shift_id=shift_id)
            duties.check_shift_open(session, shift_id, what)
        return
    if facts.actor_role not in RECORDERS:
        raise PermissionDenied(message)
    if shift_id is not None:
        duties.check_recorder_at(session, user_id=actor_id, role=facts.actor_role,
                                 shift_id=shift_id, opened_by=opened_by,
                                 dealer_id=facts.dealer_id)
        duties.check_status_open(status, what)


def check_round_recorder(session: Session, actor_id: int, shift_id: int | None = None,
                         facts: Facts | None = None) -> None:
    """Who records a house round: table staff; with ``shift_id``, staff of that open shift."""
    check_recorder(session, actor_id, shift_id,
                   N_("Only a croupier, pit boss or shift manager records rounds."),
                   "recording a step", facts)


def profile_version(rules: dict[str, Any]) -> str:
    """A fingerprint of the round's profile as data (its stored hash, shortened)."""
    return str(rules["profile_hash"])[:16]


def loaded_round(session: Session, got: RoundRead, engine: Game[Any], rules: dict[str, Any],
                 *, table: bool = True, stored: bool = True) -> Loaded:
    """A game_round stream (a house round or a poker hand) from its read: its events folded
    (the memo), its void request looked up only if one was ever asked for; ``table``: its table
    kept with it (a house round's view shows it); ``stored``: a closed round's stored
    settlement too."""
    r = got.round
    events = store.events(session, r.id)
    request = void_request(session, r.id, got.any_void)
    is_open = r.status == RoundStatus.OPEN.value
    return Loaded(r.id, r.number, r.status, r.shift_id, rules, engine, events,
                  memo.replay(engine, rules, events, got.rules_text),
                  void_pending=is_open and pending(request),
                  row=r, table=got.table if table else None, void_request=request,
                  facts=got.facts, rules_text=got.rules_text,
                  read_seq=got.last_seq,
                  stored=None if is_open or not stored else stored_settlement(session, r.id))


class HouseStream:
    """A house round: ``round_event.round_id``; "Paid" stores the settlement."""

    wording = HOUSE_WORDING
    column = "round_id"
    settles_when_complete = False

    def load(self, session: Session, stream_id: int, actor_id: int | None = None) -> Loaded:
        got = read_round(session, stream_id, actor_id)
        if got is None:
            raise NotFound("No round with id %(round_id)s.", round_id=stream_id)
        table = got.table
        if get_game(table.game).poker_room:  # a poker hand is read as a hand
            raise Conflict("Round %(number)s is a hand of the poker table %(name)s: read it at "
                           "/api/v1/poker/hands/%(round_id)s.", number=got.round.number,
                           name=table.name, round_id=stream_id)
        rules = store.rules_from(got.rules_text, lambda: table)
        return loaded_round(session, got, rules_engine(rules), rules)

    def check_actor(self, session: Session, actor_id: int, loaded: Loaded | None) -> None:
        check_round_recorder(session, actor_id, loaded.shift_id if loaded else None,
                             loaded.facts if loaded else None)

    def lock(self, session: Session, loaded: Loaded) -> Locked:
        return lock_round(session, loaded)

    def store_settlement(self, session: Session, loaded: Loaded, seq: int, settlement: Any,
                         state: Any) -> Closed:
        return store_round_settlement(session, loaded, seq, settlement.to_dict(),
                                      engine=ENGINE_VERSION, profile=state.profile.name,
                                      version=profile_version(loaded.rules))


HOUSE = HouseStream()
