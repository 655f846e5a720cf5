"""Table inventory and closing a shift: opening and closing chip counts, fills and credits.

Who signs: every count and transfer names the croupier and a pit boss (a pit boss or shift
manager account; never the croupier's own account) and is recorded by that pit boss, signed in:
the pit terminal is the pit boss's. At the opening either of the two records it. Two signatures
are two authentications (issue 28): the one who records signs by his own session, the other by
his PIN typed on the same device (``credential``, :mod:`..people.cosign`); without it the act is
refused naming the field (``croupier_pin`` or ``pit_boss_pin``) and nothing is stored. Each
signature is stored (``act_signature``) beside the row. The printed shift report carries the wet
signatures.

Closing (:func:`close_shift`) records the closing count and marks the shift closed in one
transaction. It is **refused while a round of the shift is still open** (pay or void it first):
a closed shift's rounds are then all settled or voided, and since ``rounds.start_round`` refuses
a closed shift and ``rounds.append_event`` refuses a non-open round, nothing can be added to the
shift afterwards. The opening count must be on record before the shift can close. Everything
here is insert-only; a closed shift takes no more counts or transfers.

On PostgreSQL the shift row is locked (``FOR UPDATE``) while closing, so two pit bosses closing
at once queue; SQLite's ``BEGIN IMMEDIATE`` serialises writers anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, tzinfo
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import GameTable, Role, Round, RoundStatus, Shift, ShiftStatus, User, utcnow
from ...models.inventory import NOTE_MAX, ChipTransfer, CountKind, InventoryCount, TransferKind
from ...rules.phrase import Phrase
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import cosign
from . import chips as chip_sets
from . import shifts

PIT_BOSSES = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
CROUPIERS = frozenset({Role.CROUPIER.value})
#: larger than any table's chip float; catches a slip of the finger (an extra zero or five)
MAX_AMOUNT = 10**12


@dataclass(frozen=True, slots=True)
class Signed:
    """Who signed a count or transfer (ids and display names) and who recorded it."""

    croupier_id: int
    croupier: str
    pit_boss_id: int
    pit_boss: str
    recorded_by: int


@dataclass(frozen=True, slots=True)
class CountView:
    id: int
    shift_id: int
    kind: str
    amount: int
    counted_at: datetime
    signed: Signed
    note: str
    #: the count chip by chip (denomination -> chips); empty for a count entered as one amount
    chips: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TransferView:
    id: int
    shift_id: int
    kind: str
    amount: int
    at: datetime
    signed: Signed
    note: str


@dataclass(frozen=True, slots=True)
class Inventory:
    """A shift's inventory record. ``win`` (closing - opening + credits - fills) needs both
    counts and is None until the shift has its closing count."""

    shift_id: int
    opening: CountView | None
    closing: CountView | None
    transfers: tuple[TransferView, ...]

    @property
    def fills(self) -> int:
        return sum(t.amount for t in self.transfers if t.kind == TransferKind.FILL.value)

    @property
    def credits(self) -> int:
        return sum(t.amount for t in self.transfers if t.kind == TransferKind.CREDIT.value)

    @property
    def win(self) -> int | None:
        if self.opening is None or self.closing is None:
            return None
        return self.closing.amount - self.opening.amount + self.credits - self.fills


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str
    role: str


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
    return _count_view(row, who)


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


def record_transfer(session: Session, *, shift_id: int, kind: str, amount: int,
                    croupier_id: int, pit_boss_id: int, actor_id: int, note: str = "",
                    credential: cosign.Credential | None = None,
                    at: datetime | None = None, now: datetime | None = None) -> TransferView:
    """A fill (chips brought to the table) or a credit (chips sent back to the cage), signed by
    the pit boss (his session) and the croupier (his PIN)."""
    if kind not in {k.value for k in TransferKind}:
        raise ValidationError("A transfer is a fill or a credit.", field="kind")
    now = now or utcnow()
    shift = _open_shift(session, shift_id)
    amount = _amount(amount, positive=True)
    moment = _moment(shift, at, now)
    signed, signatures = _signers(session, croupier_id, pit_boss_id, actor_id, act=kind,
                                  credential=credential)
    row = ChipTransfer(shift_id=shift_id, kind=kind, amount=amount, at=moment,
                       croupier_id=croupier_id, pit_boss_id=pit_boss_id, recorded_by=actor_id,
                       note=_note(note))
    _insert(session, row, "This transfer could not be recorded; try again.")
    _sign(session, signatures, "chip_transfer", row.id, now)
    return _transfer_view(row, signed)


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
    if _count(session, shift_id, CountKind.OPENING) is None:
        raise Conflict("Record the opening count before closing the shift.")
    amount, stored = _counted(session, shift, closing_amount, chips, "closing_amount")
    _signed_by, signatures = _signers(session, croupier_id, pit_boss_id, actor_id,
                                      act="closing_count", credential=credential)
    row = InventoryCount(shift_id=shift_id, kind=CountKind.CLOSING.value, amount=amount,
                         counted_at=now, croupier_id=croupier_id, pit_boss_id=pit_boss_id,
                         recorded_by=actor_id, note=_note(note), chips=stored)
    _insert(session, row, "The closing count of this shift is already recorded.")
    _sign(session, signatures, "inventory_count", row.id, now)
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


# --- reading ----------------------------------------------------------------------------------

def _names(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    query = select(User.id, User.display_name).where(col(User.id).in_(sorted(ids)))
    names: dict[int, str] = {}
    for uid, name in session.exec(query).all():
        assert uid is not None  # a stored row's primary key
        names[uid] = name
    return names


def _signed(row: InventoryCount | ChipTransfer, names: dict[int, str]) -> Signed:
    return Signed(row.croupier_id, names.get(row.croupier_id, "?"), row.pit_boss_id,
                  names.get(row.pit_boss_id, "?"), row.recorded_by)


def _count_view(row: InventoryCount, signed: Signed) -> CountView:
    assert row.id is not None
    return CountView(row.id, row.shift_id, row.kind, row.amount, row.counted_at, signed,
                     row.note, chip_sets.decode(row.chips))


def _transfer_view(row: ChipTransfer, signed: Signed) -> TransferView:
    assert row.id is not None
    return TransferView(row.id, row.shift_id, row.kind, row.amount, row.at, signed, row.note)


def _count(session: Session, shift_id: int, kind: CountKind) -> InventoryCount | None:
    return session.exec(select(InventoryCount).where(InventoryCount.shift_id == shift_id,
                                                     InventoryCount.kind == kind.value)).first()


def inventory_of(session: Session, shift_id: int) -> Inventory:
    """The shift's counts and transfers (transfers in time order), with the signers' names."""
    if session.get(Shift, shift_id) is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    counts = {k: _count(session, shift_id, k) for k in CountKind}
    transfers = list(session.exec(
        select(ChipTransfer).where(ChipTransfer.shift_id == shift_id)
        .order_by(ChipTransfer.at, ChipTransfer.id)).all())  # type: ignore[arg-type]
    rows: list[InventoryCount | ChipTransfer] = [*[c for c in counts.values() if c], *transfers]
    names = _names(session, {i for r in rows for i in (r.croupier_id, r.pit_boss_id)})
    views = {k: _count_view(c, _signed(c, names)) if c else None for k, c in counts.items()}
    return Inventory(shift_id, views[CountKind.OPENING], views[CountKind.CLOSING],
                     tuple(_transfer_view(t, _signed(t, names)) for t in transfers))


def candidates(session: Session) -> tuple[list[Person], list[Person]]:
    """Active croupiers and active pit bosses/shift managers, by name (for the forms)."""
    query = (select(User).where(User.active == True)  # noqa: E712
             .order_by(User.display_name, User.id))  # type: ignore[arg-type]
    people = [Person(u.id or 0, u.display_name, u.role) for u in session.exec(query).all()]
    return ([p for p in people if p.role in CROUPIERS],
            [p for p in people if p.role in PIT_BOSSES])
