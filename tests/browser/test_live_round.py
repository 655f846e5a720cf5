"""Rounds played on the table screen in real Chromium, checked against the engine's own settle.

Each step is tapped as a croupier would (card grid, buttons); every screen is checked for no
horizontal scroll and touch targets of at least 44 px, and photographed.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.rules.games.flow import start
from tests.browser.conftest import Server, Shots, login
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.browser
MIN_TARGET = 44

TARGETS = ("#live button, #live a.button, #live .pick, "
           "#live input:not([type=hidden]):not([type=checkbox]):not([type=radio])")
LAYOUT = """([selector, least]) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.width < least || r.height < least)
      small.push((el.dataset.step || el.dataset.card || el.textContent.trim() || el.name)
                 + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return {scroll: document.documentElement.scrollWidth, inner: window.innerWidth, small};
}"""


class Table:
    """Drives the table screen and counts the croupier's taps."""

    def __init__(self, page: Any, shots: Shots) -> None:
        self.page, self.shots, self.taps = page, shots, 0

    def check(self, label: str) -> None:
        self.page.wait_for_load_state("load")
        layout = self.page.evaluate(LAYOUT, [TARGETS, MIN_TARGET])
        assert layout["scroll"] <= layout["inner"], f"{label}: horizontal scroll {layout}"
        assert not layout["small"], f"{label}: touch targets under {MIN_TARGET}px: {layout}"
        self.shots(label)

    def tap(self, selector: str, label: str | None = None) -> None:
        self.taps += 1
        self.page.click(selector)
        if label:
            self.page.wait_for_load_state("load")
            self.check(label)

    def type(self, selector: str, text: str) -> None:
        self.taps += 1 + len(text)  # focus, then one tap per character
        self.page.fill(selector, text)

    def cards(self, codes: str, label: str) -> None:
        """Tap the cards in the grid, check the field, record."""
        for code in codes.split():
            self.tap(f'.card-grid button[data-card="{code}"]')
        assert self.page.input_value("#cards").split() == codes.split()
        self.tap("form.entry button[type=submit]", label)

    def box(self, box: str, step: str, label: str) -> None:
        self.tap(f'article.box[data-box="{box}"] [data-step="{step}"]', label)

    def link(self, box: str, step: str, label: str) -> None:
        self.tap(f'article.box[data-box="{box}"] a[data-step-link="{step}"]', label)

    def phase(self) -> str:
        return str(self.page.inner_text("[data-phase]"))

    def error(self) -> str:
        return str(self.page.inner_text(".flash-error")) if self.page.query_selector(
            ".flash-error") else ""


def expected_settlement(game: str, profile: str, events: list[tuple[str, dict[str, Any]]]) -> Any:
    flow, state = start(game, profile, 10, 500, 50000)
    for type, payload in events:
        state = flow.step(state, type, payload)
    return flow.settle(state)


def assert_amounts_match(page: Any, settlement: Any) -> None:
    """Every box's total and every wager's PAY/TAKE/RETURN amount as the engine says."""
    labels = {"ante": "ANTE", "bet": "BET", "improvement_fee": "Improvement fee",
              "buy_game_fee": "Buy-game fee", "insurance": "Insurance", "bonus": "Bonus"}
    for box in settlement.boxes:
        card = page.locator(f'article.payout[data-box="{box.box}"]')
        assert int(card.get_attribute("data-net")) == box.net
        shown = {li.get_attribute("data-wager"): (li.get_attribute("data-action"),
                                                   int(li.get_attribute("data-amount")))
                 for li in card.locator("li.wager").all()}
        wanted = {}
        for name, w in box.wagers.items():
            if w.stake or w.net:
                action = "PAY" if w.net > 0 else "TAKE" if w.net < 0 else "RETURN"
                wanted[labels[name]] = (action, abs(w.net) if w.net else w.stake)
        assert shown == wanted, f"box {box.box}"


