"""Defect 14: the public calculators are bounded. ``split/suggest`` refuses more
samples than the cap with a 422 naming the field, and every public endpoint is rate-limited
per client with a 429 problem body (Flask-Limiter, in-memory counters per app)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from dealer_assist import create_app
from dealer_assist.edge.limits import public_api_endpoints
from tests.conftest import FAST_ARGON2

SUGGEST = {"cards": ["As", "Ks", "Qd", "7c", "4h", "2s", "9d"], "dealer_up": "Jh"}


def _app(tmp_path: Any, **config: Any) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "t", **FAST_ARGON2,
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", **config})


def test_samples_above_the_cap_are_a_422_that_names_the_field(tmp_path: Any) -> None:
    client = _app(tmp_path).test_client()
    resp = client.post("/api/v1/split/suggest", json={**SUGGEST, "samples": 200_000})
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    assert resp.get_json()["field"] == "samples"
    assert "at most 50,000" in resp.get_json()["detail"]


def test_the_samples_cap_is_configurable(tmp_path: Any) -> None:
    client = _app(tmp_path, SPLIT_MAX_SAMPLES=500).test_client()
    assert client.post("/api/v1/split/suggest",
                       json={**SUGGEST, "samples": 501}).status_code == 422
    assert client.post("/api/v1/split/suggest",
                       json={**SUGGEST, "samples": 500}).status_code == 200


def test_every_public_api_endpoint_is_rate_limited(tmp_path: Any) -> None:
    app = _app(tmp_path)
    assert {"api.settle", "api.split_suggest"} <= set(public_api_endpoints(app))


def test_a_client_over_the_limit_gets_a_429_problem_body_with_retry_after(tmp_path: Any) -> None:
    client = _app(tmp_path, PUBLIC_API_RATE_LIMIT="3 per minute").test_client()
    answers = [client.post("/api/v1/caribbean/settle", json={}) for _ in range(3)]
    assert [a.status_code for a in answers] == [422, 422, 422]
    over = client.post("/api/v1/split/suggest", json=SUGGEST)  # the limit is shared
    assert over.status_code == 429
    assert over.mimetype == "application/problem+json"
    body = over.get_json()
    assert body["status"] == 429 and body["title"] == "Too Many Requests"
    assert "3 per 1 minute" in body["detail"]
    assert int(over.headers["Retry-After"]) > 0


def test_another_client_address_has_its_own_count(tmp_path: Any) -> None:
    client = _app(tmp_path, PUBLIC_API_RATE_LIMIT="1 per minute").test_client()
    assert client.post("/api/v1/caribbean/settle", json={}).status_code == 422
    assert client.post("/api/v1/caribbean/settle", json={}).status_code == 429
    other = client.post("/api/v1/caribbean/settle", json={},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 422


def test_signed_in_routes_are_not_counted_against_the_public_limit(tmp_path: Any) -> None:
    client = _app(tmp_path, PUBLIC_API_RATE_LIMIT="1 per minute").test_client()
    for _ in range(3):
        assert client.get("/api/v1/disputes").status_code == 401


def test_the_limit_can_be_turned_off(tmp_path: Any) -> None:
    client = _app(tmp_path, PUBLIC_API_RATE_LIMIT="1 per minute",
                  RATELIMIT_ENABLED=False).test_client()
    assert [client.post("/api/v1/caribbean/settle", json={}).status_code
            for _ in range(3)] == [422, 422, 422]
