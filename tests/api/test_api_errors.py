"""The API edge: malformed JSON is 400, unknown routes are JSON problems, never HTML."""

from flask.testing import FlaskClient


def test_malformed_json_gets_400_with_a_problem_body(client: FlaskClient) -> None:
    resp = client.post("/api/v1/russian/settle", data="{not json",
                       content_type="application/json")
    assert resp.status_code == 400
    assert resp.mimetype == "application/problem+json"
    assert resp.json["title"] == "Malformed JSON"


def test_a_json_body_that_is_not_an_object_gets_422_naming_the_body(client: FlaskClient) -> None:
    resp = client.post("/api/v1/russian/settle", json=[1, 2, 3])
    assert resp.status_code == 422
    assert resp.mimetype == "application/problem+json"
    assert "JSON object" in resp.json["detail"]
    assert resp.json["field"] == "body"
    assert resp.json["value"] == "list"


def test_an_empty_body_is_malformed_json(client: FlaskClient) -> None:
    resp = client.post("/api/v1/russian/settle", data="", content_type="application/json")
    assert resp.status_code == 400


def test_an_unknown_api_route_is_a_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/v1/no-such-thing")
    assert resp.status_code == 404
    assert resp.mimetype == "application/problem+json"
    assert resp.json["status"] == 404


def test_an_unknown_game_is_a_json_404_naming_it(client: FlaskClient) -> None:
    resp = client.post("/api/v1/blackjack/settle", json={})
    assert resp.status_code == 404
    assert "blackjack" in resp.json["detail"]
