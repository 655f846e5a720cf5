"""Poker tables: seats, buy-ins, stacks carried hand to hand, the moving button.

The engine (``rules.games.poker``) plays one hand from its start (button, seats dealt in with their
stacks and missed blinds); this module keeps what lies between hands: who sits where with how
many chips, who sits out and which blinds he missed meanwhile (RULES.md, 32-card draw: "a
returning player who missed the small blind posts ..."), where the button goes next. The hands
themselves are rounds of the table's shift (:mod:`.poker_hands`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, col, select

from ...models import GameTable, Shift, ShiftStatus, User, utcnow
from ...models.poker import PokerChipMove, PokerSeat, PokerTable
from ...rules.games.poker import get_poker_profile, make_stakes
from ...rules.games.poker.setup import blind_seats
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import duties
from . import tables

PLAYING, SITTING_OUT, LEFT = "playing", "sitting_out", "left"


@dataclass(frozen=True, slots=True)
class SeatView:
    id: int
    seat: str
    player: str
    stack: int
    bought_in: int
    cashed_out: int
    status: str
    missed: str


@dataclass(frozen=True, slots=True)
class PokerTableView:
    id: int
    name: str
    profile: str
    stakes: dict[str, int]
    seat_count: int
    button: str | None
    hands_dealt: int
    seats: tuple[SeatView, ...]

    def seated(self) -> tuple[SeatView, ...]:
        return tuple(s for s in self.seats if s.status != LEFT)


def _int(value: Any, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValidationError("%(name)s must be a whole number of at least %(minimum)s.",
                              name=name, minimum=minimum,
                              field=name)
    return value


def open_table(session: Session, *, name: str, profile: str, stakes: Mapping[str, Any],
               seat_count: int) -> PokerTableView:
    """A new poker table: a ``game_table`` of the profile's game plus its poker settings."""
    game = get_poker_profile(profile)
    made = make_stakes(game, stakes).to_dict(game)
    _int(seat_count, "seat_count", 2)
    if seat_count > game.max_players:
        raise ValidationError("%(name)s seats at most %(max_players)s players.",
                              name=game.name, max_players=game.max_players,
                              field="seat_count")
    name = _free_name(session, name, None)
    low, high = _limits(made)
    row = GameTable(name=name, game=game.game, profile=game.name, min_ante=low, max_ante=high,
                    max_payout=high, boxes=seat_count)
    session.add(row)
    session.flush()
    assert row.id is not None
    session.add(PokerTable(table_id=row.id, profile=game.name, stakes=json.dumps(made),
                           seat_count=seat_count))
    session.flush()
    return get(session, row.id)


def _free_name(session: Session, name: str, table_id: int | None) -> str:
    name = name.strip()
    if not name or len(name) > 64:
        raise ValidationError("A table name is 1 to 64 characters.", field="name")
    other = session.exec(select(GameTable).where(GameTable.name == name)).first()
    if other is not None and other.id != table_id:
        raise Conflict("A table named %(name)s already exists.", name=name)
    return name


def _limits(stakes: Mapping[str, int]) -> tuple[int, int]:
    """The ``game_table`` limits of a poker table: its smallest and largest stake."""
    return min(v for v in stakes.values() if v), max(stakes.values())


def update_table(session: Session, table_id: int, *, name: str,
                 stakes: Mapping[str, Any]) -> PokerTableView:
    """An administrator renames a poker table or changes its stakes; its
    game and profile stay. The stakes change between hands only: a hand plays under the stakes
    it started with (they are in its stored rules)."""
    view = get(session, table_id)
    game = get_poker_profile(view.profile)
    made = make_stakes(game, stakes).to_dict(game)
    name = _free_name(session, name, table_id)
    if made != view.stakes:
        _no_hand_running(session, table_id)
    poker, table = session.get(PokerTable, table_id), session.get(GameTable, table_id)
    assert poker is not None and table is not None
    poker.stakes = json.dumps(made)
    table.name = name
    table.min_ante, table.max_ante = _limits(made)
    table.max_payout = table.max_ante
    session.flush()
    return get(session, table_id)


def stakes_by_table(session: Session) -> dict[int, dict[str, Any]]:
    """Every poker table's stakes and betting structure (one query), for the tables list:
    "Ante 10 / bring-in 20", "Blinds 5/10/20"."""
    return {row.table_id: {"stakes": json.loads(row.stakes),
                           "structure": get_poker_profile(row.profile).structure}
            for row in session.exec(select(PokerTable))}


