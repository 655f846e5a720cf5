"""A new house game is one module: this test module alone registers "Toy stud" -- its own
profile class and profile, its own ``Game`` with one step of its own (a box tips the dealer),
its calculator and its ``GameSpec`` -- and nothing else in the project names it.

The game is then played as every house game is: a table of it is set up (the database admits
any registered game's name), a round is played and paid through the JSON API and through the
table screen (drawn from the round's own description: the toy step's label and input are the
engine's), the calculators list it in the OpenAPI document and settle its rounds, the shift
report sums its rounds, and the lab either refuses it by name (its spec names no lab engine) or
picks it up (its spec names the Caribbean stud engine it plays like).

The recipe this proves is docs/architecture.md's "Adding a house game".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from flask import Flask

from dealer_assist.lab import advice, house_edge
from dealer_assist.lab.games import NoLab
from dealer_assist.rules import inputs as ask
from dealer_assist.rules import profiles
from dealer_assist.rules.engine import Step, StepRule
from dealer_assist.rules.errors import StakeError
from dealer_assist.rules.fields import get_int, get_str
from dealer_assist.rules.games import registry
from dealer_assist.rules.games.stud import caribbean
from dealer_assist.rules.games.stud.calculator import round_from_request
from dealer_assist.rules.games.stud.caribbean import CaribbeanGame, CaribbeanProfile
from dealer_assist.rules.games.stud.deal import can_bet
from dealer_assist.rules.phrase import Phrase
from dealer_assist.services import reports
from dealer_assist.services.shifts import shifts
from tests.factories import make_table
from tests.web.conftest import Browser, arrange, opening_form

#: the tests with an app run it on SQLite (the game changes nothing the database sees)
SQLITE = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
TOY = "toy"


@dataclass(frozen=True, kw_only=True)
class ToyProfile(CaribbeanProfile):
    """Toy stud's house rules: Caribbean stud's, under the toy game's name."""

    GAMES: ClassVar[tuple[str, ...]] = (TOY,)
    game: str = TOY


TOY_CLASSIC = ToyProfile(name="toy-classic")


@dataclass(frozen=True, slots=True)
class Tip:
    """A box tips the dealer (the toy game's own step: it changes nothing that is settled)."""

    box: str
    amount: int


def verify_tip(state: Any, a: Tip) -> None:
    if a.amount < 1:
        raise StakeError("a tip is at least 1", field="amount", value=a.amount)


class ToyGame(CaribbeanGame):
    """Caribbean stud's steps and settlement, plus the tip."""

    name = TOY
    decoders: Mapping[str, Any] = {
        **CaribbeanGame.decoders,
        "tip": lambda s, p: (Tip(get_str(p, "box"), get_int(p, "amount")),)}
    table: Mapping[type[Any], StepRule[Any, Any]] = {
        **CaribbeanGame.table, Tip: StepRule(verify_tip, lambda state, a: state)}

    def encode_own(self, action: Any) -> dict[str, Any]:
        if isinstance(action, Tip):
            return {"box": action.box, "amount": action.amount}
        return super().encode_own(action)

    def box_steps(self, s: Any, b: Any) -> list[Step]:
        out = super().box_steps(s, b)
        if can_bet(s, b.box):
            out.append(Step("tip", b.box, "Tip the dealer", inputs=(
                ask.number("amount", "Amount", 1, None, quick=(5, 25)),)))
        return out


TOY_GAME = ToyGame()


def settle_request(body: Mapping[str, Any]) -> Any:
    """``POST /api/v1/toy/settle``: one complete round in, its settlement out."""
    return caribbean.settle(round_from_request(body, TOY_GAME, TOY_CLASSIC.name))


