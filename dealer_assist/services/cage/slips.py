"""Numbered slips: fills, credits and the table inventory slips (opener, closer).

Every slip carries a number issued by :func:`next_number`: the one ``slip_counter`` row is
locked (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite writes are ``BEGIN IMMEDIATE`` and queue
anyway), incremented and written in the slip's own transaction. So two tablets filling two
tables at the same instant get two numbers, a restart continues from the stored counter, and a
transaction rolled back gives its number back: the numbers issued are 1, 2, 3... without a gap,
and a gap in the slips can only be a slip removed behind the application's back (the accounting
report flags it). The slip's ``number`` is also unique in the database.

A slip is never deleted: :func:`void_slip` marks it VOID with a reason, signed by the pit boss
who asks (his session) and a second person (his PIN), never the same; the slip and its number
stay, and a void fill or credit no longer counts in the table's win.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import GameTable, Role, Shift, ShiftStatus, User, utcnow
from ...models.cage import NOTE_MAX, Slip, SlipCounter, SlipKind, SlipVoid
from ...models.floor import ActSignature
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import cosign
from . import issues

COUNTER_ID = 1
VOIDERS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
VOID_SIGNERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
VOIDABLE = frozenset({SlipKind.FILL.value, SlipKind.CREDIT.value})


@dataclass(frozen=True, slots=True)
class VoidView:
    reason: str
    requested_by: str
    signed_by: str
    at: datetime


@dataclass(frozen=True, slots=True)
class SlipView:
    """A slip as printed: number, when and where, the amount by denomination, the signers."""

    id: int
    number: int
    kind: str
    table: str
    game: str
    shift_id: int
    gaming_date: date
    issued_at: datetime
    amount: int
    chips: Mapping[int, int]
    croupier: str
    pit_boss: str
    #: how each signer authenticated (``pin`` or ``session``), by name
    signed: tuple[tuple[str, str], ...] = ()
    void: VoidView | None = None
    currency: str = ""
    transfer_id: int | None = None
    count_id: int | None = None
    extra: Mapping[str, str] = field(default_factory=dict)
    #: the cage cashier who issued the fill or credit ("" for a count's slip)
    cashier: str = ""


def next_number(session: Session) -> int:
    """The next slip number: the counter row locked, incremented and flushed (see the module
    docstring). The first slip ever creates the row; two first slips at once both try, one
    insert wins and the other reads it."""
    query = (select(SlipCounter).where(SlipCounter.id == COUNTER_ID).with_for_update()
             .execution_options(populate_existing=True))
    counter = session.exec(query).first()
    if counter is None:
        try:
            with session.begin_nested():
                session.add(SlipCounter(id=COUNTER_ID, last=0))
        except IntegrityError:
            pass
        counter = session.exec(query).first()
        assert counter is not None
    counter.last += 1
    session.add(counter)
    session.flush()
    return counter.last


def issue(session: Session, *, kind: str, shift_id: int, amount: int,
          chips: Mapping[int, int] | None, croupier_id: int, pit_boss_id: int,
          transfer_id: int | None = None, count_id: int | None = None,
          now: datetime | None = None) -> Slip:
    """Number and store the slip of a fill, credit or count just written (same transaction)."""
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    table = session.get(GameTable, shift.table_id)
    assert table is not None
    stored = (json.dumps({str(d): n for d, n in sorted(chips.items())}, separators=(",", ":"))
              if chips else None)
    slip = Slip(number=next_number(session), kind=kind, table_id=shift.table_id,
                shift_id=shift_id, game=table.game, gaming_date=shift.gaming_date,
                issued_at=now or utcnow(), amount=amount, chips=stored, croupier_id=croupier_id,
                pit_boss_id=pit_boss_id, transfer_id=transfer_id, count_id=count_id)
    session.add(slip)
    session.flush()
    return slip


def void_slip(session: Session, *, number: int, reason: str, actor_id: int, signer_id: int,
              credential: cosign.Credential | None, now: datetime | None = None) -> SlipView:
    """Mark a fill or credit slip VOID: the pit boss who asks signs by his session, a second
    person by his PIN. The slip keeps its number; its shift must still be open."""
    now = now or utcnow()
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give the reason for the void.", field="reason")
    if len(reason) > NOTE_MAX:
        raise ValidationError("A note is at most %(NOTE_MAX)s characters.", NOTE_MAX=NOTE_MAX,
                              field="reason")
    slip = session.exec(select(Slip).where(Slip.number == number)).first()
    if slip is None:
        raise NotFound("No slip number %(number)s.", number=number)
    if slip.kind not in VOIDABLE:
        raise ValidationError("Only a fill or credit slip can be voided; a count is counted "
                              "again on a new slip.", field="number")
    shift = session.get(Shift, slip.shift_id)
    if shift is None or shift.status != ShiftStatus.OPEN.value:
        raise Conflict("This shift is closed; its slips can no longer be voided.")
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in VOIDERS:
        raise PermissionDenied("Only a pit boss or shift manager voids a slip.")
    if signer_id == actor_id:
        raise ValidationError("Nobody approves what they requested: a second person signs "
                              "the void.", field="signer_id")
    if session.exec(select(SlipVoid.id).where(SlipVoid.slip_id == slip.id)).first():
        raise Conflict("Slip %(number)s is already void.", number=number)
    origin = credential or cosign.NONE
    mine = cosign.Signature(actor_id, actor.display_name, actor.role, "slip_void", "session",
                            origin.device_id)
    theirs = cosign.authenticate(session, user_id=signer_id, act="slip_void",
                                 credential=cosign.Credential(origin.pin, None,
                                                              origin.device_id, origin.origin),
                                 field="signer_pin", roles=VOID_SIGNERS)
    assert slip.id is not None
    row = SlipVoid(slip_id=slip.id, reason=reason, requested_by=actor_id, signed_by=signer_id,
                   at=now)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise Conflict("Slip %(number)s is already void.", number=number) from None
    for signature in (mine, theirs):
        cosign.record(session, signature, entity="slip_void", entity_id=row.id or 0, now=now)
    return get_slip(session, number)


# --- reading ----------------------------------------------------------------------------------

def _names(session: Session, ids: Iterable[int]) -> dict[int, str]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(select(User.id, User.display_name).where(col(User.id).in_(wanted)))
    return {uid: name for uid, name in rows.all() if uid is not None}


def _signatures(session: Session, slip: Slip) -> list[tuple[int, str]]:
    """(user id, method) of the act's signatures: the count's or the transfer's."""
    entity, entity_id = (("chip_transfer", slip.transfer_id) if slip.transfer_id is not None
                         else ("inventory_count", slip.count_id))
    if entity_id is None:
        return []
    rows = session.exec(select(ActSignature).where(ActSignature.entity == entity,
                                                   ActSignature.entity_id == str(entity_id))
                         .order_by(col(ActSignature.id))).all()
    return [(r.user_id, r.method) for r in rows]


