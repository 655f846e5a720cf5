"""The drop box and the soft count.

Per table and gaming date one drop box collects the cash of every buy-in. At the soft count two
members of the count team (independent of the pit; no pit boss, shift manager or
administrator counts) -- each authenticated: his PIN, or his own signed-in session -- enter the
cash by denomination; the amount is the exact sum. The drop variance is the counted cash minus
the buy-ins recorded at the table for that day; above the casino's threshold (a setting,
``DROP_VARIANCE_NOTE_THRESHOLD``: NJ reads $25 and $100 as report levels, so no constant here)
the count needs a note saying why. The count is taken once the day's shifts of that table are
closed (their buy-ins are final); it is stored once (``drop_count``, append-only). """

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from ...models import ActSignature, GameTable, Role, Shift, ShiftStatus, User, utcnow
from ...models.cage import NOTE_MAX, DropCount
from ..errors import Conflict, NotFound, PermissionDenied, ValidationError
from ..people import cosign
from . import buyins

#: the count team only -- independent of the table games department (every MICS:
#: no pit boss, shift manager, croupier or administrator counts the drop)
COUNTERS = frozenset({Role.COUNT_TEAM.value})
#: the notes of a currency (its smallest unit), largest first; a casino sets CASH_DENOMINATIONS
DEFAULT_CASH = (5000, 2000, 1000, 500, 200, 100, 50, 10)
MAX_NOTES = 1_000_000
#: the counters' form fields: ``counter_a``, ``counter_b``, ``counter_c``...
LETTERS = "abcdefgh"


@dataclass(frozen=True, slots=True)
class DropView:
    table_id: int
    gaming_date: date
    amount: int
    cash: Mapping[int, int]
    recorded: int
    counted_at: datetime
    #: who counted: the two of ``drop_count`` and any further signer (``act_signature``)
    counters: tuple[str, ...]
    note: str

    @property
    def variance(self) -> int:
        """Counted cash minus the buy-ins recorded at the table."""
        return self.amount - self.recorded


