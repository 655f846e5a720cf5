"""Login throttling per username and address, stored in the database; server-side sessions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session

from dealer_assist.models import utcnow
from dealer_assist.services.errors import AuthenticationFailed, Throttled
from dealer_assist.services.people import auth
from tests.factories import PASSWORD, make_user

POLICY = auth.ThrottlePolicy(max_failures=5, base_seconds=30, max_seconds=900)
IDLE = timedelta(minutes=30)


def _fail(session: Session, times: int, *, ip: str = "10.0.0.1", now=None) -> None:  # noqa: ANN001
    for _ in range(times):
        with pytest.raises(AuthenticationFailed):
            auth.login(session, username="carla", password="wrong", ip=ip, policy=POLICY,
                       now=now)


def test_the_right_password_opens_a_session_that_resolves_to_the_user(session: Session) -> None:
    user = make_user(session)
    login = auth.login(session, username=" Carla ", password=PASSWORD, ip="10.0.0.1")
    active = auth.resolve(session, login.token, idle_timeout=IDLE)
    assert active is not None and active.user_id == user.id and active.role == "croupier"


def test_a_wrong_password_and_an_unknown_user_fail_with_the_same_message(
        session: Session) -> None:
    make_user(session)
    with pytest.raises(AuthenticationFailed) as wrong:
        auth.login(session, username="carla", password="nope", ip="1")
    with pytest.raises(AuthenticationFailed) as unknown:
        auth.login(session, username="nobody", password="nope", ip="1")
    assert str(wrong.value) == str(unknown.value) == auth.WRONG


def test_five_failures_lock_the_account_for_that_address_even_with_the_right_password(
        session: Session) -> None:
    make_user(session)
    _fail(session, 5)
    with pytest.raises(Throttled) as err:
        auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1", policy=POLICY)
    assert 0 < err.value.retry_after <= 31


def test_four_failures_do_not_lock(session: Session) -> None:
    make_user(session)
    _fail(session, 4)
    assert auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1", policy=POLICY)


def test_the_lock_doubles_with_each_failure_after_it_expires(session: Session) -> None:
    make_user(session)
    start = utcnow()
    _fail(session, 5, now=start)
    later = start + timedelta(seconds=31)
    _fail(session, 1, now=later)  # the lock expired; one more failure locks for 60 s
    with pytest.raises(Throttled) as err:
        auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1", policy=POLICY,
                   now=later + timedelta(seconds=45))
    assert err.value.retry_after == 16


def test_the_lock_is_per_address(session: Session) -> None:
    make_user(session)
    _fail(session, 5, ip="10.0.0.1")
    assert auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.2", policy=POLICY)


def test_the_lock_survives_a_restart_because_it_is_in_the_database(engine: Engine,
                                                                    db_url: str) -> None:
    from dealer_assist.db import make_engine

    with Session(engine) as session:
        make_user(session)
        _fail(session, 5)
        session.commit()
    engine.dispose()
    restarted = make_engine(db_url)
    try:
        with Session(restarted) as session, pytest.raises(Throttled):
            auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1",
                       policy=POLICY)
    finally:
        restarted.dispose()


def test_a_successful_login_clears_earlier_failures(session: Session) -> None:
    make_user(session)
    _fail(session, 4)
    auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1", policy=POLICY)
    _fail(session, 4)  # would lock if the first four still counted
    assert auth.login(session, username="carla", password=PASSWORD, ip="10.0.0.1", policy=POLICY)


def test_an_idle_session_stops_resolving_and_is_reported_idle(session: Session) -> None:
    make_user(session)
    login = auth.login(session, username="carla", password=PASSWORD, ip="1")
    later = utcnow() + timedelta(minutes=31)
    assert auth.resolve(session, login.token, idle_timeout=IDLE, now=later) is None
    assert auth.is_idle(session, login.token, idle_timeout=IDLE, now=later)


def test_touching_a_session_keeps_it_alive(session: Session) -> None:
    make_user(session)
    login = auth.login(session, username="carla", password=PASSWORD, ip="1")
    auth.touch(session, login.session_id, now=utcnow() + timedelta(minutes=20))
    later = utcnow() + timedelta(minutes=40)
    assert auth.resolve(session, login.token, idle_timeout=IDLE, now=later) is not None


def test_a_revoked_session_no_longer_resolves(session: Session) -> None:
    make_user(session)
    login = auth.login(session, username="carla", password=PASSWORD, ip="1")
    auth.revoke(session, login.token)
    assert auth.resolve(session, login.token, idle_timeout=IDLE) is None
    assert not auth.is_idle(session, login.token, idle_timeout=IDLE)


def test_a_made_up_token_resolves_to_nobody(session: Session) -> None:
    assert auth.resolve(session, "forged", idle_timeout=IDLE) is None
