"""Rounds played on the table screen in real Chromium, checked against the engine's own settle.

Each step is tapped as a croupier would (card grid, buttons), in dealing order: no box card before
the showdown, the dealer's hole cards only at the reveal, a folded box's cards never. Every screen
is checked for no horizontal scroll and touch targets of at least 44 px, and photographed; the
tap counts go to ``taps.txt`` beside the screenshots.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.rules.games.registry import start
from dealer_assist.rules.settlement import FEES, at_showdown
from tests.browser.conftest import LAYOUT, Server, Shots, login
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.browser
MIN_TARGET = 44

TARGETS = ("#live button, #live a.button, #live .pick, "
           "#live input:not([type=hidden]):not([type=checkbox]):not([type=radio])")



class Table:
    """Drives the table screen and counts the croupier's taps and the requests they make."""

    def __init__(self, page: Any, shots: Shots) -> None:
        self.page, self.shots, self.taps = page, shots, 0
        self.requests: list[str] = []
        # the croupier's own requests: not the page's files, the tablet's runtime or the
        # ping that tells the floor the tablet is there (every 3 s, whatever is tapped)
        page.on("request", lambda r: self.requests.append(r.method + " " + r.url)
                if not any(part in r.url for part in ("/static/", "/tablet/", "/sw.js",
                                                      "/live/ping")) else None)

    def check(self, label: str) -> None:
        self.page.wait_for_load_state("load")
        layout = self.page.evaluate(LAYOUT, [TARGETS, MIN_TARGET])
        assert layout["scroll"] <= layout["inner"], f"{label}: horizontal scroll {layout}"
        assert not layout["small"], f"{label}: touch targets under {MIN_TARGET}px: {layout}"
        self.shots(label)

    def tap(self, selector: str, label: str | None = None) -> None:
        self.taps += 1
        settle(self.page, lambda: self.page.click(selector))
        if label:
            self.check(label)

    def opens(self, selector: str) -> None:
        """A tap that opens a step's entry or takes a card (a driver may check it sends
        nothing)."""
        self.tap(selector)

    def records(self, selector: str, label: str | None = None) -> None:
        """A tap that records a step (a driver may check what it sent and drew)."""
        self.tap(selector, label)

    def card_taps(self, codes: str, label: str | None = None, records: bool = True) -> None:
        """Cards tapped on the grid; the last one records the step (an exact count)."""
        *first, last = codes.split()
        for code in first:
            self.opens(f'.card-grid button[data-card="{code}"]')
        if records:
            self.records(f'.card-grid button[data-card="{last}"]', label)
        else:
            self.opens(f'.card-grid button[data-card="{last}"]')

    def type(self, selector: str, text: str) -> None:
        self.taps += 1 + len(text)  # focus, then one tap per character
        settle(self.page, lambda: (self.page.fill(selector, text),
                                   self.page.dispatch_event(selector, "change")))

    def cards(self, codes: str, label: str, auto: bool = False) -> None:
        """Tap the cards in the grid, check the field, record (``auto``: the last tap
        records an exact count by itself)."""
        codes_ = codes.split()
        for code in codes_:
            self.tap(f'.card-grid button[data-card="{code}"]')
        if auto:
            self.check(label)
            return
        assert " ".join(i.input_value() for i in self.page.locator(".entry input[data-cards]").all()
                        ).split() == [face(c) for c in codes_]
        self.tap(".entry [data-record]", label)

    def box(self, box: str, step: str, label: str) -> None:
        self.tap(f'article.box[data-box="{box}"] [data-step="{step}"]', label)

    def link(self, box: str, step: str, label: str) -> None:
        self.box(box, step, label)

    def phase(self) -> str:
        return str(self.page.inner_text("[data-phase]"))

    def error(self) -> str:
        """The refusal on the screen: beside its field, else at the top."""
        for where in ("[data-error-for]", ".field-msg.error", ".flash-error"):
            if self.page.query_selector(where):
                return str(self.page.inner_text(where))
        return ""


