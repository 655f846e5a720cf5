"""Dealers' stints, read: who deals where now, and who dealt when.

A table's shift runs from the opening count to the closing count; dealers relieve each other
during it. A stint (``dealer_stint``, append-only, audited) is one dealer at one table from a
moment on: it ends when the next stint of the same shift starts (a relief) or when the shift
closes -- nothing is ever updated. The table's *current dealer* is the dealer of its open shift's
newest stint (:func:`current`, :func:`current_dealer_id`, and :func:`current_dealer` for a
statement that reads it with its round); a dealer deals at one table at a time, so a stint
whose dealer has started at another open table since is nobody's any more (he moved).

The stints are written in :mod:`.reliefs` (the table's first dealer, a relief, the person who
starts a round where nobody is tapped in, the parlour game's hosts); this module only reads
them: a shift's history (:func:`of_shift`), the floor's current dealers
(:func:`current_by_shift`, :func:`dealing_now`), the dealers on a break (:func:`on_break`), who
may take a table (:func:`candidates`) and a parlour game's hosts (:func:`of_game`,
:func:`host_at`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, case
from sqlalchemy import select as core_select
from sqlmodel import Session, col, func, or_, select

from ...models import DealerStint, Role, Round, RoundStatus, Shift, ShiftStatus, User, utcnow

#: who may deal at a table (a pit boss or shift manager may step in)
DEALERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
SUPERVISORS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
#: who hosts the parlour board game (and relieves its host)
HOSTS = frozenset({Role.CROUPIER.value, Role.ADMIN.value})


@dataclass(frozen=True, slots=True)
class StintView:
    id: int
    table_id: int | None
    shift_id: int | None
    parlour_game_id: int | None
    dealer_id: int
    dealer: str
    started_at: datetime
    #: the next stint's start, or the shift's close; None while he deals
    ended_at: datetime | None
    kind: str
    authorized_by: int | None = None
    authorized_by_name: str | None = None
    round_id: int | None = None
    device_id: int | None = None

    def minutes(self, now: datetime) -> int:
        """Whole minutes dealt (until now while the stint is open)."""
        return max(0, int(((self.ended_at or now) - self.started_at).total_seconds()) // 60)


@dataclass(frozen=True, slots=True)
class BreakLine:
    """A dealer off the tables: where he dealt last and since when."""

    dealer_id: int
    dealer: str
    since: datetime
    table_id: int | None
    minutes: int


def _names(session: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = sorted({i for i in ids if i is not None})
    if not wanted:
        return {}
    rows = session.exec(select(User.id, User.display_name).where(col(User.id).in_(wanted)))
    return {uid: name for uid, name in rows.all() if uid is not None}


def views(session: Session, rows: Sequence[DealerStint],
          closed: dict[int, datetime | None] | None = None) -> list[StintView]:
    """Stint rows (any order) as views with their end: the next stint of the same place, or
    the close of the shift (``closed``: shift id -> closed_at; looked up when not given)."""
    rows = sorted(rows, key=lambda r: r.id or 0)
    if closed is None:
        shift_ids = sorted({r.shift_id for r in rows if r.shift_id is not None})
        closed = ({s.id: s.closed_at for s in session.exec(
            select(Shift).where(col(Shift.id).in_(shift_ids))).all() if s.id is not None}
            if shift_ids else {})
    names = _names(session, [*(r.dealer_id for r in rows), *(r.authorized_by for r in rows)])
    next_start: dict[tuple[int | None, int | None], datetime] = {}
    out: list[StintView] = []
    for row in reversed(rows):
        place = (row.shift_id, row.parlour_game_id)
        ended = next_start.get(place)
        if ended is None and row.shift_id is not None:
            ended = closed.get(row.shift_id)
        next_start[place] = row.started_at
        assert row.id is not None
        out.append(StintView(row.id, row.table_id, row.shift_id, row.parlour_game_id,
                             row.dealer_id, names.get(row.dealer_id, "?"), row.started_at,
                             ended, row.kind, row.authorized_by,
                             names.get(row.authorized_by) if row.authorized_by else None,
                             row.round_id, row.device_id))
    return out[::-1]


def of_shift(session: Session, shift_id: int) -> list[StintView]:
    """The shift's stints, first to last, each with its end."""
    rows = session.exec(select(DealerStint).where(DealerStint.shift_id == shift_id)).all()
    return views(session, rows)


def current(session: Session, shift_id: int) -> StintView | None:
    """The dealer at the table now: the newest stint of the shift, if the shift is open and
    its dealer has not started at another open table since (he moved)."""
    shift = session.get(Shift, shift_id)
    if shift is None or shift.status != ShiftStatus.OPEN.value:
        return None
    row = session.exec(select(DealerStint).where(DealerStint.shift_id == shift_id)
                       .order_by(col(DealerStint.id).desc())).first()
    if row is None or _newest_of_dealers(session).get(row.dealer_id) != row.id:
        return None
    return views(session, [row], {shift_id: None})[0]


def _newest_of_dealers(session: Session) -> dict[int, int]:
    """Each dealer's newest stint at a table with an open shift (dealer id -> stint id)."""
    rows = session.exec(select(DealerStint.dealer_id, func.max(DealerStint.id))
                        .join(Shift, col(Shift.id) == DealerStint.shift_id)
                        .where(Shift.status == ShiftStatus.OPEN.value)
                        .group_by(col(DealerStint.dealer_id))).all()
    return {dealer: newest for dealer, newest in rows if newest is not None}