SPEC = registry.GameSpec(TOY, registry.STUD, Phrase("Toy stud"), TOY_CLASSIC.name, TOY_GAME,
                         settle_request, report=registry.HOUSE_REPORT)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Toy stud registered as the game modules register theirs, for this test only (taken back
    after): its spec, its profile and the profile class its stored rounds load with."""
    registry.games()  # the shipped games first, as in the running app
    monkeypatch.setitem(registry.GAMES, TOY, SPEC)
    monkeypatch.setitem(profiles._PROFILES, TOY_CLASSIC.name, TOY_CLASSIC)
    monkeypatch.setitem(profiles._CLASSES, TOY, ToyProfile)
    yield


@pytest.fixture
def dealer(toy: None, browser: Browser, app: Flask, croupier: Any) -> tuple[Browser, Any]:
    """A toy stud table with its shift open, the croupier signed in."""
    table = arrange(app, make_table, name="TOY 1", game=TOY, profile=TOY_CLASSIC.name)
    browser.login("carla")
    assert browser.post(f"/tables/{table.id}/shifts", opening_form(app)).status_code == 302
    return browser, table


def _api(browser: Browser, url: str, body: Any, key: str) -> Any:
    resp = browser.client.post(url, json=body, headers={"X-CSRF-Token": browser.csrf(),
                                                        "Idempotency-Key": key})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


STEPS: list[dict[str, Any]] = [
    {"type": "deal_box", "payload": {"box": "1", "cards": ["As", "Ad", "Ah", "2c", "3d"]}},
    {"type": "deal_dealer", "payload": {"cards": "kh qh 4s 5c 6d"}},
    {"type": "tip", "payload": {"box": "1", "amount": 25}},
    {"type": "bet", "payload": {"box": "1"}},
    {"type": "reveal", "payload": {}},  # no game: the betting box takes the ANTE (only choice)
]


@SQLITE
def test_a_toy_house_game_is_played_and_paid_through_the_api(dealer: tuple[Browser, Any],
                                                            app: Flask) -> None:
    browser, table = dealer
    rnd = _api(browser, f"/api/v1/tables/{table.id}/rounds",
               {"boxes": [{"box": "1", "ante": 100}]}, "start")
    for n, step in enumerate(STEPS):
        body = _api(browser, f"/api/v1/rounds/{rnd['id']}/events", step, f"s{n}")
        if step["type"] == "deal_dealer":  # the engine offers the toy step, described
            tip = next(s for s in body["state"]["next_steps"] if s["type"] == "tip")
            assert tip["inputs"][0]["name"] == "amount"
    assert body["settlement"]["game"] == TOY
    assert body["settlement"]["boxes"][0]["wagers"]["ante"]["net"] == 100
    paid = _api(browser, f"/api/v1/rounds/{rnd['id']}/events", {"type": "paid"}, "pay")
    assert paid["status"] == "settled"
    events = browser.client.get(f"/api/v1/rounds/{rnd['id']}").get_json()["events"]
    assert [e["type"] for e in events] == ["place", *(s["type"] for s in STEPS), "paid"]

    def shift_report(session: Any) -> dict[str, Any]:
        shift = shifts.open_shift_of(session, table.id)
        assert shift is not None
        return reports.build_shift_report(session, shift.id)

    report = arrange(app, shift_report)  # the report's house section sums the toy round
    assert report["total"]["house_win"] == -100
    assert report["total"]["wagered"] == 300


@SQLITE
def test_a_toy_house_game_is_drawn_and_recorded_on_the_table_screen(
        dealer: tuple[Browser, Any]) -> None:
    browser, table = dealer
    assert browser.get(f"/tables/{table.id}/live").status_code == 200
    headers = {"X-CSRF-Token": browser.csrf()}
    started = browser.post(f"/tables/{table.id}/live/rounds", {"key": "k0", "ante_1": "100"},
                           headers=headers)
    assert started.status_code == 201, started.get_data(as_text=True)
    rnd = started.get_json()["round"]

    def tap(type: str, payload: dict[str, Any], key: str) -> dict[str, Any]:
        resp = browser.client.post(f"/live/rounds/{rnd['id']}/steps", headers=headers,
                                   json={"type": type, "payload": payload,
                                         "idempotency_key": key,
                                         "expected_seq": rnd["last_seq"]})
        assert resp.status_code == 201, resp.get_json()
        out: dict[str, Any] = resp.get_json()["round"]
        return out

    rnd = tap("deal_dealer", {"up": ["8c"]}, "k1")
    tip = next(s for s in rnd["steps"] if s["type"] == "tip" and s["box"] == "1")
    assert tip["said"] == "Tip the dealer"  # the engine's label, said as given
    assert [(i["name"], i["said"], i["quick"]) for i in tip["inputs"]] == [
        ("amount", "Amount", [5, 25])]
    rnd = tap("tip", {"box": "1", "amount": 25}, "k2")
    rnd = tap("bet", {"box": "1"}, "k3")
    assert not any(s["type"] == "tip" for s in rnd["steps"])  # the round goes on as before


@SQLITE
def test_the_calculators_list_and_settle_the_toy_house_game(toy: None, client: Any) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    settle = document["paths"]["/api/v1/{game}/settle"]["post"]
    games = next(p for p in settle["parameters"] if p["name"] == "game")["schema"]["enum"]
    assert TOY in games and "caribbean" in games
    resp = client.post(f"/api/v1/{TOY}/settle", json={
        "dealer": {"cards": ["Ah", "Kd", "9c", "5s", "2h"]},
        "boxes": [{"box": "1", "ante": 100, "cards": ["7s", "7d", "4c", "4h", "Js"],
                   "decision": "bet"}]})
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json()["game"] == TOY and resp.get_json()["profile"] == TOY_CLASSIC.name


def test_the_lab_refuses_a_game_whose_spec_names_no_lab_engine_by_its_name(toy: None) -> None:
    with pytest.raises(NoLab, match="the lab has no figures for game 'toy'"):
        house_edge.compute(TOY_CLASSIC, rounds=1000)
    with pytest.raises(NoLab, match="game 'toy'"):
        advice.advise(TOY_CLASSIC, "deal", "as ad ah 2c 3d", up="8c")


def test_the_lab_picks_up_a_game_whose_spec_names_the_engine_it_plays_like(
        toy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, TOY, dataclasses.replace(SPEC, lab="stud"))
    got = advice.advise(TOY_CLASSIC, "deal", "as ad ah 2c 3d", up="8c")
    assert (got.game, got.best.action) == (TOY, "raise")
    assert house_edge.method(TOY_CLASSIC) == "exact"