def get(session: Session, table_id: int) -> PokerTableView:
    poker, table = session.get(PokerTable, table_id), session.get(GameTable, table_id)
    if poker is None or table is None:
        raise NotFound("No poker table with id %(table_id)s.", table_id=table_id)
    rows = session.exec(select(PokerSeat).where(PokerSeat.table_id == table_id)
                        .order_by(col(PokerSeat.id))).all()
    seats = tuple(sorted((_seat_view(r) for r in rows), key=lambda s: seat_order(s.seat)))
    return PokerTableView(table_id, table.name, poker.profile, json.loads(poker.stakes),
                          poker.seat_count, poker.button, poker.hands_dealt, seats)


def _seat_view(r: PokerSeat) -> SeatView:
    assert r.id is not None
    return SeatView(r.id, r.seat, r.player, r.stack, r.bought_in, r.cashed_out, r.status,
                    r.missed)


def seat_order(seat: str) -> tuple[int, str]:
    return (int(seat), seat) if seat.isdigit() else (10**6, seat)


def _check_actor(session: Session, table_id: int, actor_id: int | None) -> None:
    """Duties rule 5: a croupier sells chips to a seat, records a rebuy or a leave
    only at the table he deals; the pit at any. ``actor_id`` None: no person (a script)."""
    if actor_id is None:
        return
    user = session.get(User, actor_id)
    if user is None or not user.active:
        raise PermissionDenied("Only an active account changes a seat.")
    duties.check_at_table(session, user=user, table_id=table_id)


def seat_player(session: Session, table_id: int, *, seat: str, player: str,
                buy_in: int, actor_id: int | None = None) -> SeatView:
    """Seat a player with his buy-in as his starting stack; after the first hand he is "new"
    (draw: "a new player posts the over blind")."""
    view = get(session, table_id)
    _check_actor(session, table_id, actor_id)
    _int(buy_in, "buy_in")
    if not seat.isdigit() or not 1 <= int(seat) <= view.seat_count:
        raise ValidationError("The seat is a number from 1 to %(seat_count)s.",
                              seat_count=view.seat_count, field="seat")
    if any(s.seat == seat for s in view.seated()):
        raise Conflict("Seat %(seat)s is taken.", seat=seat)
    shift_id = _shift_for_chips(session, table_id)
    player = player.strip() or f"Seat {seat}"
    row = PokerSeat(table_id=table_id, seat=seat, player=player[:64], stack=buy_in,
                    bought_in=buy_in, missed="new" if view.hands_dealt else "")
    session.add(row)
    _move(session, shift_id, row, "buy_in", buy_in)
    return _seat_view(row)


def _shift_for_chips(session: Session, table_id: int) -> int:
    """Chips are sold from (and cashed out against) a counted tray: the table's open shift
    (read here: the shifts' service reads the tables')."""
    shift = session.exec(select(Shift).where(Shift.table_id == table_id,
                                             Shift.status == ShiftStatus.OPEN.value)).first()
    if shift is None or shift.id is None:
        raise Conflict("No shift is open at this table: open it with the opening count first "
                       "(chips are sold from the counted tray).", field="shift")
    return shift.id


def _move(session: Session, shift_id: int, row: PokerSeat, kind: str, amount: int) -> None:
    """The ledger line the shift report adds up (buy-ins, rebuys, cash-outs)."""
    if amount > 0:
        session.add(PokerChipMove(table_id=row.table_id, shift_id=shift_id, seat=row.seat,
                                  player=row.player, kind=kind, amount=amount))
    session.flush()


def chip_moves(session: Session, shift_id: int) -> list[PokerChipMove]:
    return list(session.exec(select(PokerChipMove).where(PokerChipMove.shift_id == shift_id)
                             .order_by(col(PokerChipMove.id))).all())


def _load_seat(session: Session, table_id: int, seat: str) -> PokerSeat:
    row = session.exec(select(PokerSeat).where(PokerSeat.table_id == table_id,
                                               PokerSeat.seat == seat,
                                               PokerSeat.status != LEFT)).first()
    if row is None:
        raise NotFound("Nobody sits in seat %(seat)s.", seat=seat)
    return row


