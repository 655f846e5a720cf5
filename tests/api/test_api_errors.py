"""The API edge: malformed JSON is 400, unknown routes are JSON problems, never HTML."""

from flask.testing import FlaskClient


def test_malformed_json_gets_400_with_a_problem_body(client: FlaskClient) -> None:
    from dealer_assist.rules.games import GAMES

    game = next(iter(GAMES), "russian")
    resp = client.post(f"/api/v1/{game}/settle", data="{not json",
                       content_type="application/json")
    if game not in GAMES:
        assert resp.status_code == 404
    else:
        assert resp.status_code == 400
        assert resp.mimetype == "application/problem+json"
        assert resp.json["title"] == "Malformed JSON"


def test_an_unknown_api_route_is_a_json_404(client: FlaskClient) -> None:
    resp = client.get("/api/v1/no-such-thing")
    assert resp.status_code == 404
    assert resp.mimetype == "application/problem+json"
    assert resp.json["status"] == 404


def test_an_unknown_game_is_a_json_404_naming_it(client: FlaskClient) -> None:
    resp = client.post("/api/v1/blackjack/settle", json={})
    assert resp.status_code == 404
    assert "blackjack" in resp.json["detail"]
