"""Web tests: the real app on a fresh SQLite file and a fresh PostgreSQL database.

``app`` here overrides the root one (which has no database) so ``client`` and ``runner`` get a
migrated database; helpers sign in and post forms with the CSRF token like a browser would.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session
from werkzeug.test import TestResponse

from dealer_assist import create_app, db
from tests.conftest import FAST_ARGON2
from tests.factories import PASSWORD, PIN, make_table, make_user
from tests.openapi_answers import problems, recording


@pytest.fixture(autouse=True)
def api_answers_fit_the_document(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every answer of an ``/api/`` route these tests get fits the OpenAPI document."""
    with recording() as seen:
        yield
    if request.node.get_closest_marker("off_the_document") is None:
        assert [p for answer in seen for p in problems(answer)] == []


@pytest.fixture
def app(db_url: str) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE_URL": db_url,
                      **FAST_ARGON2})
    yield app
    db.dispose(app)


class Browser:
    """A test client that signs in and submits forms with their CSRF token."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def csrf(self) -> str:
        with self.client.session_transaction() as sess:
            token = sess.get("csrf_token")
        if not token:
            page = self.client.get("/login").get_data(as_text=True)
            match = re.search(r'name="csrf_token" value="([^"]+)"', page)
            assert match, "no CSRF field on the login page"
            token = match.group(1)
        return str(token)

    def get(self, url: str, **kwargs: Any) -> TestResponse:
        return self.client.get(url, **kwargs)

    def post(self, url: str, data: dict[str, Any] | None = None, *, csrf: bool = True,
             **kwargs: Any) -> TestResponse:
        form = dict(data or {})
        if csrf:
            form["csrf_token"] = self.csrf()
        return self.client.post(url, data=form, **kwargs)

    def login(self, username: str, password: str = PASSWORD) -> TestResponse:
        return self.post("/login", {"username": username, "password": password})


@pytest.fixture
def browser(client: FlaskClient) -> Browser:
    return Browser(client)


@pytest.fixture
def other_browser(app: Flask) -> Browser:
    return Browser(app.test_client())


@pytest.fixture
def dbs(app: Flask) -> Iterator[Session]:
    """A session for arranging data; commit what you arrange."""
    with db.session_scope(app) as session:
        yield session


def arrange(app: Flask, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run a factory in its own committed transaction."""
    with db.session_scope(app) as session:
        return fn(session, *args, **kwargs)


@pytest.fixture
def admin(app: Flask) -> Any:
    return arrange(app, make_user, "root", "admin")


@pytest.fixture
def croupier(app: Flask) -> Any:
    return arrange(app, make_user, "carla", "croupier")


@pytest.fixture
def table(app: Flask) -> Any:
    return arrange(app, make_table, name="RP 1")


def text(resp: TestResponse) -> str:
    return resp.get_data(as_text=True)


def opening_form(app: Flask, **extra: Any) -> dict[str, Any]:
    """The form that opens a shift: the opening count chip by chip and both signers
    (the route reads the one who is not signed in). Makes croupier Carla and pit boss Olga if
    they do not exist yet (Olga: a name no other test signs in with)."""
    from sqlmodel import select

    from dealer_assist.models import User

    def ids(session: Session) -> dict[str, int]:
        out = {}
        for name, role in (("carla", "croupier"), ("olga", "pit_boss")):
            user = session.exec(select(User).where(User.username == name)).first()
            out[name] = user.id if user else make_user(session, name, role).id
        return out

    people = arrange(app, ids)
    return {"chips.100": "40", "chips.25": "80", "chips.5": "100",
            "croupier_id": people["carla"], "pit_boss_id": people["olga"],
            # the signer who is not signed in types his PIN (the route reads his)
            "croupier_pin": PIN, "pit_boss_pin": PIN, **extra}
