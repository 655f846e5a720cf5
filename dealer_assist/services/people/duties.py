"""Separation of duties: one declared policy, checked by every service that decides or records.

The rules, each a function below and a row of ``tests/services/test_duties.py``:

1. **Nobody decides a dispute they filed or dealt** (:func:`check_dispute_decider`): not the
   person who filed it, not its round's dealer of record, not whoever took the round
   over mid-round, not anyone who recorded an event of it (:func:`dealt_by`).
2. **Escalation sticks**: once a dispute has been escalated, or decided by a shift manager,
   only a shift manager decides it again (a pit boss cannot override a shift manager).
3. **Nobody approves a void or correction they requested or dealt**
   (:func:`check_change_approver`).
4. **Amounts are bounded by the table's limits** (:func:`check_amount`): a claimed amount, a
   dispute adjustment or a correction moves at most the table's maximum payout plus its
   maximum stake per box (a wager returned and the capped win), in either direction.
5. **Croupiers act only at their own table** (:func:`check_recorder`): a croupier records steps
   only while he deals there (his stint is the table's current one; before anyone
   tapped in, on a shift he opened or co-signed a count or transfer of). Pit bosses and shift
   managers supervise every table. His other acts at a table -- a buy-in, a poker seat's
   chips, a rated player seated or leaving, a void or correction asked for, a dispute filed, a
   relief asked for from a signed-in browser -- are the same check on the table's open shift
   (:func:`check_at_table`, :func:`check_round_act`, :func:`check_relief_asker`).
6. **A closed shift does not change** (:func:`check_shift_open`): no void, no round step, no
   count after close. The one exception is money: an approved correction request or an
   upheld dispute decision writes a ``round_correction`` row (documented: a reason or note,
   the requester and the approver), which the shift report lists as *after close*
   (:func:`after_close`).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, func, select

from ...models import (
    DealerStint,
    GameTable,
    Role,
    Round,
    RoundEvent,
    Shift,
    ShiftStatus,
    TableDevice,
    User,
)
from ...models.inventory import ChipTransfer, InventoryCount
from ...models.poker import PokerSeat
from ...rules.games.registry import get_game
from ..errors import Conflict, PermissionDenied, ValidationError
from . import cosign, stints

SUPERVISORS = frozenset({Role.PIT_BOSS.value, Role.SHIFT_MANAGER.value})
ESCALATION = frozenset({Role.SHIFT_MANAGER.value})


def dealt_by(session: Session, round_id: int) -> frozenset[int]:
    """Who dealt the round: its dealer of record, whoever took it over mid-round,
    and everyone who recorded one of its events (anyone who stepped in)."""
    query = select(RoundEvent.actor_id).where(RoundEvent.round_id == round_id).distinct()
    people = set(session.exec(query).all())
    row = session.get(Round, round_id)
    if row is not None and row.dealer_id is not None:
        people.add(row.dealer_id)
    took_over = select(DealerStint.dealer_id).where(DealerStint.round_id == round_id)
    people.update(session.exec(took_over).all())
    return frozenset(people)


def check_dispute_decider(session: Session, *, user: User, round_id: int, filed_by: int,
                          previous: list[tuple[str, int]]) -> None:
    """Rules 1 and 2. ``previous`` holds the earlier decisions as ``(outcome, decider's id)``."""
    if user.id in dealt_by(session, round_id):
        raise PermissionDenied("You dealt or recorded this round; another pit boss must decide.")
    if user.id == filed_by:
        raise PermissionDenied("You filed this dispute; another pit boss must decide it.")
    if user.role in ESCALATION:
        return
    if any(outcome == "escalated" for outcome, _ in previous):
        raise PermissionDenied("This dispute was escalated; a shift manager decides it.")
    roles = _roles(session, {who for _, who in previous})
    if any(roles.get(who) in ESCALATION for _, who in previous):
        raise PermissionDenied("A shift manager decided this dispute; only a shift manager "
                               "may change the decision.")


def check_change_approver(session: Session, *, user: User, round_id: int,
                          requested_by: int) -> None:
    """Rule 3."""
    if user.id == requested_by:
        raise PermissionDenied("You asked for this; another pit boss must approve it.")
    if user.id in dealt_by(session, round_id):
        raise PermissionDenied("You dealt or recorded this round; another pit boss must approve "
                               "it.")


def amount_limit(table: GameTable) -> int:
    """The most one box can move at this table: its maximum payout plus its maximum stake."""
    return int(table.max_payout) + int(table.max_ante)


def poker_limit(session: Session, table_id: int) -> int:
    """A poker table has no payout cap: a pot holds what the players bought in, so
    no award can move more than every chip ever bought in at the table."""
    total = session.exec(select(func.coalesce(func.sum(PokerSeat.bought_in), 0))
                         .where(PokerSeat.table_id == table_id)).one()
    return int(total)


def check_amount(session: Session, *, table_id: int, amount: int, field: str,
                 label: str) -> int:
    """Rule 4: ``|amount|`` within :func:`amount_limit` of the table (a poker table:
    :func:`poker_limit`)."""
    table = session.get(GameTable, table_id)
    limit = amount_limit(table) if table is not None else 0
    if table is not None and get_game(table.game).poker_room:
        limit = poker_limit(session, table_id)
    if abs(amount) > limit:
        raise ValidationError("%(label)s %(amount)s is beyond this table's limit of "
                              "%(limit)s per box (maximum payout plus maximum stake).",
                              label=label, amount=format(amount, ','),
                              limit=format(limit, ','), field=field)
    return amount


class Unread:
    """A fact the caller did not read (the check reads it)."""


UNREAD = Unread()


def check_recorder(session: Session, *, user: User, shift_id: int) -> None:
    """Rule 5 (:func:`check_recorder_at`) reading the shift's opener itself."""
    shift = session.get(Shift, shift_id)
    if shift is not None:
        assert user.id is not None
        check_recorder_at(session, user_id=user.id, role=user.role, shift_id=shift_id,
                          opened_by=shift.opened_by)


def check_recorder_at(session: Session, *, user_id: int, role: str, shift_id: int,
                      opened_by: int, dealer_id: int | None | Unread = UNREAD) -> None:
    """Rule 5 with the shift's opener already read (the record path reads it with the round):
    a croupier records at a table while he is its dealer (his stint is the shift's current
    one). A shift nobody has tapped in at yet (from before stints): the croupier who
    opened it or co-signed one of its chip counts or transfers as its croupier, as before.
    ``dealer_id``: the table's current dealer as the caller's read found it (None: nobody
    tapped in; the record path reads him with the round)."""
    if role != Role.CROUPIER.value:
        return
    dealer = stints.current_dealer_id(session, shift_id) if isinstance(dealer_id, Unread) \
        else dealer_id
    if dealer is not None:
        if dealer == user_id:
            return
        raise PermissionDenied("%(name)s deals at this table now: tap Relieve dealer to take "
                               "it over.", name=stints.name_of(session, dealer))
    if opened_by == user_id:
        return
    for model in (InventoryCount, ChipTransfer):
        signed = select(model.id).where(model.shift_id == shift_id,
                                        model.croupier_id == user_id)
        if session.exec(signed).first() is not None:
            return
    raise PermissionDenied("You are not the croupier of this table's shift; the croupier who "
                           "opened it (or a pit boss) records its rounds.")


def check_at_table(session: Session, *, user: User, table_id: int) -> None:
    """Rule 5 for an act at a table outside a round's steps: a croupier acts only at
    the table he deals now, its open shift as :func:`check_recorder_at` sees it; the pit
    (and any other role the act admits) anywhere."""
    if user.role != Role.CROUPIER.value:
        return
    shift = session.exec(select(Shift).where(Shift.table_id == table_id,
                                             Shift.status == ShiftStatus.OPEN.value)).first()
    if shift is None or shift.id is None:
        raise PermissionDenied("You do not deal at this table: its croupier or a pit boss "
                               "does this.")
    check_recorder(session, user=user, shift_id=shift.id)


def check_round_act(session: Session, *, user: User, rnd: Round) -> None:
    """Rule 5 for an act on a round outside its steps (a void or correction asked for, a
    dispute filed): a croupier at the table he deals now (:func:`check_at_table`);
    a round of a closed shift also by whoever dealt it (:func:`dealt_by`: a correction asked
    for after close)."""
    if user.role != Role.CROUPIER.value:
        return
    shift = session.get(Shift, rnd.shift_id)
    if shift is not None and shift.status != ShiftStatus.OPEN.value and rnd.id is not None \
            and user.id in dealt_by(session, rnd.id):
        return
    check_at_table(session, user=user, table_id=rnd.table_id)


def check_relief_asker(session: Session, *, credential: cosign.Credential, shift: Shift) -> None:
    """Rule 5 for a relief, by where it is asked for: on the table's own device, or
    in the signed-in browser of someone who may act at this table -- a croupier only at the
    table he deals (handing it over), the pit anywhere. A croupier signed in elsewhere takes no
    table, with or without his PIN: he takes it on its tablet."""
    if credential.device_id is not None:
        bound = session.get(TableDevice, credential.device_id)
        if bound is None or bound.table_id != shift.table_id or bound.revoked_at is not None:
            raise PermissionDenied("This tablet is not the device of this table.")
        return
    asker = session.get(User, credential.signed_in) if credential.signed_in else None
    if asker is None or shift.id is None:
        return  # a PIN typed where nobody is signed in: the PIN is all there is
    try:
        check_recorder(session, user=asker, shift_id=shift.id)
    except PermissionDenied:
        raise PermissionDenied("A croupier takes a table on its tablet: Relieve dealer there, "
                               "your name and your PIN.") from None


def check_shift_open(session: Session, shift_id: int, what: str) -> None:
    """Rule 6: refuse ``what`` on a closed shift."""
    shift = session.get(Shift, shift_id)
    if shift is not None:
        check_status_open(shift.status, what)


def check_status_open(status: str, what: str) -> None:
    """Rule 6 with the shift's status already read."""
    if status == ShiftStatus.CLOSED.value:
        raise Conflict("The shift was closed; %(what)s is not possible any more. Ask for a "
                       "correction instead (it is shown on the report as after close).",
                       what=what)


def after_close(session: Session, shift_id: int, moment: datetime) -> bool:
    """True for something written after its shift was closed (the report marks it)."""
    shift = session.get(Shift, shift_id)
    return bool(shift is not None and shift.closed_at is not None and moment > shift.closed_at)


def _roles(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = session.exec(select(User.id, User.role).where(col(User.id).in_(ids))).all()
    return {i: r for i, r in rows if i is not None}
