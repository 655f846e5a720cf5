"""Dealers' stints: a shift is the table's, a stint is the dealer's.

A table's shift runs from the opening count to the closing count; dealers relieve each other
during it. A stint (``dealer_stint``, append-only, audited) is one dealer at one table from a
moment on: it ends when the next stint of the same shift starts (a relief) or when the shift
closes -- nothing is ever updated. The table's *current dealer* is the dealer of its open shift's
newest stint; every round or poker hand records him as its dealer of record when it starts
(:func:`dealer_for_round`).

* The croupier who counts the float with the pit boss opens the table's first stint
  (:func:`open_table`).
* :func:`relieve` -- "Relieve dealer" on the table's tablet: the incoming dealer's name or badge
  and his PIN (:mod:`.cosign`). Between rounds that is all; while a round (or hand) is open only
  with a pit boss's PIN too (illness, an emergency): the stint is ``mid_round``, names the pit
  boss and the round handed over, and the round keeps its dealer of record. Where it is asked
  for is duties rule 5 (``duties.check_relief_asker``): the table's own device, or the
  signed-in browser of the dealer handing over or of the pit -- never a croupier's own sign-in
  at another table.
* A dealer deals at one table at a time: he is relieved where he deals before he takes another
  by a relief; starting a round where nobody is tapped in moves him there (his table is left
  with nobody tapped in; refused while a round is being dealt there).
* Nobody tapped in (a shift opened before stints, or by a pit boss alone): whoever starts the
  next round deals it, and a ``start`` stint says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, case
from sqlalchemy import select as core_select
from sqlmodel import Session, col, func, or_, select

from ...models import (
    DealerStint,
    GameTable,
    ParlourGame,
    Role,
    Round,
    RoundStatus,
    Shift,
    ShiftStatus,
    StintKind,
    User,
    utcnow,
)
from ..errors import Conflict, NotFound, ValidationError
from . import cosign, pins

#: who may deal at a table (a pit boss or shift manager may step in)
DEALERS = frozenset({Role.CROUPIER.value, Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
SUPERVISORS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
RELIEF, MID_ROUND = "relief", "relief_mid_round"


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


def _insert(session: Session, *, shift: Shift, dealer_id: int, kind: StintKind, now: datetime,
            authorized_by: int | None = None, round_id: int | None = None,
            device_id: int | None = None) -> DealerStint:
    row = DealerStint(table_id=shift.table_id, shift_id=shift.id, dealer_id=dealer_id,
                      started_at=now, kind=kind.value, authorized_by=authorized_by,
                      round_id=round_id, device_id=device_id)
    session.add(row)
    session.flush()
    return row


def open_table(session: Session, *, shift_id: int, dealer_id: int,
               now: datetime | None = None) -> StintView | None:
    """The croupier who opened the table (counted its float) deals first -- unless he deals at
    another table now (one croupier may count several floats before the dealers arrive): then
    nobody is tapped in yet, and the first relief (or whoever starts the first round) is."""
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    elsewhere = dealing_now(session, dealer_id)
    if elsewhere is not None and elsewhere.shift_id != shift_id:
        return None
    row = _insert(session, shift=shift, dealer_id=dealer_id, kind=StintKind.OPENING,
                  now=now or shift.opened_at)
    return views(session, [row], {shift_id: None})[0]


def dealer_for_round(session: Session, *, shift_id: int, actor_id: int,
                     now: datetime | None = None) -> int:
    """The dealer of record of a round starting now: the table's current dealer; nobody tapped
    in, the person starting it deals (a ``start`` stint records it). A dealer deals at one table
    at a time (one pit boss was shown dealing three tables): if he deals at
    another table, he leaves it (nobody is tapped in there any more) -- refused while a round
    of his is being dealt there."""
    found = current_dealer_id(session, shift_id)
    if found is not None:
        return found
    shift = session.get(Shift, shift_id)
    if shift is None:
        raise NotFound("No shift with id %(shift_id)s.", shift_id=shift_id)
    elsewhere = dealing_now(session, actor_id)
    if elsewhere is not None and elsewhere.shift_id != shift_id \
            and round_in_progress(session, elsewhere.shift_id) is not None:
        _busy_elsewhere(session, elsewhere)
    _insert(session, shift=shift, dealer_id=actor_id, kind=StintKind.START, now=now or utcnow())
    return actor_id


def _busy_elsewhere(session: Session, stint: StintView) -> None:
    table = session.get(GameTable, stint.table_id) if stint.table_id is not None else None
    raise Conflict("%(name)s deals at %(table)s now: a relief there comes first.",
                   name=stint.dealer, table=table.name if table else "?", field="dealer")


def round_in_progress(session: Session, shift_id: int | None) -> Round | None:
    """The shift's round still being dealt, if any (a relief now needs a pit boss)."""
    if shift_id is None:
        return None
    return session.exec(select(Round).where(Round.shift_id == shift_id,
                                            Round.status == RoundStatus.OPEN.value)).first()


@dataclass(frozen=True, slots=True)
class Relief:
    """Who takes the table, and (mid-round) which pit boss allows it, with their credentials."""

    dealer_id: int
    credential: cosign.Credential
    pit_boss_id: int | None = None
    pit_credential: cosign.Credential | None = None