_STINT = DealerStint.__table__  # type: ignore[attr-defined]
_SHIFT = Shift.__table__  # type: ignore[attr-defined]
_LATER, _LATER_SHIFT = _STINT.alias("later_stint"), _SHIFT.alias("later_shift")


def current_dealer() -> Any:
    """The dealer at the table now as a scalar subquery of a statement that reads the
    ``shift`` row: the dealer of that shift's newest stint, NULL when nobody is tapped in, the
    shift is not open or the dealer has started at another open table since (:func:`current`'s
    rule, in SQL). The record path reads it with its round (one round trip)."""
    moved = (core_select(_LATER.c.id)
             .where(_LATER.c.dealer_id == _STINT.c.dealer_id, _LATER.c.id > _STINT.c.id,
                    _LATER.c.shift_id == _LATER_SHIFT.c.id,
                    _LATER_SHIFT.c.status == ShiftStatus.OPEN.value).exists())
    return (core_select(case((moved, None), else_=_STINT.c.dealer_id))
            .where(_STINT.c.shift_id == _SHIFT.c.id,
                   _SHIFT.c.status == ShiftStatus.OPEN.value)
            .order_by(_STINT.c.id.desc()).limit(1).scalar_subquery())


#: the dealer at an open shift's table now, one statement built once
_CURRENT_DEALER = core_select(current_dealer()).where(_SHIFT.c.id == bindparam("sid"))


def current_dealer_id(session: Session, shift_id: int) -> int | None:
    """The id of :func:`current`'s dealer (None: nobody tapped in, or the shift not open)."""
    found = session.connection().execute(_CURRENT_DEALER, {"sid": shift_id}).scalar()
    return None if found is None else int(found)


def name_of(session: Session, user_id: int) -> str:
    """A dealer's display name (for a refusal that names him)."""
    return _names(session, [user_id]).get(user_id, "?")


def current_by_shift(session: Session) -> dict[int, StintView]:
    """Every open shift's current stint (one query for the floor)."""
    newest = (select(func.max(DealerStint.id)).join(Shift, col(Shift.id) == DealerStint.shift_id)
              .where(Shift.status == ShiftStatus.OPEN.value)
              .group_by(col(DealerStint.shift_id)))
    rows = session.exec(select(DealerStint).where(col(DealerStint.id).in_(newest))).all()
    dealers = _newest_of_dealers(session)  # a dealer who moved on deals at his newest table only
    rows = [r for r in rows if dealers.get(r.dealer_id) == r.id]
    found = views(session, rows, {r.shift_id: None for r in rows if r.shift_id is not None})
    return {v.shift_id: v for v in found if v.shift_id is not None}


def dealing_now(session: Session, user_id: int) -> StintView | None:
    """Where ``user_id`` deals now (the current stint of an open shift), if anywhere."""
    return next((v for v in current_by_shift(session).values() if v.dealer_id == user_id), None)


def round_in_progress(session: Session, shift_id: int | None) -> Round | None:
    """The shift's round still being dealt, if any (a relief now needs a pit boss)."""
    if shift_id is None:
        return None
    return session.exec(select(Round).where(Round.shift_id == shift_id,
                                            Round.status == RoundStatus.OPEN.value)).first()


def of_game(session: Session, game_id: int) -> list[StintView]:
    """A parlour game's hosts, first to last (the last one hosts now)."""
    rows = session.exec(select(DealerStint)
                        .where(DealerStint.parlour_game_id == game_id)).all()
    return views(session, rows, {})


def host_at(hosts: Sequence[StintView], moment: datetime) -> StintView | None:
    """The host when ``moment`` happened (a hand's host of record)."""
    found = None
    for stint in hosts:
        if stint.started_at <= moment:
            found = stint
    return found


def on_break(session: Session, *, now: datetime | None = None,
             window: timedelta = timedelta(hours=2)) -> list[BreakLine]:
    """Dealers whose last stint ended within ``window`` and who deal nowhere now, longest
    break first."""
    now = now or utcnow()
    since = now - window
    shift_ids = select(Shift.id).where(or_(col(Shift.status) == ShiftStatus.OPEN.value,
                                           col(Shift.closed_at) >= since))
    rows = session.exec(select(DealerStint)
                        .where(col(DealerStint.shift_id).in_(shift_ids))).all()
    last: dict[int, StintView] = {}
    for view in views(session, rows):
        if view.dealer_id not in last or view.started_at >= last[view.dealer_id].started_at:
            last[view.dealer_id] = view
    out = [BreakLine(v.dealer_id, v.dealer, v.ended_at, v.table_id,
                     max(0, int((now - v.ended_at).total_seconds()) // 60))
           for v in last.values() if v.ended_at is not None and since <= v.ended_at <= now]
    return sorted(out, key=lambda b: (b.since, b.dealer))


def candidates(session: Session, roles: frozenset[str] = DEALERS) -> list[tuple[int, str, str]]:
    """Who may take a table (or host the parlour game, ``roles=HOSTS``): active people, as
    (id, name, role), croupiers first."""
    rows = session.exec(select(User).where(User.active == True,  # noqa: E712
                                           col(User.role).in_(sorted(roles)))
                        .order_by(col(User.display_name), col(User.id))).all()
    people = [(u.id or 0, u.display_name, u.role) for u in rows]
    return sorted(people, key=lambda p: p[2] != Role.CROUPIER.value)
