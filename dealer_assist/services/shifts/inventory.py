"""Table inventory and closing a shift: opening and closing chip counts, fills and credits.

Who signs: a fill or credit is issued by the cage (:mod:`..cage.issues`) and signed
for at the table. Every count and transfer names the croupier and a pit boss (a pit boss or
shift manager account; never the croupier's own account) and is recorded by that pit boss,
signed in: the pit terminal is the pit boss's. At the opening either of the two records it. Two
signatures are two authentications: the one who records signs by his own session, the
other by his PIN typed on the same device (``credential``, :mod:`..people.cosign`); without it
the act is refused naming the field (``croupier_pin`` or ``pit_boss_pin``) and nothing is
stored. Each signature is stored (``act_signature``) beside the row. The printed shift report
carries the wet signatures.

Closing (:func:`close_shift`) records the closing count and marks the shift closed in one
transaction. It is **refused while a round of the shift is still open** (pay or void it first):
a closed shift's rounds are then all settled or voided, and since the one start path
(``rounds.record.start``) refuses a closed shift and the record path refuses a step of a round
that is not open or of a closed shift, nothing can be added to the shift afterwards. The
opening count must be on record before the shift can close. Everything here is insert-only; a
closed shift takes no more counts or transfers.

On PostgreSQL the shift row is locked (``FOR UPDATE``) while closing, so two pit bosses closing
at once queue; SQLite's ``BEGIN IMMEDIATE`` serialises writers anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import date, datetime, tzinfo
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from ...models import GameTable, Round, RoundStatus, Shift, ShiftStatus, User, utcnow
from ...models.inventory import NOTE_MAX, ChipTransfer, CountKind, InventoryCount, TransferKind
from ...rules.phrase import Phrase
from ..cage import issues, slips
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import cosign
from ..tables import chips as chip_sets
from . import shifts
from .inventory_view import (
    CROUPIERS,
    PIT_BOSSES,
    CountView,
    Inventory,
    Person,
    Signed,
    TransferView,
    candidates,
    count_row,
    count_view,
    inventory_of,
    transfer_view,
)

#: the reading side lives in :mod:`.inventory_view`; these names stay importable from here
__all__ = ["CROUPIERS", "PIT_BOSSES", "CountView", "Inventory", "Person", "Signed",
           "TransferView", "candidates", "close_shift", "has_rounds", "inventory_of",
           "open_rounds", "open_shift_with_count", "record_opening_count", "record_transfer"]

#: larger than any table's chip float; catches a slip of the finger (an extra zero or five)
MAX_AMOUNT = 10**12


# --- checks -----------------------------------------------------------------------------------

def _amount(value: int, *, positive: bool, field: str = "amount") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError("An amount is a whole number.", field=field)
    low = 1 if positive else 0
    if not low <= value <= MAX_AMOUNT:
        raise ValidationError("The amount must be between %(low)s and %(MAX_AMOUNT)s.",
                              low=low, MAX_AMOUNT=format(MAX_AMOUNT, ','),
                              field=field)
    return value


def _note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationError("A note is at most %(NOTE_MAX)s characters.",
                              NOTE_MAX=NOTE_MAX, field="note")
    return note


def _user(session: Session, user_id: int, roles: frozenset[str], what: str,
          field: str) -> User:
    user = session.get(User, user_id)
    if user is None or not user.active or user.role not in roles:
        raise ValidationError("Choose an active %(what)s.", what=what, field=field)
    return user


def _signers(session: Session, croupier_id: int, pit_boss_id: int, actor_id: int, *,
             act: str, credential: cosign.Credential | None,
             at_opening: bool = False) -> tuple[Signed, tuple[cosign.Signature, ...]]:
    """The two signers are valid and distinct, the actor is the pit boss who signs (at the
    shift's opening, either signer: the croupier who opens the table counts with the pit boss
    beside him), and the other signer is authenticated by ``credential`` (his PIN)."""
    actor = session.get(User, actor_id)
    croupier_acts = at_opening and actor_id == croupier_id
    if not croupier_acts and (actor is None or not actor.active
                              or actor.role not in PIT_BOSSES):
        raise PermissionDenied("Only a pit boss or shift manager records the table inventory.")
    if croupier_id == pit_boss_id:
        raise ValidationError("The croupier and the pit boss must be two different people.",
                              field="croupier_id")
    croupier = _user(session, croupier_id, CROUPIERS, "croupier", "croupier_id")
    boss = _user(session, pit_boss_id, PIT_BOSSES, "pit boss or shift manager", "pit_boss_id")
    if not croupier_acts and actor_id != pit_boss_id:
        raise PermissionDenied("You sign as the pit boss: record it under your own name.")
    other, field = ((pit_boss_id, "pit_boss_pin") if croupier_acts
                    else (croupier_id, "croupier_pin"))
    origin = credential or cosign.NONE
    if origin.signed_in is not None and origin.signed_in != actor_id:
        # the request's session is the recorder's: it cannot also be the other signer's
        origin = replace(origin, signed_in=None)
    mine = cosign.Signature(actor_id, actor.display_name if actor else "?",
                            actor.role if actor else "?", act, "session", origin.device_id)
    theirs = cosign.authenticate(session, user_id=other, act=act, credential=origin,
                                 field=field)
    return (Signed(croupier_id, croupier.display_name, pit_boss_id, boss.display_name,
                   actor_id), (mine, theirs))


def _sign(session: Session, signatures: tuple[cosign.Signature, ...], entity: str,
          entity_id: int | None, now: datetime) -> None:
    assert entity_id is not None
    for signature in signatures:
        cosign.record(session, signature, entity=entity, entity_id=entity_id, now=now)


def _open_shift(session: Session, shift_id: int, *, lock: bool = False) -> Shift:
    query = select(Shift).where(Shift.id == shift_id)
    shift = session.exec(query.with_for_update() if lock else query).first()
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    if shift.status != ShiftStatus.OPEN.value:
        raise Conflict("This shift is closed; its inventory can no longer change.")
    return shift


def _moment(shift: Shift, at: datetime | None, now: datetime) -> datetime:
    at = at or now
    if at.tzinfo is None:
        raise ValidationError("A time needs its time zone.", field="at")
    if at < shift.opened_at or at > now:
        raise ValidationError("The time must fall between the shift's opening and now.",
                              field="at")
    return at


# --- recording --------------------------------------------------------------------------------

def _counted(session: Session, shift: Shift, amount: int | None,
             chips: Mapping[Any, Any] | None, field: str) -> tuple[int, str | None]:
    """The count's amount and its stored chips: from the chips (by the table's chip set) when
    given, else the amount as entered; both given must agree."""
    if chips is None:
        if amount is None:
            raise ValidationError("Count the chips of each denomination.", field="chips")
        return _amount(amount, positive=False, field=field), None
    table = session.get(GameTable, shift.table_id)
    counted = chip_sets.count(table.chip_set if table else chip_sets.DEFAULT_CHIP_SET, chips)
    worth = _amount(chip_sets.total(counted), positive=False, field="chips")
    if amount is not None and amount != worth:
        raise ValidationError("The chips are worth %(worth)s, not %(amount)s.",
                              worth=format(worth, ','), amount=format(amount, ','), field=field)
    return worth, chip_sets.encode(counted)


def record_opening_count(session: Session, *, shift_id: int, amount: int | None = None,
                         croupier_id: int, pit_boss_id: int, actor_id: int, note: str = "",
                         chips: Mapping[Any, Any] | None = None,
                         credential: cosign.Credential | None = None,
                         now: datetime | None = None, at_opening: bool = False) -> CountView:
    """The chips on the table when the shift starts (once per shift, before its first round:
    a count taken later would be made up, not counted), signed by both."""
    shift = _open_shift(session, shift_id)
    signed = _signers(session, croupier_id, pit_boss_id, actor_id, act="opening_count",
                      credential=credential, at_opening=at_opening)
    return _opening(session, shift, signed, amount=amount, chips=chips, note=note,
                    now=now or utcnow())


def _opening(session: Session, shift: Shift,
             signed: tuple[Signed, tuple[cosign.Signature, ...]], *, amount: int | None,
             chips: Mapping[Any, Any] | None, note: str, now: datetime) -> CountView:
    assert shift.id is not None
    if has_rounds(session, shift.id):
        raise Conflict("The opening count is taken when the shift opens, before its first "
                       "round; this shift has rounds already.")
    worth, stored = _counted(session, shift, amount, chips, "amount")
    who = signed[0]
    row = InventoryCount(shift_id=shift.id, kind=CountKind.OPENING.value, amount=worth,
                         counted_at=now, croupier_id=who.croupier_id,
                         pit_boss_id=who.pit_boss_id, recorded_by=who.recorded_by,
                         note=_note(note), chips=stored)
    _insert(session, row, "The opening count of this shift is already recorded.")
    _sign(session, signed[1], "inventory_count", row.id, now)
    slips.issue(session, kind="opener", shift_id=shift.id, amount=worth,
                chips=chip_sets.decode(stored), croupier_id=who.croupier_id,
                pit_boss_id=who.pit_boss_id, count_id=row.id, now=now)
    return count_view(row, who)


def open_shift_with_count(session: Session, *, table_id: int, actor_id: int, croupier_id: int,
                          pit_boss_id: int, chips: Mapping[Any, Any], note: str = "",
                          credential: cosign.Credential | None = None,
                          gaming_date: date | None = None, zone: tzinfo | None = None,
                          start_hour: int = 6,
                          now: datetime | None = None) -> tuple[shifts.ShiftView, CountView]:
    """Open a shift and record its opening count, chip by chip, signed by the croupier and
    the pit boss (the one not signed in by his PIN), in one transaction: the opening float is
    counted, never invented later. The croupier who counted deals first (his stint opens)."""
    now = now or utcnow()
    signed = _signers(session, croupier_id, pit_boss_id, actor_id, act="opening_count",
                      credential=credential, at_opening=True)
    shift = shifts.open_shift(session, table_id=table_id, user_id=actor_id,
                              gaming_date=gaming_date, zone=zone, start_hour=start_hour,
                              now=now, dealer_id=croupier_id)
    counted = _opening(session, _open_shift(session, shift.id), signed, amount=None,
                       chips=chips, note=note, now=now)
    return shift, counted


def record_transfer(session: Session, *, shift_id: int, issue_id: int | None,
                    croupier_id: int, pit_boss_id: int, actor_id: int,
                    kind: str | None = None, amount: int | None = None, note: str = "",
                    credential: cosign.Credential | None = None,
                    chips: Mapping[Any, Any] | None = None,
                    at: datetime | None = None, now: datetime | None = None) -> TransferView:
    """The table signs for a fill (chips brought to the table) or a credit (chips sent back to
    the cage) that the cage issued (``issue_id``, :mod:`..cage.issues`): the pit boss
    (his session) and the croupier (his PIN) sign, on a numbered slip, by
    denomination when ``chips`` are given (their sum must be the issued amount). ``kind`` and
    ``amount``, when given, must be the issue's."""
    if kind is not None and kind not in {k.value for k in TransferKind}:
        raise ValidationError("A transfer is a fill or a credit.", field="kind")
    if issue_id is None:
        raise ValidationError("The cage issues fills and credits: choose the one the table "
                              "signs for.", field="issue_id")
    now = now or utcnow()
    shift = _open_shift(session, shift_id)
    stored: str | None = None
    if chips is not None:
        amount, stored = _counted(session, shift, amount, chips, "amount")
    if amount is not None:
        amount = _amount(amount, positive=True)
    issued = issues.receive(session, issue_id=issue_id, shift_id=shift_id, kind=kind,
                            amount=amount)
    kind, amount = issued.kind, issued.amount
    moment = _moment(shift, at, now)
    signed, signatures = _signers(session, croupier_id, pit_boss_id, actor_id, act=kind,
                                  credential=credential)
    row = ChipTransfer(shift_id=shift_id, kind=kind, amount=amount, at=moment,
                       croupier_id=croupier_id, pit_boss_id=pit_boss_id, recorded_by=actor_id,
                       note=_note(note))
    _insert(session, row, "This transfer could not be recorded; try again.")
    assert row.id is not None and issued.id is not None
    issues.link(session, issued.id, row.id)
    _sign(session, signatures, "chip_transfer", row.id, now)
    slip = slips.issue(session, kind=kind, shift_id=shift_id, amount=amount,
                       chips=chip_sets.decode(stored),
                       croupier_id=croupier_id, pit_boss_id=pit_boss_id, transfer_id=row.id,
                       now=now)
    return replace(transfer_view(row, signed), slip=slip.number)


