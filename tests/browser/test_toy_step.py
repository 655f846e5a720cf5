"""A new step type needs no screen code: a toy step added by this module alone (a test-only
profile of Caribbean stud whose boxes may tip the dealer, with an amount typed) is drawn by the
table screen's one renderer from the engine's description and recorded through the one record
path, with no change to any template, view or script.

Nothing here touches ``templates/``, ``dealer_assist/web`` or ``static/``: the step, its input
and its label are the engine's (``Step.inputs``); the screen only draws what it is told.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import Round, RoundEvent, User
from dealer_assist.rules import inputs as ask
from dealer_assist.rules import profiles
from dealer_assist.rules.engine import Step, StepRule
from dealer_assist.rules.errors import StakeError
from dealer_assist.rules.fields import get_int, get_str
from dealer_assist.rules.games import registry
from dealer_assist.rules.games.stud.caribbean import CaribbeanGame, CaribbeanProfile
from dealer_assist.rules.games.stud.deal import can_bet
from dealer_assist.services.shifts import shifts
from tests.browser.conftest import Server, Shots, login
from tests.browser.test_one_tap import Croupier
from tests.factories import make_table

pytestmark = pytest.mark.browser
TOY = "caribbean-toy"


@dataclass(frozen=True, slots=True)
class Tip:
    """A box tips the dealer (a toy step: it changes nothing that is settled)."""

    box: str
    amount: int


def verify_tip(state: Any, a: Tip) -> None:
    if a.amount < 1:
        raise StakeError("a tip is at least 1", field="amount", value=a.amount)


class ToyGame(CaribbeanGame):
    """Caribbean stud plus the toy step, offered under the toy profile only."""

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
        if s.profile.name == TOY and can_bet(s, b.box):
            out.append(Step("tip", b.box, "Tip the dealer", inputs=(
                ask.number("amount", "Amount", 1, None, quick=(5, 25)),)))
        return out


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy profile and game, registered for this test only (both taken back after)."""
    monkeypatch.setitem(profiles._PROFILES, TOY, CaribbeanProfile(name=TOY, game="caribbean"))
    spec = registry.get_game("caribbean")
    monkeypatch.setitem(registry.GAMES, "caribbean", dataclasses.replace(spec, engine=ToyGame()))
    yield


def test_a_toy_step_is_drawn_and_recorded_with_no_screen_code(toy: None, page: Any,
                                                              server: Server,
                                                              shots: Shots) -> None:
    with db.session_scope(server.app) as dbs:
        owner = dbs.exec(select(User).where(User.username == "carla")).one()
        table = make_table(dbs, name="TOY 1", game="caribbean", profile=TOY, boxes=3)
        shifts.open_shift(dbs, table_id=table.id, user_id=owner.id)
    login(page, server)
    t = Croupier(page, shots, "en")
    page.goto(f"{server.url}/tables/{table.id}/live")
    t.start({"1": "50"})
    t.card_taps("8c", "dealt-up-card")
    tip = page.locator('article.box[data-box="1"] [data-step="tip"]')
    assert tip.inner_text() == "Tip the dealer"  # the engine's label, drawn as given
    t.opens('article.box[data-box="1"] [data-step="tip"]')
    assert page.inner_text(".entry h2") == "Box 1: Tip the dealer"
    t.opens('.entry button[data-fill="amount"][data-value="25"]')  # its quick value
    t.records(".entry [data-record]", "tipped")
    with db.session_scope(server.app, write=False) as dbs:
        rnd = dbs.exec(select(Round).where(Round.table_id == table.id)).one()
        events = dbs.exec(select(RoundEvent).where(RoundEvent.round_id == rnd.id)
                          .order_by(RoundEvent.seq)).all()  # type: ignore[arg-type]
    assert [(e.type, json.loads(e.payload)) for e in events][-1] == (
        "tip", {"box": "1", "amount": 25})
    t.box_tap("1", "bet", label="box-1-bets")  # the round goes on as before
    assert page.locator('article.box[data-box="1"] [data-step="tip"]').count() == 0
