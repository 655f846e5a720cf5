"""Reading a shift's inventory: the counts and transfers with their signers' names and slip
numbers (what the shift report and the pit pages show), and who may sign (the forms' lists).

Split from :mod:`.inventory` (the writing side: counts, transfers, closing), which re-exports
these names, so ``inventory.inventory_of`` and ``inventory.Inventory`` keep working.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from ...models import Role, Shift, User
from ...models.inventory import ChipTransfer, CountKind, InventoryCount, TransferKind
from ..cage import slips
from ..errors import NotFound
from ..tables import chips as chip_sets

PIT_BOSSES = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
CROUPIERS = frozenset({Role.CROUPIER.value})

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
    #: the transfer's slip number, and whether the slip is void (then it counts not)
    slip: int | None = None
    void: bool = False


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
        return sum(t.amount for t in self.transfers
                   if t.kind == TransferKind.FILL.value and not t.void)

    @property
    def credits(self) -> int:
        return sum(t.amount for t in self.transfers
                   if t.kind == TransferKind.CREDIT.value and not t.void)

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


def count_view(row: InventoryCount, signed: Signed) -> CountView:
    assert row.id is not None
    return CountView(row.id, row.shift_id, row.kind, row.amount, row.counted_at, signed,
                     row.note, chip_sets.decode(row.chips))


def transfer_view(row: ChipTransfer, signed: Signed, slip: int | None = None,
                   void: bool = False) -> TransferView:
    assert row.id is not None
    return TransferView(row.id, row.shift_id, row.kind, row.amount, row.at, signed, row.note,
                        slip, void)


def count_row(session: Session, shift_id: int, kind: CountKind) -> InventoryCount | None:
    return session.exec(select(InventoryCount).where(InventoryCount.shift_id == shift_id,
                                                     InventoryCount.kind == kind.value)).first()


def inventory_of(session: Session, shift_id: int) -> Inventory:
    """The shift's counts and transfers (transfers in time order), with the signers' names."""
    if session.get(Shift, shift_id) is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    counts = {k: count_row(session, shift_id, k) for k in CountKind}
    transfers = list(session.exec(
        select(ChipTransfer).where(ChipTransfer.shift_id == shift_id)
        .order_by(ChipTransfer.at, ChipTransfer.id)).all())  # type: ignore[arg-type]
    rows: list[InventoryCount | ChipTransfer] = [*[c for c in counts.values() if c], *transfers]
    names = _names(session, {i for r in rows for i in (r.croupier_id, r.pit_boss_id)})
    views = {k: count_view(c, _signed(c, names)) if c else None for k, c in counts.items()}
    ids = [t.id for t in transfers if t.id is not None]
    numbers, void = slips.numbers_of_transfers(session, ids), slips.void_transfers(session, ids)
    return Inventory(shift_id, views[CountKind.OPENING], views[CountKind.CLOSING],
                     tuple(transfer_view(t, _signed(t, names), numbers.get(t.id or 0),
                                          (t.id or 0) in void) for t in transfers))


def candidates(session: Session) -> tuple[list[Person], list[Person]]:
    """Active croupiers and active pit bosses/shift managers, by name (for the forms)."""
    query = (select(User).where(User.active == True)  # noqa: E712
             .order_by(User.display_name, User.id))  # type: ignore[arg-type]
    people = [Person(u.id or 0, u.display_name, u.role) for u in session.exec(query).all()]
    return ([p for p in people if p.role in CROUPIERS],
            [p for p in people if p.role in PIT_BOSSES])
