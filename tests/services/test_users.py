"""Individual accounts: one-time passwords, Argon2id, disabling and resetting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session

from dealer_assist.models import User
from dealer_assist.services.errors import (
    AuthenticationFailed,
    Conflict,
    NotFound,
    ValidationError,
)
from dealer_assist.services.people import auth, users
from tests.factories import PASSWORD, make_user

IDLE = timedelta(minutes=30)


def test_a_new_account_gets_a_one_time_password_that_must_be_changed(session: Session) -> None:
    created = users.create_user(session, username="Anna.K", display_name="  Anna   K ",
                                role="croupier")
    assert created.user.username == "anna.k"
    assert created.user.display_name == "Anna K"
    assert created.user.must_change_password
    login = auth.login(session, username="anna.k", password=created.one_time_password, ip="1")
    assert login.must_change_password


def test_passwords_are_stored_only_as_argon2id_hashes(session: Session) -> None:
    created = users.create_user(session, username="bob", display_name="Bob", role="pit_boss")
    row = session.get(User, created.user.id)
    assert row is not None
    assert row.password_hash.startswith("$argon2id$")
    assert created.one_time_password not in row.password_hash


def test_usernames_are_case_insensitive_and_unique(session: Session) -> None:
    users.create_user(session, username="anna", display_name="Anna", role="croupier")
    with pytest.raises(Conflict, match="already taken"):
        users.create_user(session, username="ANNA", display_name="Other", role="croupier")


@pytest.mark.parametrize(("username", "role", "field"), [
    ("a", "croupier", "username"),
    ("has space", "croupier", "username"),
    ("ok_name", "owner", "role"),
])
def test_a_bad_username_or_an_unknown_role_is_refused_naming_the_field(
        session: Session, username: str, role: str, field: str) -> None:
    with pytest.raises(ValidationError) as err:
        users.create_user(session, username=username, display_name="X", role=role)
    assert err.value.field == field


def test_changing_the_password_needs_the_current_one(session: Session) -> None:
    user = make_user(session)
    with pytest.raises(AuthenticationFailed):
        users.change_password(session, user.id, current="wrong", new="a much longer secret",
                              min_length=10)


def test_a_new_password_shorter_than_the_minimum_is_refused(session: Session) -> None:
    user = make_user(session)
    with pytest.raises(ValidationError, match="at least 10"):
        users.change_password(session, user.id, current=PASSWORD, new="short", min_length=10)


def test_changing_the_password_clears_the_first_login_flag_and_ends_other_sessions(
        session: Session) -> None:
    user = make_user(session, must_change=True)
    here = auth.login(session, username=user.username, password=PASSWORD, ip="1")
    elsewhere = auth.login(session, username=user.username, password=PASSWORD, ip="2")
    changed = users.change_password(session, user.id, current=PASSWORD,
                                    new="a much longer secret", min_length=10,
                                    keep_session_id=here.session_id)
    assert not changed.must_change_password
    assert auth.resolve(session, here.token, idle_timeout=IDLE) is not None
    assert auth.resolve(session, elsewhere.token, idle_timeout=IDLE) is None


def test_disabling_an_account_revokes_its_sessions_at_once(session: Session) -> None:
    admin = make_user(session, "root", "admin")
    user = make_user(session)
    login = auth.login(session, username=user.username, password=PASSWORD, ip="1")
    users.set_active(session, user.id, False, actor_id=admin.id)
    assert auth.resolve(session, login.token, idle_timeout=IDLE) is None
    users.set_active(session, user.id, True, actor_id=admin.id)
    assert auth.resolve(session, login.token, idle_timeout=IDLE) is None  # revoked for good


def test_nobody_can_disable_their_own_account(session: Session) -> None:
    admin = make_user(session, "root", "admin")
    make_user(session, "root2", "admin")
    with pytest.raises(Conflict, match="your own"):
        users.set_active(session, admin.id, False, actor_id=admin.id)


def test_the_last_active_administrator_cannot_be_disabled(session: Session) -> None:
    admin = make_user(session, "root", "admin")
    manager = make_user(session, "mgr", "shift_manager")
    with pytest.raises(Conflict, match="last active administrator"):
        users.set_active(session, admin.id, False, actor_id=manager.id)


def test_resetting_a_password_issues_a_new_one_time_password_and_ends_sessions(
        session: Session) -> None:
    user = make_user(session)
    login = auth.login(session, username=user.username, password=PASSWORD, ip="1")
    new = users.reset_password(session, user.id)
    assert new.user.must_change_password
    assert auth.resolve(session, login.token, idle_timeout=IDLE) is None
    with pytest.raises(AuthenticationFailed):
        auth.login(session, username=user.username, password=PASSWORD, ip="1")
    assert auth.login(session, username=user.username, password=new.one_time_password, ip="1")


def test_admin_exists_only_counts_active_administrators(session: Session) -> None:
    assert not users.admin_exists(session)
    make_user(session, "root", "admin")
    assert users.admin_exists(session)


def test_an_unknown_user_id_is_not_found(session: Session) -> None:
    with pytest.raises(NotFound):
        users.get_user(session, 999)