def _cash(cash: Mapping[Any, Any], denominations: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for key, value in cash.items():
        try:
            denom = int(key)
        except (TypeError, ValueError):
            raise ValidationError("'%(key)s' is not a denomination.", key=key,
                                  field="cash") from None
        if denom not in denominations:
            raise ValidationError("There is no %(denom)s note (%(v)s).", denom=denom,
                                  v=", ".join(str(d) for d in denominations),
                                  field=f"cash.{key}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NOTES:
            raise ValidationError("The number of %(denom)s notes is a whole number from 0 to "
                                  "%(max)s.", denom=denom, max=format(MAX_NOTES, ","),
                                  field=f"cash.{denom}")
        out[denom] = value
    return {d: out.get(d, 0) for d in sorted(denominations, reverse=True)}


def _counter(session: Session, user_id: int, credential: cosign.Credential | None,
             field: str) -> cosign.Signature:
    return cosign.authenticate(session, user_id=user_id, act="soft_count",
                               credential=credential, field=field, roles=COUNTERS)


def _team(counter_a: int, counter_b: int, more: Sequence[int], signers: int) -> list[int]:
    """The counters who sign: ``signers`` different people (the casino's setting, at least
    two; RULES.md: "Nevada and Mississippi require three"). Fields ``counter_a``, ``_b``..."""
    team = [counter_a, counter_b, *more]
    for i, person in enumerate(team):
        if person in team[:i]:
            raise ValidationError("Different people count the drop.", field=f"counter_{LETTERS[i]}")
    if len(team) < max(2, signers):
        raise ValidationError("%(n)s members of the count team sign the count.",
                              n=max(2, signers), field=f"counter_{LETTERS[len(team)]}")
    return team


def soft_count(session: Session, *, table_id: int, gaming_date: date, cash: Mapping[Any, Any],
               counter_a: int, counter_b: int, credential_a: cosign.Credential | None,
               credential_b: cosign.Credential | None, actor_id: int, note: str = "",
               denominations: Sequence[int] = DEFAULT_CASH, note_threshold: int = 100,
               more: Sequence[tuple[int, cosign.Credential | None]] = (), signers: int = 2,
               now: datetime | None = None) -> DropView:
    """Record the soft count of ``table_id``'s drop box for ``gaming_date`` by the count team:
    ``counter_a``, ``counter_b`` and, where the casino wants more signers (``signers``), the
    ``more`` (id, credential) pairs, each authenticated."""
    now = now or utcnow()
    actor = session.get(User, actor_id)
    if actor is None or not actor.active or actor.role not in COUNTERS:
        raise PermissionDenied("Only the count team records a soft count: it is independent "
                               "of the pit.")
    table = session.get(GameTable, table_id)
    if table is None:
        raise NotFound("No table with id %(table_id)s.", table_id=table_id)
    if counter_a == counter_b:
        raise ValidationError("Two different people count the drop.", field="counter_b")
    team = _team(counter_a, counter_b, [p for p, _c in more], signers)
    if session.exec(select(Shift.id).where(Shift.table_id == table_id,
                                           Shift.gaming_date == gaming_date,
                                           Shift.status == ShiftStatus.OPEN.value)).first():
        raise Conflict("Close the table's shift of that gaming date before its drop is counted.")
    counted = _cash(cash, denominations)
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationError("A note is at most %(NOTE_MAX)s characters.", NOTE_MAX=NOTE_MAX,
                              field="note")
    recorded = buyins.total_of_day(session, table_id, gaming_date)
    amount = sum(d * n for d, n in counted.items())
    if abs(amount - recorded) > note_threshold and not note:
        raise ValidationError("The drop differs from the buy-ins recorded at the table by "
                              "%(diff)s (more than %(limit)s): say why in the note.",
                              diff=format(amount - recorded, ","),
                              limit=format(note_threshold, ","), field="note")
    credentials = [credential_a, credential_b, *(c for _p, c in more)]
    signatures = [_counter(session, person, credential, f"counter_{LETTERS[i]}_pin")
                  for i, (person, credential) in enumerate(zip(team, credentials, strict=True))]
    row = DropCount(table_id=table_id, gaming_date=gaming_date, amount=amount,
                    cash=json.dumps({str(d): n for d, n in counted.items()},
                                    separators=(",", ":")),
                    recorded=recorded, counted_at=now, counter_a=counter_a,
                    counter_b=counter_b, recorded_by=actor_id, note=note)
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        raise Conflict("The drop of %(table)s for %(day)s is already counted.",
                       table=table.name, day=gaming_date.isoformat()) from None
    for signature in signatures:
        cosign.record(session, signature, entity="drop_count", entity_id=row.id or 0, now=now)
    found = drop_of(session, table_id, gaming_date)
    assert found is not None
    return found


def counters(session: Session) -> list[tuple[int, str]]:
    """(id, name) of everyone who may count a drop, by name (for the form)."""
    query = (select(User).where(User.active == True)  # noqa: E712
             .order_by(User.display_name, User.id))  # type: ignore[arg-type]
    return [(u.id or 0, u.display_name) for u in session.exec(query).all()
            if u.role in COUNTERS]


def drop_of(session: Session, table_id: int, gaming_date: date) -> DropView | None:
    row = session.exec(select(DropCount).where(DropCount.table_id == table_id,
                                               DropCount.gaming_date == gaming_date)).first()
    if row is None:
        return None
    signed = session.exec(select(ActSignature.user_id).where(
        ActSignature.entity == "drop_count", ActSignature.entity_id == str(row.id))
        .order_by(col(ActSignature.id))).all()
    team = [row.counter_a, row.counter_b, *(u for u in signed
                                              if u not in (row.counter_a, row.counter_b))]
    people = {u.id: u.display_name for u in session.exec(select(User).where(
        col(User.id).in_(team))).all()}
    names = [people.get(u, "?") for u in team]
    return DropView(row.table_id, row.gaming_date, row.amount,
                    {int(k): int(v) for k, v in json.loads(row.cash).items()}, row.recorded,
                    row.counted_at, tuple(names), row.note)
