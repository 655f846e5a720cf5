"""An Oasis round's history showed its "Deal dealer" step without the card
dealt face up (the step's payload is ``{"up": [card]}`` in dealing order)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.factories import make_table, make_user
from tests.web.conftest import Browser, arrange, opening_form
from tests.web.test_live_api import Api


@pytest.fixture
def oasis(app: Flask, croupier: Any) -> Any:
    arrange(app, make_user, "pavel", "pit_boss")
    return arrange(app, make_table, name="OA 1", game="oasis")


def test_the_deal_dealer_step_of_an_oasis_round_shows_the_up_card(
        app: Flask, browser: Browser, oasis: Any) -> None:
    browser.login("carla")
    assert browser.post(f"/tables/{oasis.id}/shifts", opening_form(app)).status_code == 302
    api = Api(browser)
    rid = api.post(f"/api/v1/tables/{oasis.id}/rounds", {"boxes": [{"box": "1", "ante": 100}]},
                   key="start").get_json()["id"]
    for n, (type, payload) in enumerate((("deal_dealer", {"up": ["Kh"]}),
                                         ("fold", {"box": "1"}))):
        resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                        key=f"s{n}")
        assert resp.status_code == 201, resp.get_json()
    page = browser.get(f"/rounds/{rid}").get_data(as_text=True)
    step = re.search(r'<li class="" data-seq="2">(.*?)</li>', page, re.S)
    assert step is not None, page
    assert "Deal dealer" in step.group(1) and 'title="Kh"' in step.group(1)
    assert "face up" in step.group(1)


def test_an_oasis_bet_won_is_said_to_be_the_bet_paid_not_a_raise(
        app: Flask, browser: Browser, oasis: Any) -> None:
    """Oasis showed "BET ... raise paid 7:1": the wager is the BET. The
    engine's stored English stays as stored (the replay invariant); the page says "BET paid",
    for a stored settlement too."""
    browser.login("carla")
    assert browser.post(f"/tables/{oasis.id}/shifts", opening_form(app)).status_code == 302
    api = Api(browser)
    rid = api.post(f"/api/v1/tables/{oasis.id}/rounds", {"boxes": [{"box": "1", "ante": 100}]},
                   key="start").get_json()["id"]
    for n, (type, payload) in enumerate((
            ("deal_dealer", {"up": ["Kh"]}), ("bet", {"box": "1"}),
            ("reveal", {"cards": ["Kd", "4s", "5c", "6d"]}),
            ("show", {"box": "1", "cards": ["As", "Ad", "Ah", "9c", "9d"]}), ("paid", {}))):
        resp = api.post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                        key=f"s{n}")
        assert resp.status_code == 201, resp.get_json()
    stored = resp.get_json()["stored_settlement"]["boxes"][0]["wagers"]["bet"]["explanation"]
    assert stored.endswith(": raise paid 7:1")  # the record is unchanged
    page = browser.get(f"/rounds/{rid}").get_data(as_text=True)
    assert "BET paid 7:1" in page and "raise paid" not in page
    browser.post("/language", {"language": "ru", "next": f"/rounds/{rid}"})
    assert "БЕТ оплачен 7:1" in browser.get(f"/rounds/{rid}").get_data(as_text=True)