def settle(page: Any, act: Any) -> None:
    """Do ``act`` (a tap) and wait for the request it sent, if any, to be answered and drawn."""
    act()
    page.wait_for_selector("body:not(.busy)", state="attached")


def face(code: str) -> str:
    """``Ts`` as the screen shows it: ``10♠``."""
    rank, suit = code[:-1].upper(), code[-1].lower()
    return ("10" if rank == "T" else rank) + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]


def expected_settlement(game: str, profile: str, events: list[tuple[str, dict[str, Any]]]) -> Any:
    engine, state = start(game, profile, 10, 500, 50000)
    for type, payload in events:
        state = engine.step(state, type, payload)
    return engine.settle(state)


def assert_amounts_match(page: Any, settlement: Any) -> None:
    """Every box's headline (what moves at the showdown: the wagers, the fees having been
    collected at the tap) and every wager's PAY/TAKE/RETURN/COLLECTED as the engine says."""
    labels = {"ante": "ANTE", "bet": "BET", "improvement_fee": "Improvement fee",
              "buy_game_fee": "Buy-game fee", "insurance": "Insurance", "bonus": "Bonus"}
    for box in settlement.boxes:
        card = page.locator(f'article.payout[data-box="{box.box}"]')
        assert int(card.get_attribute("data-net")) == at_showdown(box.to_dict())
        shown = {li.get_attribute("data-wager"): (li.get_attribute("data-action"),
                                                   int(li.get_attribute("data-amount")))
                 for li in card.locator("li.wager").all()}
        wanted = {}
        for name, w in box.wagers.items():
            if name in FEES and w.stake:
                wanted[labels[name]] = ("COLLECTED", w.stake)
            elif w.stake or w.net:
                action = "PAY" if w.net > 0 else "TAKE" if w.net < 0 else "RETURN"
                wanted[labels[name]] = (action, abs(w.net) if w.net else w.stake)
        assert shown == wanted, f"box {box.box}"


PORTRAIT = pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                                   ids=["1024x768", "768x1024"])


def assert_box_paid(page: Any, settlement: Any, box: str) -> None:
    """At the showdown a box's PAY/TAKE/RETURN is on the screen as soon as its hand is in."""
    card = page.locator(f'article.payout[data-box="{box}"]')
    net = next(at_showdown(b.to_dict()) for b in settlement.boxes if b.box == box)
    assert card.count() == 1 and int(card.get_attribute("data-net")) == net


def assert_no_card_entry(page: Any) -> None:
    """Before the reveal nothing on the screen asks for a card nobody has seen."""
    assert page.locator(".card-grid").count() == 0, "a card grid before the reveal"


#: round 2 of a 3-box table, bets carried over: 1 and 2 bet, 3 folds, the dealer has a game
PLAIN = [
    ("place", {"boxes": [{"box": "1", "ante": 100}, {"box": "2", "ante": 100},
                         {"box": "3", "ante": 50}]}),
    ("deal_dealer", {"up": []}),
    ("bet", {"box": "1"}), ("bet", {"box": "2"}), ("fold", {"box": "3"}),
    ("reveal", {"cards": "Kh Kd 4s 5c 6d"}),
    ("show", {"box": "1", "cards": "Qs Qd Qh 2c 2d"}),
    ("show", {"box": "2", "cards": "7s 8s 9d Jc 2h"}),
]


def play_plain(t: Table, page: Any) -> None:
    t.tap('button[data-step="start"]', "started")
    assert t.phase() == "Players decide"
    assert_no_card_entry(page)
    t.box("1", "bet", "box-1-bet")
    t.box("2", "bet", "box-2-bet")
    t.box("3", "fold", "box-3-folds")
    assert "Reveal" in t.phase()
    t.cards("Kh Kd 4s 5c 6d", "revealed", auto=True)
    settlement = expected_settlement("russian", "russian-classic", PLAIN)
    assert "Box 1" in page.inner_text(".entry h2")  # the showdown, box by box
    assert_box_paid(page, settlement, "3")  # the fold is settled at once, its cards never asked
    assert page.locator('.entry[data-box="3"]').count() == 0
    t.cards("Qs Qd Qh 2c 2d", "box-1-shown", auto=True)
    assert_box_paid(page, settlement, "1")
    assert page.locator('button[data-step="paid"]').count() == 0  # box 2 still to show
    t.cards("7s 8s 9d Jc 2h", "box-2-shown", auto=True)
    assert t.phase() == "Pay out"
    assert_amounts_match(page, settlement)
    t.tap('button[data-step="paid"]', "paid")


