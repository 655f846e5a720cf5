"""One tap, one request: rounds of the four house games on the table screen in real Chromium,
in English and Russian, landscape 1024x768 and portrait 768x1024.

Every tap that records a step sends exactly one request and draws the next screen from its
answer (no redirect, no second request, the page is never loaded again during the round); a tap
that only opens a step or takes a card sends none. At the showdown every box's PAY/TAKE/RETURN and
every wager's figure on the screen are the engine's own settlement of the same steps. The
croupier's path is also timed with the Performance API (tap to screen drawn) and the figures are
written beside the screenshots (never asserted: performance is measured, not tested).
"""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest

from dealer_assist.rules.games.registry import get_game
from tests.browser.conftest import Server, Shots, login
from tests.browser.test_floor_screens import no_clipped_words, speak
from tests.browser.test_live_round import Table, assert_amounts_match, expected_settlement

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                                ids=["1024x768", "768x1024"])
LANGS = pytest.mark.parametrize("lang", ["en", "ru"])


class Croupier(Table):
    """The table screen's driver that also counts the requests each tap sends."""

    def __init__(self, page: Any, shots: Shots, lang: str) -> None:
        super().__init__(page, shots)
        self.lang = lang
        self.sent: list[int] = []

    def records(self, selector: str, label: str | None = None) -> None:
        """A tap that records a step: exactly one request, answered and drawn."""
        before = len(self.requests)
        self.tap(selector)
        made = self.requests[before:]
        assert len(made) == 1 and made[0].startswith("POST "), (selector, made)
        assert not self.error(), (selector, self.error())
        self.sent.append(1)
        if label:
            self.look(label)

    def asks(self, selector: str) -> None:
        """A tap after which the engine says the step again knowing what was entered (the
        insurance's limit once the hand is in): one request, that records nothing."""
        before = len(self.requests)
        self.tap(selector)
        made = self.requests[before:]
        assert len(made) == 1 and made[0].startswith("POST ") and made[0].endswith("/refine"), (
            selector, made)

    def opens(self, selector: str) -> None:
        """A tap that opens a step's entry or takes a card: no request at all."""
        before = len(self.requests)
        self.tap(selector)
        assert self.requests[before:] == [], selector

    def box_tap(self, box: str, step: str, value: str | None = None,
                label: str | None = None) -> None:
        where = f'article.box[data-box="{box}"] [data-step="{step}"]'
        self.records(where + (f'[data-value="{value}"]' if value else ""), label)

    def look(self, label: str) -> None:
        self.check(label)
        no_clipped_words(self.page, label)

    def start(self, antes: dict[str, str]) -> None:
        for box, ante in antes.items():
            self.type(f'input[name="ante_{box}"]', ante)
        self.records('button[data-step="start"]', "started")

    def pay(self, settlement: Any) -> None:
        assert_amounts_match(self.page, settlement)
        self.look("showdown")
        self.records('button[data-step="paid"]', "paid")
        assert self.page.locator("[data-last-round-link]").count() == 1  # dispute it from here

    def loads_of_the_screen(self, table_id: int) -> int:
        return sum(1 for r in self.requests if r.startswith("GET ")
                   and r.endswith(f"/tables/{table_id}/live"))


def above_the_fold(page: Any, selector: str) -> None:
    """The control is on the first screen: no scrolling to reach it."""
    bottom = page.eval_on_selector(selector, "b => b.getBoundingClientRect().bottom")
    assert bottom <= page.viewport_size["height"], f"{selector} at {bottom}px: below the fold"


def events_of(game: str, events: list[tuple[str, dict[str, Any]]]) -> Any:
    return expected_settlement(game, get_game(game).default_profile, events)


RUSSIAN = [
    ("place", {"boxes": [{"box": "1", "ante": 100, "bonus": 50}, {"box": "2", "ante": 100},
                         {"box": "3", "ante": 50}]}),
    ("deal_dealer", {"up": []}),
    ("exchange", {"box": "2", "count": 1}), ("sixth_card", {"box": "3"}),
    ("bet", {"box": "1"}), ("insure", {"box": "1", "amount": 100, "cards": "As Ad Ah 2c 3d"}),
    ("bet", {"box": "2"}), ("bet", {"box": "3"}), ("reveal", {"cards": "Kh Qh 4s 5c 6d"}),
    ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}), ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": "6h"}),
]