def relieve(session: Session, *, table_id: int, relief: Relief,
            policy: pins.PinPolicy = pins.DEFAULT_POLICY,
            now: datetime | None = None) -> StintView:
    """Hand the table to ``relief.dealer_id``: the previous stint ends, his starts.

    The incoming dealer's PIN is checked first (nothing is written before: a wrong PIN records
    its failure only, and the caller commits it). A round in progress needs the pit boss's PIN
    too; the round keeps its dealer of record and the stint names it."""
    now = now or utcnow()
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    shift = session.exec(select(Shift).where(Shift.table_id == table_id,
                                             Shift.status == ShiftStatus.OPEN.value)).first()
    if shift is None or shift.id is None:
        raise Conflict("Table %(name)s has no open shift: the pit opens it first.",
                       name=table.name)
    # late: duties reads the current dealer from here (stints <-> duties, one package)
    from .duties import check_relief_asker

    check_relief_asker(session, credential=relief.credential, shift=shift)
    dealer = cosign.authenticate(session, user_id=relief.dealer_id, act=RELIEF,
                                 credential=relief.credential, field="pin", roles=DEALERS,
                                 policy=policy, now=now)
    in_progress = round_in_progress(session, shift.id)
    open_round = in_progress.id if in_progress else None
    boss = _pit_boss(session, relief, dealer, open_round, policy, now)
    before = current(session, shift.id)
    if before is not None and now < before.started_at:
        raise ValidationError("A relief starts after the stint it ends.", field="dealer")
    if before is not None and before.dealer_id == dealer.user_id:
        raise Conflict("%(name)s already deals at this table.", name=dealer.name,
                       field="dealer")
    elsewhere = dealing_now(session, dealer.user_id)
    if elsewhere is not None and elsewhere.shift_id != shift.id:
        _busy_elsewhere(session, elsewhere)
    row = _insert(session, shift=shift, dealer_id=dealer.user_id,
                  kind=StintKind.MID_ROUND if open_round else StintKind.RELIEF, now=now,
                  authorized_by=boss.user_id if boss else None, round_id=open_round,
                  device_id=relief.credential.device_id)
    assert row.id is not None
    for signed in (dealer, boss):
        if signed is not None:
            cosign.record(session, signed, entity="dealer_stint", entity_id=row.id, now=now)
    return views(session, [row], {shift.id: None})[0]


def _pit_boss(session: Session, relief: Relief, dealer: cosign.Signature,
              open_round: int | None, policy: pins.PinPolicy,
              now: datetime) -> cosign.Signature | None:
    """Mid-round: the pit boss who allows the handover, authenticated (never the incoming
    dealer himself)."""
    if open_round is None:
        return None
    if relief.pit_boss_id is None:
        number = session.get(Round, open_round).number  # type: ignore[union-attr]
        raise ValidationError("Round %(number)s is in progress: a relief now needs a pit boss's "
                              "PIN too (illness, an emergency), or finish the round first.",
                              number=number, field="pit_boss")
    if relief.pit_boss_id == dealer.user_id:
        raise ValidationError("Another pit boss allows your own relief.", field="pit_boss")
    return cosign.authenticate(session, user_id=relief.pit_boss_id, act=MID_ROUND,
                               credential=relief.pit_credential, field="pit_pin",
                               roles=SUPERVISORS, policy=policy, now=now)


# --- the parlour board game: its host ----------------------------------------------------------

#: who hosts the parlour board game (``services.rounds.parlour.HOSTS``)
HOSTS = frozenset({Role.CROUPIER.value, Role.ADMIN.value})


def of_game(session: Session, game_id: int) -> list[StintView]:
    """A parlour game's hosts, first to last (the last one hosts now)."""
    rows = session.exec(select(DealerStint)
                        .where(DealerStint.parlour_game_id == game_id)).all()
    return views(session, rows, {})


def open_game(session: Session, *, game_id: int, host_id: int,
              now: datetime | None = None) -> StintView:
    """Whoever sets the evening's game up hosts it first."""
    row = DealerStint(parlour_game_id=game_id, dealer_id=host_id, started_at=now or utcnow(),
                      kind=StintKind.OPENING.value)
    session.add(row)
    session.flush()
    return views(session, [row], {})[0]


def relieve_host(session: Session, *, game_id: int, relief: Relief,
                 policy: pins.PinPolicy = pins.DEFAULT_POLICY,
                 now: datetime | None = None) -> StintView:
    """The parlour page's relief: the incoming host's name or badge and PIN. A parlour hand is
    recorded whole in one step, so there is no relief in the middle of one."""
    now = now or utcnow()
    if session.get(ParlourGame, game_id) is None:
        raise NotFound("No parlour game with id %(game_id)s.", game_id=game_id)
    host = cosign.authenticate(session, user_id=relief.dealer_id, act=RELIEF,
                               credential=relief.credential, field="pin", roles=HOSTS,
                               policy=policy, now=now)
    hosts = of_game(session, game_id)
    if hosts and hosts[-1].dealer_id == host.user_id:
        raise Conflict("%(name)s already hosts this game.", name=host.name, field="dealer")
    row = DealerStint(parlour_game_id=game_id, dealer_id=host.user_id, started_at=now,
                      kind=StintKind.RELIEF.value, device_id=relief.credential.device_id)
    session.add(row)
    session.flush()
    assert row.id is not None
    cosign.record(session, host, entity="dealer_stint", entity_id=row.id, now=now)
    return views(session, [row], {})[0]


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