def views(session: Session, slips: list[Slip]) -> list[SlipView]:
    """The slips with their table's name, signers and void (a handful of queries)."""
    voids = {v.slip_id: v for v in session.exec(select(SlipVoid).where(
        col(SlipVoid.slip_id).in_([s.id for s in slips]))).all()} if slips else {}
    tables = {t.id: t for t in session.exec(select(GameTable).where(
        col(GameTable.id).in_({s.table_id for s in slips}))).all()} if slips else {}
    sigs = {s.id: _signatures(session, s) for s in slips}
    names = _names(session, [*(i for s in slips for i in (s.croupier_id, s.pit_boss_id)),
                             *(i for v in voids.values() for i in (v.requested_by,
                                                                    v.signed_by)),
                             *(u for found in sigs.values() for u, _m in found)])
    cashiers = issues.issuer_of_transfers(session, [s.transfer_id for s in slips
                                                    if s.transfer_id is not None])
    out = []
    for s in slips:
        assert s.id is not None
        v = voids.get(s.id)
        table = tables.get(s.table_id)
        out.append(SlipView(
            s.id, s.number, s.kind, table.name if table else "?", s.game, s.shift_id,
            s.gaming_date, s.issued_at, s.amount,
            {int(k): int(n) for k, n in json.loads(s.chips).items()} if s.chips else {},
            names.get(s.croupier_id, "?"), names.get(s.pit_boss_id, "?"),
            tuple((names.get(u, "?"), m) for u, m in sigs[s.id]),
            VoidView(v.reason, names.get(v.requested_by, "?"), names.get(v.signed_by, "?"),
                     v.at) if v else None,
            table.currency or "" if table else "", s.transfer_id, s.count_id,
            cashier=cashiers.get(s.transfer_id or 0, "")))
    return out


#: beyond any number ever issued (and a 64-bit column): found nowhere, asked nowhere
MAX_NUMBER = 10**15


def get_slip(session: Session, number: int) -> SlipView:
    slip = (session.exec(select(Slip).where(Slip.number == number)).first()
            if 0 < number < MAX_NUMBER else None)
    if slip is None:
        raise NotFound("No slip number %(number)s.", number=number)
    return views(session, [slip])[0]


def shift_of(session: Session, number: int) -> int | None:
    if not 0 < number < MAX_NUMBER:
        return None
    return session.exec(select(Slip.shift_id).where(Slip.number == number)).first()


def of_shift(session: Session, shift_id: int) -> list[SlipView]:
    rows = session.exec(select(Slip).where(Slip.shift_id == shift_id)
                        .order_by(col(Slip.number))).all()
    return views(session, list(rows))


def void_transfers(session: Session, transfer_ids: Iterable[int]) -> dict[int, int]:
    """transfer id -> its slip number, for the transfers whose slip is void."""
    ids = sorted(set(transfer_ids))
    if not ids:
        return {}
    query = (select(Slip.transfer_id, Slip.number).join(SlipVoid, col(SlipVoid.slip_id) == Slip.id)
             .where(col(Slip.transfer_id).in_(ids)))
    return {t: n for t, n in session.exec(query).all() if t is not None}


def numbers_of_transfers(session: Session, transfer_ids: Iterable[int]) -> dict[int, int]:
    ids = sorted(set(transfer_ids))
    if not ids:
        return {}
    query = select(Slip.transfer_id, Slip.number).where(col(Slip.transfer_id).in_(ids))
    return {t: n for t, n in session.exec(query).all() if t is not None}


def accounting(session: Session, first: date, last: date) -> dict[str, object]:
    """Every number issued for the gaming dates ``first``..``last`` (used or void) and every gap
    in the numbering up to the last number issued (a slip removed behind the log's back)."""
    rows = session.exec(select(Slip).order_by(col(Slip.number))).all()
    void = set(session.exec(select(col(SlipVoid.slip_id))).all())
    issued = [r.number for r in rows]
    gaps = sorted(set(range(1, (max(issued) if issued else 0) + 1)) - set(issued))
    tables = {t.id: t.name for t in session.exec(select(GameTable)).all()}
    listed = [{"number": r.number, "kind": r.kind, "gaming_date": r.gaming_date.isoformat(),
               "table": tables.get(r.table_id, "?"), "status": "void" if r.id in void else "used"}
              for r in rows if first <= r.gaming_date <= last]
    return {"slips": listed, "used": sum(1 for s in listed if s["status"] == "used"),
            "void": sum(1 for s in listed if s["status"] == "void"), "gaps": gaps,
            "last_issued": max(issued) if issued else 0}
