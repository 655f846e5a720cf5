"""Test data builders: accounts with a known password, tables with sensible limits."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from dealer_assist.models import User
from dealer_assist.services.people import cosign, passwords, users
from dealer_assist.services.tables import tables

PASSWORD = "correct horse battery"
#: every test account's PIN, unless made with ``pin=None``
PIN = "2580"
#: the co-signer's PIN typed on the same device: what a two-person act needs
SIGNED = cosign.Credential(pin=PIN)


def make_user(session: Session, username: str = "carla", role: str = "croupier", *,
              password: str = PASSWORD, must_change: bool = False,
              language: str | None = None, pin: str | None = PIN,
              badge: str | None = None) -> users.UserView:
    """An account whose password is ``password`` (no one-time password step unless asked),
    with the PIN ``pin`` and the badge number ``badge``."""
    created = users.create_user(session, username=username, display_name=username.title(),
                                role=role)
    row = session.get(User, created.user.id)
    assert row is not None
    row.password_hash = passwords.hash_password(password)
    row.must_change_password = must_change
    row.language = language
    row.pin_hash = passwords.hash_password(pin) if pin else None
    row.badge = badge
    session.flush()
    return users.view(row)


def table_spec(**overrides: Any) -> tables.TableSpec:
    fields: dict[str, Any] = {"name": "RP 1", "game": "russian", "profile": "",
                              "min_ante": 10, "max_ante": 500, "max_payout": 50000, "boxes": 6}
    fields.update(overrides)
    if not fields["profile"]:
        fields["profile"] = _some_profile(fields["game"])
    return tables.TableSpec(**fields)


def _some_profile(game: str) -> str:
    from dealer_assist.services.tables import profiles

    return profiles.default_profile(game) or f"{game}-test"


def make_table(session: Session, **overrides: Any) -> tables.TableView:
    return tables.create_table(session, table_spec(**overrides))


def insert_as_of_now(conn: Any, table_name: str, **values: Any) -> int:
    """Insert a row into ``table_name`` with the columns the database has *now* (reflected),
    not the models' (which carry the columns of later revisions): for tests that write at an
    old revision and then migrate. Returns the new row's id."""
    import sqlalchemy as sa

    table = sa.Table(table_name, sa.MetaData(), autoload_with=conn)
    new_id: int = conn.execute(table.insert().values(**values)).inserted_primary_key[0]
    return new_id


def cage_issue(session: Session, shift_id: int, kind: str, amount: int,
               cashier: str = "cleo") -> int:
    """The cage issues a fill or credit for the shift's table (by the cage cashier
    ``cashier``, made on first use); the table then signs for it (``record_transfer``)."""
    from sqlmodel import select

    from dealer_assist.models import Shift
    from dealer_assist.services.cage import issues

    found = session.exec(select(User).where(User.username == cashier)).first()
    cashier_id = found.id if found is not None else make_user(session, cashier,
                                                              "cage_cashier").id
    shift = session.get(Shift, shift_id)
    assert shift is not None and cashier_id is not None
    return issues.issue(session, kind=kind, table_id=shift.table_id, amount=amount,
                        actor_id=cashier_id).id


# --- a round recorded through the one entry (services.rounds.steps), as the screen does ---------

def start_round(session: Session, **kwargs: Any) -> Any:
    """``steps.begin`` (the bets) returning the round as the screen and the API show it."""
    from dealer_assist.services.rounds import steps

    return steps.begin(session, **kwargs).live_round


def record_step(session: Session, **kwargs: Any) -> Any:
    """``steps.record`` (one step, ``undo`` and ``paid`` included) returning the round."""
    from dealer_assist.services.rounds import steps

    return steps.record(session, **kwargs).live_round


def undo_step(session: Session, **kwargs: Any) -> Any:
    return record_step(session, type="undo", payload={}, **kwargs)


def pay_round(session: Session, **kwargs: Any) -> Any:
    return record_step(session, type="paid", payload={}, **kwargs)


#: the shortest Russian poker round: one box dealt, the dealer dealt, the box folds, the
#: dealer's cards opened
SHORT_ROUND: tuple[tuple[str, dict[str, Any]], ...] = (
    ("deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}),
    ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}),
    ("fold", {"box": "1"}),
    ("reveal", {}),
)


def short_round(session: Session, *, table_id: int, actor_id: int, key: str,
                paid: bool = True) -> Any:
    """A Russian poker round through the one record path (its start, :data:`SHORT_ROUND`,
    "Paid" unless ``paid`` is False), committed; the round as the screen shows it."""
    from dealer_assist.services.rounds import live

    rnd = start_round(session, table_id=table_id, actor_id=actor_id,
                      boxes=[live.BoxStake("1", 100)], idempotency_key=f"{key}:start")
    for n, (kind, payload) in enumerate(SHORT_ROUND):
        rnd = record_step(session, round_id=rnd.round.id, actor_id=actor_id, type=kind,
                          payload=payload, idempotency_key=f"{key}:{n}")
    if paid:
        rnd = pay_round(session, round_id=rnd.round.id, actor_id=actor_id,
                        idempotency_key=f"{key}:paid")
    session.commit()
    return rnd


def old_event(session: Session, *, round_id: int, type: str, payload: dict[str, Any],
              actor_id: int, key: str) -> Any:
    """An event written straight into the event table, as an old database holds it (a shape
    the record path no longer writes: a ``void`` event, a round without rules): only for the
    tests that read old data. The next sequence number of its round."""
    from sqlmodel import func, select

    from dealer_assist.models import RoundEvent
    from dealer_assist.services.rounds.store import encode_payload

    last = session.exec(select(func.max(RoundEvent.seq))
                        .where(RoundEvent.round_id == round_id)).one()
    event = RoundEvent(round_id=round_id, seq=(last or 0) + 1, type=type,
                       payload=encode_payload(payload), actor_id=actor_id,
                       idempotency_key=key)
    session.add(event)
    session.flush()
    return event


def old_round(session: Session, *, shift_id: int) -> Any:
    """A round row without its own rules, as rounds were stored before revision 0004 (read
    with its table's rules): only for the tests that read old data."""
    from sqlmodel import func, select

    from dealer_assist.models import Round, Shift

    shift = session.get(Shift, shift_id)
    assert shift is not None
    last = session.exec(select(func.max(Round.number)).where(Round.shift_id == shift_id)).one()
    row = Round(table_id=shift.table_id, shift_id=shift_id, number=(last or 0) + 1,
                status="open")
    session.add(row)
    session.flush()
    return row