def has_rounds(session: Session, shift_id: int) -> bool:
    return session.exec(select(Round.id).where(Round.shift_id == shift_id)).first() is not None


def open_rounds(session: Session, shift_id: int) -> list[int]:
    """Numbers of the shift's rounds that are neither settled nor voided."""
    query = (select(Round.number).where(Round.shift_id == shift_id,
                                        Round.status == RoundStatus.OPEN.value)
             .order_by(Round.number))  # type: ignore[arg-type]
    return list(session.exec(query).all())


def close_shift(session: Session, *, shift_id: int, closing_amount: int | None = None,
                croupier_id: int, pit_boss_id: int, actor_id: int, note: str = "",
                chips: Mapping[Any, Any] | None = None,
                credential: cosign.Credential | None = None,
                now: datetime | None = None) -> Inventory:
    """Record the closing count (chip by chip, or one amount), signed by both, and close the
    shift (refused while a round is open)."""
    now = now or utcnow()
    shift = _open_shift(session, shift_id, lock=True)
    pending = open_rounds(session, shift_id)
    if pending:
        listed = ", ".join(str(n) for n in pending[:10])
        raise Conflict(Phrase.counted(
            "Round %(listed)s still open: pay or void it before closing the shift.",
            "Rounds %(listed)s still open: pay or void them before closing the shift.",
            len(pending), listed=listed))
    if count_row(session, shift_id, CountKind.OPENING) is None:
        raise Conflict("Record the opening count before closing the shift.")
    amount, stored = _counted(session, shift, closing_amount, chips, "closing_amount")
    _signed_by, signatures = _signers(session, croupier_id, pit_boss_id, actor_id,
                                      act="closing_count", credential=credential)
    row = InventoryCount(shift_id=shift_id, kind=CountKind.CLOSING.value, amount=amount,
                         counted_at=now, croupier_id=croupier_id, pit_boss_id=pit_boss_id,
                         recorded_by=actor_id, note=_note(note), chips=stored)
    _insert(session, row, "The closing count of this shift is already recorded.")
    _sign(session, signatures, "inventory_count", row.id, now)
    slips.issue(session, kind="closer", shift_id=shift_id, amount=amount,
                chips=chip_sets.decode(stored), croupier_id=croupier_id,
                pit_boss_id=pit_boss_id, count_id=row.id, now=now)
    shift.status = ShiftStatus.CLOSED.value
    shift.closed_by = actor_id
    shift.closed_at = now
    session.add(shift)
    session.flush()
    return inventory_of(session, shift_id)


def _insert(session: Session, row: InventoryCount | ChipTransfer, duplicate: str) -> None:
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise Conflict(duplicate) from None
