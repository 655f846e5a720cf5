"""Dealers' stints, written: who takes a table (or the parlour game) from now on.

Every stint (``dealer_stint``, append-only; read in :mod:`.stints`) starts here, and nothing
is ever updated:

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
* Every round or poker hand records the table's current dealer as its dealer of record when it
  starts (:func:`dealer_for_round`); nobody tapped in (a shift opened before stints, or by a
  pit boss alone): whoever starts the round deals it, and a ``start`` stint says so.
* The parlour board game: whoever sets the evening's game up hosts it first
  (:func:`open_game`); :func:`relieve_host` hands it over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from ...models import (
    DealerStint,
    GameTable,
    ParlourGame,
    Round,
    Shift,
    ShiftStatus,
    StintKind,
    utcnow,
)
from ..errors import Conflict, NotFound, ValidationError
from . import cosign, pins
from .duties import check_relief_asker
from .stints import (
    DEALERS,
    HOSTS,
    SUPERVISORS,
    StintView,
    current,
    current_dealer_id,
    dealing_now,
    of_game,
    round_in_progress,
    views,
)

RELIEF, MID_ROUND = "relief", "relief_mid_round"


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
