"""The public rate limit is for anonymous callers. A casino floor is one address
behind its router: after the public has used the address's quota, a signed-in pit boss at the
same address still gets his answers, and fetching the OpenAPI document is never counted."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.factories import make_user
from tests.web.conftest import Browser, arrange

CALC = "/api/v1/caribbean/settle"


@pytest.fixture
def limited(app: Flask) -> Flask:
    app.config["PUBLIC_API_RATE_LIMIT"] = "3 per minute"
    return app


def test_a_signed_in_pit_boss_is_not_throttled_by_the_public_limit(
        limited: Flask, browser: Browser, other_browser: Browser) -> None:
    arrange(limited, make_user, "olga", "pit_boss")
    anonymous = limited.test_client()
    assert [anonymous.post(CALC, json={}).status_code for _ in range(4)] == [422] * 3 + [429]
    assert other_browser.login("olga").status_code == 302
    staff = [other_browser.client.post(CALC, json={}).status_code for _ in range(5)]
    assert staff == [422] * 5
    assert anonymous.post(CALC, json={}).status_code == 429  # still refused: staff took nothing


def test_the_openapi_document_is_not_counted_nor_refused(limited: Flask) -> None:
    client = limited.test_client()
    assert [client.get("/api/v1/openapi.json").status_code for _ in range(5)] == [200] * 5
    assert [client.post(CALC, json={}).status_code for _ in range(4)] == [422] * 3 + [429]
    assert client.get("/api/v1/openapi.json").status_code == 200


def test_a_revoked_login_counts_as_anonymous(limited: Flask, browser: Browser,
                                             croupier: Any) -> None:
    assert browser.login("carla").status_code == 302
    assert browser.post("/logout").status_code in (302, 303)
    answers = [browser.client.post(CALC, json={}).status_code for _ in range(4)]
    assert answers == [422] * 3 + [429]