def play_russian(t: Croupier) -> None:
    t.type('input[name="bonus_1"]', "50")
    t.start({"1": "100", "2": "100", "3": "50"})  # the deal (nothing face up) records itself
    assert t.page.locator(".card-grid").count() == 0  # no card before anyone has seen one
    t.box_tap("2", "exchange", "1", "exchanged")
    t.box_tap("3", "sixth_card")
    t.box_tap("1", "bet")
    t.opens('article.box[data-box="1"] [data-step="insure"]')
    t.type('.entry input[name="amount"]', "100")
    t.card_taps("As Ad Ah 2c", records=False)  # the player shows his hand to insure
    t.asks('.card-grid button[data-card="3d"]')  # the hand is in: its limit, from the engine
    assert "600" in t.page.inner_text(".entry label:has(input[name=amount])")  # 3 x BET 200
    t.records('.entry [data-record]', "insured")
    t.box_tap("2", "bet")
    t.box_tap("3", "bet")
    t.card_taps("Kh Qh 4s 5c 6d", "revealed")
    t.box_tap("1", "buy_game")
    t.box_tap("2", "take_ante")
    t.box_tap("3", "take_ante")
    t.card_taps("6h", "dealer-drew")  # one card, one tap: it records itself
    t.pay(events_of("russian", RUSSIAN))


OASIS = [
    ("place", {"boxes": [{"box": "1", "ante": 50}, {"box": "2", "ante": 20}]}),
    ("deal_dealer", {"up": ["8c"]}),
    ("replace", {"box": "1", "count": 2}), ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": "Qs Qd 5h 6h"}),
    ("show", {"box": "1", "cards": "As Ad Kc 3h 2s"}),
]


def play_oasis(t: Croupier) -> None:
    t.start({"1": "50", "2": "20"})
    t.card_taps("8c", "dealt-up-card")
    t.box_tap("1", "replace", "2", "replaced")  # one tap: how many, with its fee
    above_the_fold(t.page, 'article.box[data-box="2"] [data-step="fold"]')  # under COLLECT
    t.box_tap("1", "bet")
    t.box_tap("2", "fold")
    t.card_taps("Qs Qd 5h 6h", "revealed")
    t.card_taps("As Ad Kc 3h 2s", "box-1-shown")
    t.pay(events_of("oasis", OASIS))


SPLIT = [
    ("place", {"boxes": [{"box": "1", "ante": 50}, {"box": "2", "ante": 20}]}),
    ("deal_dealer", {"up": ["9c"]}),
    ("extra", {"box": "1", "mode": "bought"}),
    ("split", {"box": "1", "big": "As Kd 7h 4c 2s", "small": "Ad 7d"}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": "Qs Qd 5h 6h"}), ("dealer_small", {"cards": "3c 3d"}),
]


def play_split(t: Croupier) -> None:
    t.start({"1": "50", "2": "20"})
    t.card_taps("9c", "dealt-up-card")
    t.box_tap("1", "extra", "bought", "extra-bought")
    t.opens('article.box[data-box="1"] [data-step="split"]')
    t.card_taps("As Kd 7h 4c 2s Ad 7d", records=False)  # the Big Hand's five, then the Small's
    t.records('.entry [data-record]', "split")
    t.box_tap("1", "bet")
    t.box_tap("2", "fold")
    t.card_taps("Qs Qd 5h 6h", "revealed")
    t.card_taps("3c 3d", "dealer-small-hand")
    t.pay(events_of("split", SPLIT))


CARIBBEAN = [
    ("place", {"boxes": [{"box": "1", "ante": 50}, {"box": "2", "ante": 20}]}),
    ("deal_dealer", {"up": ["8c"]}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": "Qs Qd 5h 6h"}),
    ("show", {"box": "1", "cards": "As Ad Kc 3h 2s"}),
]


def play_caribbean(t: Croupier) -> None:
    t.start({"1": "50", "2": "20"})
    t.card_taps("8c", "dealt-up-card")
    t.box_tap("1", "bet")
    t.box_tap("2", "fold")
    t.card_taps("Qs Qd 5h 6h", "revealed")
    t.card_taps("As Ad Kc 3h 2s", "box-1-shown")
    t.pay(events_of("caribbean", CARIBBEAN))


PLAYS = {"russian": play_russian, "oasis": play_oasis, "split": play_split,
         "caribbean": play_caribbean}

#: tap -> screen drawn, from the Performance API marks the renderer sets ("tap", "drawn")
TIMES = """() => {
  const taps = performance.getEntriesByName('tap'), drawn = performance.getEntriesByName('drawn');
  return taps.map(t => { const d = drawn.find(x => x.startTime > t.startTime);
                         return d ? d.startTime - t.startTime : null; }).filter(x => x !== null);
}"""


@SIZES
@LANGS
@pytest.mark.parametrize("game", list(PLAYS))
def test_each_tap_of_a_house_round_is_one_request_and_the_screen_shows_the_engines_figures(
        page: Any, server: Server, shots: Shots, lang: str, game: str) -> None:
    login(page, server)
    speak(page, lang)
    table = server.tables[game]
    t = Croupier(page, shots, lang)
    page.goto(f"{server.url}/tables/{table}/live")
    t.requests.clear()
    PLAYS[game](t)
    assert t.loads_of_the_screen(table) == 0, "the page was loaded again during the round"
    times = page.evaluate(TIMES)
    (shots.dir / "taps.json").write_text(json.dumps({
        "requests": len(t.sent), "tap_to_drawn_ms": times,
        "median_ms": statistics.median(times) if times else None}, indent=1))