RUSSIAN = [
    ("place", {"boxes": [{"box": "1", "ante": 100, "bonus": 50}, {"box": "2", "ante": 100},
                         {"box": "3", "ante": 50}]}),
    ("deal_box", {"box": "1", "cards": "As Ad Ah 2c 3d"}),
    ("deal_box", {"box": "2", "cards": "7s 8s 9d Jc 2h"}),
    ("deal_box", {"box": "3", "cards": "Kc Qc 4h 6s 9h"}),
    ("deal_dealer", {"cards": "Kh Qh 4s 5c 6d"}),
    ("exchange", {"box": "2", "discard": ["2h"], "draw": "Td"}),
    ("sixth_card", {"box": "3", "card": "Jh"}),
    ("bet", {"box": "1"}), ("insure", {"box": "1", "amount": 100}),
    ("bet", {"box": "2"}), ("bet", {"box": "3"}), ("reveal", {}),
    ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}), ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": "6h"}),
]


def test_a_russian_round_with_exchange_sixth_card_insurance_and_a_bought_game(
        page: Any, server: Server, shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.check("bets")
    t.type('input[name="ante_1"]', "100")
    t.type('input[name="bonus_1"]', "50")
    t.type('input[name="ante_2"]', "100")
    t.type('input[name="ante_3"]', "50")
    t.tap('button[data-step="start"]', "started")
    for _, payload in RUSSIAN[1:4]:
        t.cards(payload["cards"], f"box-{payload['box']}-dealt")
    t.cards("Kh Qh 4s 5c 6d", "dealer-dealt")
    assert t.phase() == "Players decide"
    t.link("2", "exchange", "exchange-open")
    t.tap('label.pick:has(input[value="2h"])')
    t.cards("Td", "exchanged")
    page.reload()  # the tablet reloads mid-round: the round resumes from its stored events
    t.check("reloaded")
    assert t.phase() == "Players decide"
    assert "exchange" in page.inner_text('article.box[data-box="2"] .status').lower()
    t.link("3", "sixth_card", "sixth-open")
    t.cards("Jh", "sixth-card")
    t.box("1", "bet", "box-1-bet")
    t.link("1", "insure", "insure-open")
    t.type('input[name="amount"]', "100")
    t.tap("form.entry button[type=submit]", "insured")
    t.box("2", "bet", "box-2-bet")
    t.box("3", "bet", "box-3-bet")
    t.tap('button[data-step="reveal"]', "revealed")
    assert "NO GAME" in page.inner_text(".dealer")
    t.box("1", "buy_game", "box-1-buys")
    t.box("2", "take_ante", "box-2-takes")
    t.box("3", "take_ante", "box-3-takes")
    t.cards("6h", "dealer-drew")
    assert not t.error()
    assert t.phase() == "Pay out"
    assert_amounts_match(page, expected_settlement("russian", "russian-classic", RUSSIAN))
    t.tap('button[data-step="paid"]', "paid")
    assert "Round 1 paid" in page.inner_text("main")
    assert page.input_value('input[name="ante_1"]') == "100"  # next round: last bets offered
    (shots.dir / "taps.txt").write_text(f"{t.taps}\n")


OASIS = [
    ("place", {"boxes": [{"box": "1", "ante": 50}, {"box": "2", "ante": 20}]}),
    ("deal_box", {"box": "1", "cards": "As Kd 7h 4c 2s"}),
    ("deal_box", {"box": "2", "cards": "9c 9d 3s 3c Jh"}),
    ("deal_dealer", {"cards": "Qs Qd 5h 6h 8c"}),
    ("replace", {"box": "1", "discard": ["7h", "4c", "2s"], "draw": "Ad Kc 3h"}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}), ("reveal", {}),
]