#: the README's sentence whose number this test measures
README_TAPS = re.compile(r"A\s+plain\s+3-box\s+round\s+with\s+the\s+bets\s+carried\s+over\s+"
                         r"\(two\s+boxes\s+bet,\s+one\s+folds\)\s+takes\s+(\d+)\s+taps")


def readme_taps() -> int:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    found = README_TAPS.search(readme)
    assert found, "the README no longer states the plain round's taps"
    return int(found.group(1))


@PORTRAIT
def test_a_plain_russian_round_in_dealing_order_with_bets_carried_over_takes_the_readmes_taps(
        page: Any, server: Server, shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    for box, ante in (("1", "100"), ("2", "100"), ("3", "50")):
        t.type(f'input[name="ante_{box}"]', ante)
    play_plain(t, page)  # round 1 types the bets; round 2 repeats them
    assert "Round 1 paid" in page.inner_text("main")
    t.check("bets-carried-over")
    t.taps = 0
    play_plain(t, page)
    assert "Round 2 paid" in page.inner_text("main")
    assert t.taps == readme_taps(), t.taps  # the number the README states is this one
    (shots.dir / "taps.txt").write_text(f"plain 3-box Russian round, bets carried over: "
                                        f"{t.taps}\n")


RUSSIAN = [
    ("place", {"boxes": [{"box": "1", "ante": 100, "bonus": 50}, {"box": "2", "ante": 100},
                         {"box": "3", "ante": 50}]}),
    ("deal_dealer", {"up": []}),
    ("exchange", {"box": "2", "count": 1}),
    ("sixth_card", {"box": "3"}),
    ("bet", {"box": "1"}), ("insure", {"box": "1", "amount": 100, "cards": "As Ad Ah 2c 3d"}),
    ("bet", {"box": "2"}), ("bet", {"box": "3"}), ("reveal", {"cards": "Kh Qh 4s 5c 6d"}),
    ("buy_game", {"box": "1"}), ("take_ante", {"box": "2"}), ("take_ante", {"box": "3"}),
    ("dealer_draw", {"cards": "6h"}),
    ("show", {"box": "1", "cards": "As Ad Ah 2c 3d"}),
]


@PORTRAIT
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
    typed = t.taps
    t.tap('button[data-step="start"]', "started")
    assert t.phase() == "Players decide"
    assert_no_card_entry(page)
    t.tap('article.box[data-box="2"] button[data-step="exchange"][data-value="1"]', "exchanged")
    page.reload()  # the tablet reloads mid-round: the round resumes from its stored events
    t.check("reloaded")
    assert "exchange" in page.inner_text('article.box[data-box="2"] .status').lower()
    assert_no_card_entry(page)
    t.box("3", "sixth_card", "sixth-card")
    t.box("1", "bet", "box-1-bet")
    t.link("1", "insure", "insure-open")
    t.type('input[name="amount"]', "100")
    t.cards("As Ad Ah 2c 3d", "insured")  # the player shows his three aces to insure
    t.box("2", "bet", "box-2-bet")
    t.box("3", "bet", "box-3-bet")
    t.cards("Kh Qh 4s 5c 6d", "revealed", auto=True)
    assert "NO GAME" in page.inner_text(".dealer")
    t.box("1", "buy_game", "box-1-buys")
    t.box("2", "take_ante", "box-2-takes")
    t.box("3", "take_ante", "box-3-takes")
    t.cards("6h", "dealer-drew", auto=True)  # one card, one tap: it records itself
    assert not t.error()
    assert t.phase() == "Pay out"  # box 1's hand is known (shown to insure): nothing to show
    events = [e for e in RUSSIAN if e[0] != "show"]
    assert_amounts_match(page, expected_settlement("russian", "russian-classic", events))
    t.tap('button[data-step="paid"]', "paid")
    assert "Round 1 paid" in page.inner_text("main")
    assert page.input_value('input[name="ante_1"]') == "100"  # next round: last bets offered
    (shots.dir / "taps.txt").write_text(
        f"Russian round with exchange, sixth card, insurance, bought game: {t.taps} taps, "
        f"{typed} of them typing the stakes\n")


CARIBBEAN = [
    ("place", {"boxes": [{"box": "1", "ante": 50}, {"box": "2", "ante": 20}]}),
    ("deal_dealer", {"up": ["8c"]}),
    ("bet", {"box": "1"}), ("fold", {"box": "2"}),
    ("reveal", {"cards": "Qs Qd 5h 6h"}),
    ("show", {"box": "1", "cards": "As Ad Kc 3h 2s"}),
]


@PORTRAIT
def test_a_caribbean_round_in_dealing_order(page: Any, server: Server, shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['caribbean']}/live")
    t.type('input[name="ante_1"]', "50")
    t.type('input[name="ante_2"]', "20")
    t.tap('button[data-step="start"]', "started")
    assert "face-up" in page.inner_text(".entry h2")
    t.cards("8c", "dealt-up-card", auto=True)  # the dealer's face-up card: the only card now
    assert_no_card_entry(page)
    t.box("1", "bet", "box-1-raises")
    t.box("2", "fold", "box-2-folds")
    t.cards("Qs Qd 5h 6h", "revealed", auto=True)
    settlement = expected_settlement("caribbean", "caribbean-classic", CARIBBEAN)
    assert_box_paid(page, settlement, "2")
    t.cards("As Ad Kc 3h 2s", "box-1-shown", auto=True)
    assert t.phase() == "Pay out"
    assert_amounts_match(page, settlement)
    t.tap('button[data-step="paid"]', "paid")
    assert "Round 1 paid" in page.inner_text("main")


def test_an_illegal_card_is_refused_on_the_screen_and_the_round_is_unchanged(
        page: Any, server: Server, shots: Shots) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['caribbean']}/live")
    t.type('input[name="ante_1"]', "100")
    t.tap('button[data-step="start"]', "started")
    t.cards("As", "dealt-up-card", auto=True)
    t.box("1", "bet", "box-1-raises")
    for code in ("Ks", "Kd", "Qh"):
        t.tap(f'.card-grid button[data-card="{code}"]')
    # the ace of spades is the dealer's face-up card: the grid does not offer it
    assert page.get_attribute('.card-grid button[data-card="As"]', "disabled") is not None
    t.type(".entry input[data-cards]", "ks kd qh as")  # typed anyway: the 4th records it
    t.check("refused")
    assert "As (card 4) is already" in t.error()
    assert page.input_value(".entry input[data-cards]") == "K♠ K♦ Q♥ A♠"  # kept for correction
    assert page.get_attribute('.card-grid button[data-card="As"]', "disabled") is not None
    t.tap('button[data-step="undo"]', "undone")
    assert "Players decide" in t.phase()


def test_a_redeal_waits_for_a_pit_boss_and_the_table_moves_on_once_approved(
        page: Any, server: Server, shots: Shots, chromium: Any) -> None:
    login(page, server)
    t = Table(page, shots)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.type('input[name="ante_1"]', "100")
    t.type('input[name="ante_2"]', "50")
    t.tap('button[data-step="start"]', "started")
    t.link("2", "redeal", "redeal-open")
    t.tap('button[data-fill="cards_received"][data-value="4"]')
    assert page.input_value('input[name="cards_received"]') == "4"
    t.tap('button[data-step="redeal"]', "void-requested")
    assert t.phase() == "Void requested — waiting for a pit boss"
    assert "redeal: box 2 received 4 cards" in page.inner_text(".void-wait")
    assert page.locator("#live [data-step]:visible").count() == 0
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
