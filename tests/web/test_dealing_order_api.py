"""The stateful rounds API plays seeded random rounds of all four house games in both orders
(all cards first; dealing order) and settles each exactly as the calculator, and no step it
offers before the reveal asks for a hidden card (cases: tests/rules/round_cases.py)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask import Flask

from dealer_assist.services.tables import tables
from tests.factories import make_table
from tests.rules.round_cases import GAME_PROFILES, Case, calculator, case, money, play
from tests.web.conftest import Browser, arrange, opening_form

#: per game and order, on both databases: 4 x 15 x 2 x 2 = 240 rounds through HTTP (the pure engine
#: plays 800 more in tests/rules/test_dealing_order.py)
SEEDS = range(15)
KEYS = itertools.count()


class Tables:
    """One table per profile, its maximum payout set to the case's before each round."""

    def __init__(self, app: Flask, browser: Browser) -> None:
        self.app, self.b, self.ids = app, browser, {}

    def ready(self, c: Case) -> int:
        if c.profile not in self.ids:
            view = arrange(self.app, make_table, name=c.profile[:30], game=c.game,
                           profile=c.profile)
            assert self.b.post(f"/tables/{view.id}/shifts",
                               opening_form(self.app)).status_code == 302
            self.ids[c.profile] = view.id
        tid = self.ids[c.profile]
        cap = c.body["table"]["max_payout"]

        def set_cap(session: Any) -> None:
            spec = tables.get_table(session, tid)
            tables.update_table(session, tid, tables.TableSpec(
                spec.name, spec.game, spec.profile, spec.min_ante, spec.max_ante, cap,
                spec.boxes))
        arrange(self.app, set_cap)
        return tid


def play_api(browser: Browser, tid: int, c: Case, order: str) -> dict[str, Any]:
    headers = {"X-CSRF-Token": browser.csrf()}

    def send(url: str, body: dict[str, Any]) -> dict[str, Any]:
        resp = browser.client.post(url, json=body,
                                   headers={**headers, "Idempotency-Key": f"k{next(KEYS)}"})
        assert resp.status_code == 201, (body, resp.get_json())
        answer: dict[str, Any] = resp.get_json()
        return answer

    boxes = [{k: b[k] for k in ("box", "ante", "bonus") if k in b} for b in c.body["boxes"]]
    first = send(f"/api/v1/tables/{tid}/rounds", {"boxes": boxes})
    rid = first["id"]
    last = [first]

    def post(type: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
        last[0] = send(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload})
        steps: list[dict[str, Any]] = last[0]["state"]["next_steps"]
        return steps

    play(c, order, post, first["state"]["next_steps"])
    paid = send(f"/api/v1/rounds/{rid}/events", {"type": "paid"})
    assert paid["status"] == "settled" and paid["stored_settlement"] == last[0]["settlement"]
    settlement: dict[str, Any] = paid["stored_settlement"]
    return settlement


@pytest.mark.parametrize("order", ["cards_first", "dealing_order"])
def test_seeded_rounds_of_all_four_games_through_the_api_settle_as_the_calculator(
        app: Flask, browser: Browser, croupier: Any, order: str) -> None:
    browser.login("carla")
    where = Tables(app, browser)
    played = 0
    for game in GAME_PROFILES:
        for seed in SEEDS:
            c = case(seed, game)
            got = play_api(browser, where.ready(c), c, order)
            assert money(got) == money(calculator(c)), (game, seed, c.body)
            played += 1
    assert played == 4 * len(SEEDS)
