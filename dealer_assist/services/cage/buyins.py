"""Buy-ins at the table: cash exchanged for chips, recorded by the croupier in one step.

The cash goes through the slot into the table's drop box and the chips leave the tray, so the
shift's tray change is the settlements' win minus the chips sold: without the buy-ins every
shift with one shows a false variance. A buy-in may be recorded at any moment, also in the middle
of a round: it is its own row (``buy_in``, append-only), never an event of the round, so the
round is not touched; the round open at that moment is noted beside it. Cash in the drop box
cannot be taken out again, so a mistaken buy-in is not undone: the soft count shows the
difference and its note says why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from ...models import GameTable, Role, Round, RoundStatus, Shift, ShiftStatus, User, utcnow
from ...models.cage import BuyIn
from ...rules.games.registry import get_game
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import duties

RECORDERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: larger than any buy-in at a table: catches an extra zero
MAX_BUY_IN = 10**10
SEAT_MAX, PLAYER_MAX = 8, 40


@dataclass(frozen=True, slots=True)
class BuyInView:
    id: int
    table_id: int
    shift_id: int
    gaming_date: date
    amount: int
    at: datetime
    round_id: int | None
    round_number: int | None
    seat: str | None
    player: str | None
    recorded_by: int
    #: False: the same key was recorded before (a double tap); this is that buy-in
    created: bool = True


def _text(value: str | None, limit: int, field: str) -> str | None:
    value = (value or "").strip()
    if len(value) > limit:
        raise ValidationError("At most %(limit)s characters.", limit=limit, field=field)
    return value or None


def record_buy_in(session: Session, *, table_id: int, amount: int, actor_id: int,
                  seat: str | None = None, player: str | None = None,
                  key: str | None = None, now: datetime | None = None) -> BuyInView:
    """Cash for chips at ``table_id`` now: the table's open shift, the round open now (if any,
    untouched), the seat and the player's card when known. ``key`` (the form's or the request's
    idempotency key): the same key again answers the buy-in already recorded (``created``
    False), so a double tap records the cash once; used for another amount it is a conflict."""
    now = now or utcnow()
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_BUY_IN:
        raise ValidationError("A buy-in is a whole amount from 1 to %(max)s.",
                              max=format(MAX_BUY_IN, ","), field="amount")
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in RECORDERS:
        raise PermissionDenied("Only the table's croupier or the pit records a buy-in.")
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    if get_game(table.game).poker_room:
        raise ValidationError("A poker table sells chips to a seat (the poker table's page).",
                              field="table_id")
    shift = session.exec(select(Shift).where(Shift.table_id == table_id,
                                             Shift.status == ShiftStatus.OPEN.value)).first()
    if shift is None or shift.id is None:
        raise Conflict("Table %(name)s has no open shift.", name=table.name)
    duties.check_recorder(session, user=actor, shift_id=shift.id)  # a croupier: his table only
    current = session.exec(select(Round).where(Round.shift_id == shift.id,
                                               Round.status == RoundStatus.OPEN.value)
                           .order_by(col(Round.number).desc())).first()
    key = (key or "").strip()[:64] or None
    row = BuyIn(table_id=table_id, shift_id=shift.id, gaming_date=shift.gaming_date,
                amount=amount, at=now, round_id=current.id if current else None,
                seat=_text(seat, SEAT_MAX, "seat"), player=_text(player, PLAYER_MAX, "player"),
                recorded_by=actor_id, key=key)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:  # the key was used in this shift (a twin got there first)
        return _again(session, shift.id, row)
    return _view(row, current.number if current else None)


def _again(session: Session, shift_id: int, wanted: BuyIn) -> BuyInView:
    found = session.exec(select(BuyIn).where(BuyIn.shift_id == shift_id,
                                             BuyIn.key == wanted.key)).one()
    if (found.amount, found.seat, found.player) != (wanted.amount, wanted.seat, wanted.player):
        raise Conflict("This request's key was used for another buy-in.", field="key")
    rnd = session.get(Round, found.round_id) if found.round_id else None
    return replace(_view(found, rnd.number if rnd else None), created=False)


def _view(row: BuyIn, number: int | None) -> BuyInView:
    assert row.id is not None
    return BuyInView(row.id, row.table_id, row.shift_id, row.gaming_date, row.amount, row.at,
                     row.round_id, number, row.seat, row.player, row.recorded_by)


def of_shift(session: Session, shift_id: int) -> list[BuyInView]:
    query = (select(BuyIn, Round.number).outerjoin(Round, col(Round.id) == BuyIn.round_id)
             .where(BuyIn.shift_id == shift_id).order_by(col(BuyIn.at), col(BuyIn.id)))
    return [_view(row, number) for row, number in session.exec(query).all()]


def total_of_shift(session: Session, shift_id: int) -> int:
    found = session.exec(select(func.sum(BuyIn.amount)).where(BuyIn.shift_id == shift_id)).one()
    return int(found or 0)


def total_of_day(session: Session, table_id: int, gaming_date: date) -> int:
    found = session.exec(select(func.sum(BuyIn.amount)).where(
        BuyIn.table_id == table_id, BuyIn.gaming_date == gaming_date)).one()
    return int(found or 0)