@pytest.mark.parametrize("page", [(1280, 800)], indirect=True, ids=["1280x800"])
def test_an_oasis_round_with_a_replacement_and_a_fold(page: Any, server: Server,
                                                      shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['oasis']}/live")
    t.type('input[name="ante_1"]', "50")
    t.type('input[name="ante_2"]', "20")
    t.tap('button[data-step="start"]', "started")
    t.cards("As Kd 7h 4c 2s", "box-1-dealt")
    t.type("#cards", "9c 9d 3s 3c jh")  # typing works as well as the grid
    t.tap("form.entry button[type=submit]", "box-2-typed")
    t.cards("Qs Qd 5h 6h 8c", "dealer-dealt")
    t.tap('article.box[data-box="2"] a[data-step-link="replace"]', "replace-open")
    t.tap('a.button:has-text("Cancel")', "replace-cancelled")
    t.link("1", "replace", "replace-open-box-1")
    for code in ("7h", "4c", "2s"):
        t.tap(f'label.pick:has(input[value="{code}"])')
    t.cards("Ad Kc 3h", "replaced")
    t.box("1", "bet", "box-1-raises")
    t.box("2", "fold", "box-2-folds")
    t.tap('button[data-step="reveal"]', "revealed")
    assert t.phase() == "Pay out"
    assert_amounts_match(page, expected_settlement("oasis", "oasis-classic", OASIS))
    t.tap('button[data-step="paid"]', "paid")
    assert "Round 1 paid" in page.inner_text("main")


def test_an_illegal_card_is_refused_on_the_screen_and_the_round_is_unchanged(
        page: Any, server: Server, shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.type('input[name="ante_1"]', "100")
    t.tap('button[data-step="start"]', "started")
    t.cards("As Ad Ah 2c 3d", "box-1-dealt")
    t.type("#cards", "as kd qh jh th")  # the ace of spades is already on box 1
    t.tap("form.entry button[type=submit]", "refused")
    assert "As (card 1) is already on the table" in t.error()
    assert page.input_value("#cards") == "as kd qh jh th"  # kept for correction
    assert page.get_attribute('.card-grid button[data-card="As"]', "disabled") is not None
    t.tap('button[data-step="undo"]', "undone")
    assert "no cards" in page.inner_text('article.box[data-box="1"]')


def test_a_redeal_waits_for_a_pit_boss_and_the_table_moves_on_once_approved(
        page: Any, server: Server, shots: Shots, chromium: Any) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.type('input[name="ante_1"]', "100")
    t.type('input[name="ante_2"]', "50")
    t.tap('button[data-step="start"]', "started")
    for cards in ("As Ad Ah 2c 3d", "7s 8s 9d Jc 2h", "Kh Qh 4s 5c 6d"):
        t.cards(cards, "dealt")
    t.link("2", "redeal", "redeal-open")
    t.tap('button[data-fill="cards_received"][data-value="4"]')
    assert page.input_value('input[name="cards_received"]') == "4"
    t.tap('button[data-step="redeal"]', "void-requested")
    assert t.phase() == "Void requested — waiting for a pit boss"
    assert "redeal: box 2 received 4 cards" in page.inner_text(".void-wait")
    assert page.locator("#live [data-step], #live [data-step-link]").count() == 0
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "pavel", "pit_boss")
    boss = chromium.new_context(viewport={"width": 1024, "height": 768})
    try:
        pit = boss.new_page()
        pit.goto(f"{server.url}/login")
        pit.fill('input[name="username"]', "pavel")
        pit.fill('input[name="password"]', PASSWORD)
        pit.click('button[type="submit"]')
        pit.wait_for_url(f"{server.url}/")
        pit.goto(f"{server.url}/changes")
        pit.click('section.change button[value="yes"]')
        pit.wait_for_load_state("load")
        assert "was approved" in pit.inner_text("main")
    finally:
        boss.close()
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.check("after-approval")
    assert "Round 1 was voided." in page.inner_text("#live")
    assert page.input_value('input[name="ante_2"]') == "50"  # the same bets, ready to redeal