def rebuy(session: Session, table_id: int, seat: str, amount: int,
          actor_id: int | None = None) -> SeatView:
    """A rebuy or add-on between hands: chips added to his stack and to his buy-ins."""
    _check_actor(session, table_id, actor_id)
    _int(amount, "amount")
    _no_hand_running(session, table_id)
    shift_id = _shift_for_chips(session, table_id)
    row = _load_seat(session, table_id, seat)
    row.stack += amount
    row.bought_in += amount
    _move(session, shift_id, row, "rebuy", amount)
    return _seat_view(row)


def set_status(session: Session, table_id: int, seat: str, status: str,
               actor_id: int | None = None) -> SeatView:
    """Sit out, come back (``playing``) or leave (``left``: his stack is cashed out)."""
    _check_actor(session, table_id, actor_id)
    if status not in (PLAYING, SITTING_OUT, LEFT):
        raise ValidationError("status is playing, sitting_out or left.", field="status")
    _no_hand_running(session, table_id)
    row = _load_seat(session, table_id, seat)
    if status == LEFT:
        _move(session, _shift_for_chips(session, table_id), row, "cash_out", row.stack)
        row.cashed_out += row.stack
        row.stack = 0
        row.left_at = utcnow()  # his time played runs to his leave
    row.status = status
    session.flush()
    return _seat_view(row)


def _no_hand_running(session: Session, table_id: int) -> None:
    if tables.has_open_round(session, table_id):
        raise Conflict("A hand is being dealt at this table; wait for it to end.")


def next_button(view: PokerTableView, dealt: list[str]) -> str:
    """The first seat dealt in clockwise after the last hand's button (the lowest at first)."""
    if view.button is None:
        return dealt[0]
    after = [s for s in dealt if seat_order(s) > seat_order(view.button)]
    return (after or dealt)[0]


def _missed_code(missed: str) -> str | None:
    """The engine's ``missed`` from the blinds recorded while he sat out."""
    marks = set(filter(None, missed.split(",")))
    if "new" in marks:
        return "new"
    for mark, code in (("over", "all"), ("big", "small_big"), ("small", "small")):
        if mark in marks:
            return code
    return None


def hand_start(session: Session, table_id: int) -> dict[str, Any]:
    """The start of the next hand as the engine takes it (profile, stakes, button, seats) and,
    for draw, the blinds each sitting-out player misses by it (recorded on his seat now)."""
    view = get(session, table_id)
    profile = get_poker_profile(view.profile)
    dealt = [s for s in view.seats if s.status == PLAYING and s.stack > 0]
    if len(dealt) < profile.min_players:
        raise Conflict("A hand needs at least %(min_players)s players with chips.",
                       min_players=profile.min_players)
    button = next_button(view, [s.seat for s in dealt])
    seats: list[dict[str, Any]] = []
    for s in dealt:
        entry: dict[str, Any] = {"seat": s.seat, "stack": s.stack}
        code = None if profile.is_stud else _missed_code(s.missed)
        if code is not None:
            entry["missed"] = code
        seats.append(entry)
    if not profile.is_stud:
        _mark_missed(session, view, dealt, button)
    return {"game": profile.game, "profile": profile.name, "stakes": view.stakes,
            "button": button, "seats": seats}


def _mark_missed(session: Session, view: PokerTableView, dealt: list[SeatView],
                 button: str) -> None:
    """A player sitting out misses the blinds that would have been his this hand."""
    names = ("small", "big", "over")
    for out in (s for s in view.seats if s.status == SITTING_OUT):
        order = tuple(sorted([*(d.seat for d in dealt), out.seat], key=seat_order))
        positions = blind_seats(button, order)
        if out.seat in positions:
            row = session.get(PokerSeat, out.id)
            assert row is not None
            marks = set(filter(None, row.missed.split(","))) | {names[positions.index(out.seat)]}
            row.missed = ",".join(sorted(marks))


def finish_hand(session: Session, table_id: int, button: str, stacks: Mapping[str, int]) -> None:
    """Carry the hand's final stacks to the seats, clear the dues paid, keep the button."""
    poker = session.get(PokerTable, table_id)
    assert poker is not None
    for seat, stack in stacks.items():
        row = _load_seat(session, table_id, seat)
        row.stack = stack
        row.missed = ""
    poker.button = button
    poker.hands_dealt += 1
    session.flush()
