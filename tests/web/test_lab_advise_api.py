"""``POST /api/v1/lab/advise``: staff only, every option ranked, errors as problems."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Browser


def _post(b: Browser, body: Any) -> Any:
    return b.client.post("/api/v1/lab/advise", json=body,
                         headers={"X-CSRF-Token": b.csrf()})


def test_a_signed_in_croupier_gets_every_option_ranked(browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    resp = _post(browser, {"profile": "oasis-one-card", "cards": ["9s", "8s", "7s", "4s", "2h"],
                           "up": "Kc", "ante": 100})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["stage"] == "deal" and body["unit"] == "ANTE"
    actions = [(o["action"], o["cards"]) for o in body["options"]]
    assert ("fold", []) in actions and ("raise", []) in actions
    assert len(actions) == 2 + 5  # one-card replacements only under oasis-one-card
    evs = [o["ev"] for o in body["options"]]
    assert evs == sorted(evs, reverse=True) and body["best"] == body["options"][0]
    assert (body["best"]["action"], body["best"]["cards"]) == ("replace", ["2h"])
    assert body["best"]["ev_chips"] == round(body["best"]["ev"] * 100, 2)


def test_anonymous_callers_are_refused(client: Any) -> None:
    resp = client.post("/api/v1/lab/advise", json={"profile": "oasis-classic"})
    assert resp.status_code in (401, 403)
    assert resp.mimetype == "application/problem+json"


def test_bad_cards_a_duplicate_and_an_uncovered_game_are_422(browser: Browser,
                                                             croupier: Any) -> None:
    browser.login("carla")
    for body, field in (
            ({"profile": "oasis-classic", "cards": ["As", "Zz"], "up": "Kc"}, None),
            ({"profile": "oasis-classic", "cards": "As Kd 7h 4c 2s".split(), "up": "As"}, None),
            ({"profile": "russian-classic", "cards": "As Kd 7h 4c 2s".split(),
              "stage": "nonsense"}, "stage"),
            ({"profile": "americana-limit", "cards": "As Kd 7h 4c 2s".split()}, "profile"),
            ({"profile": "oasis-classic", "cards": "As Kd 7h 4c 2s".split(), "up": "Kc",
              "precise": 10**6}, "precise")):
        resp = _post(browser, body)
        assert resp.status_code == 422, (body, resp.get_json())
        problem = resp.get_json()
        assert problem["status"] == 422 and problem["detail"]
        if field:
            assert problem["field"] == field
    assert browser.client.post("/api/v1/lab/advise", data="{", headers={
        "X-CSRF-Token": browser.csrf(), "Content-Type": "application/json"}).status_code == 400


def test_a_no_game_decision_with_too_few_cards_is_a_422_naming_the_field(
        browser: Browser, croupier: Any) -> None:
    """Never a 500, whatever the bytes: a no-game decision needs the box's final hand (five or
    six cards in Russian poker, the Big hand's five at Big/Small) and the dealer's five."""
    browser.login("carla")
    hand, dealer = ["As", "Kd", "7h", "4c", "2s"], ["Qh", "Jd", "9c", "5s", "3h"]
    for profile in ("russian-classic", "split-classic"):
        for cards, dealt, field in (([], dealer, "cards"), (["As"], dealer, "cards"),
                                    (hand, [], "dealer"), (hand, ["Qh"], "dealer")):
            resp = _post(browser, {"profile": profile, "stage": "no_game", "cards": cards,
                                   "dealer": dealt})
            assert resp.status_code == 422, (profile, cards, dealt, resp.get_json())
            assert resp.get_json()["field"] == field
        resp = _post(browser, {"profile": profile, "stage": "no_game", "cards": hand,
                               "dealer": dealer})
        assert resp.status_code == 200, resp.get_json()
