"""On the table screen in real Chromium, portrait 768x1024 and landscape 1024x768:
card entry laid out for a tablet (defect 5), Big/Small extra cards and the split suggestion
(6), the free second replacement (7), a refused insurance (8, 9), Caribbean's no game (10).

Every screen passes the shared ``LAYOUT`` probe and is photographed into
``test-artifacts/browser/<test name>/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import Server, Shots, login
from tests.browser.test_live_round import PORTRAIT, Table

pytestmark = pytest.mark.browser

#: where an element is on the page: left, top, right, bottom, and its text's own width
BOX = """(el) => { const r = el.getBoundingClientRect();
  return {l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width,
          clipped: el.scrollWidth > el.clientWidth + 1}; }"""


def rect(page: Any, selector: str) -> dict[str, Any]:
    return dict(page.eval_on_selector(selector, BOX))


def assert_card_entry_fits(page: Any) -> None:
    """Defect 5: the grid below or beside the heading, never over it; the text field uses the
    panel's width; the buttons' words are whole; nothing overlaps the field."""
    side, head = rect(page, ".entry .entry-side"), rect(page, ".entry h2")
    field, grid = rect(page, ".entry input[data-cards]"), rect(page, ".card-grid")
    assert grid["t"] >= head["b"] or grid["l"] >= head["r"], (head, grid)
    assert grid["t"] >= field["b"] or grid["l"] >= field["r"], (field, grid)
    assert field["w"] >= 0.9 * side["w"] and field["w"] >= 240, (field, side)
    for button in page.locator(".entry .actions button").all():
        box = dict(button.evaluate(BOX))
        assert not box["clipped"] and box["w"] >= 80, box


def start_russian(t: Table, page: Any, server: Server, **antes: str) -> None:
    login(page, server)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    for box, ante in antes.items():
        t.type(f'input[name="ante_{box[-1]}"]', ante)
    t.tap('button[data-step="start"]', "started")


@PORTRAIT
def test_every_card_entry_is_laid_out_for_the_tablet(page: Any, server: Server,
                                                     shots: Shots) -> None:
    """Defect 5: insurance (the player shows his hand), the reveal and the showdown."""
    t = Table(page, shots)
    start_russian(t, page, server, box1="100", box2="100")
    t.box("1", "bet", "box-1-bet")
    t.link("1", "insure", "insure-open")
    assert_card_entry_fits(page)
    t.tap(".entry [data-cancel]")
    t.box("2", "bet", "box-2-bet")
    assert_card_entry_fits(page)  # the reveal
    t.cards("Ah Kh 4s 5c 6d", "revealed", auto=True)
    assert_card_entry_fits(page)  # the showdown, box 1
    t.check("showdown")


@PORTRAIT
def test_a_refused_insurance_keeps_its_form_value_and_message_until_the_value_changes(
        page: Any, server: Server, shots: Shots) -> None:
    t = Table(page, shots)
    start_russian(t, page, server, box1="100", box2="50")
    t.box("1", "bet", "box-1-bet")
    t.link("1", "insure", "insure-open")
    assert_card_entry_fits(page)
    t.type('input[name="amount"]', "5")
    t.cards("As Ad Ah 2c 3d", "insurance-refused")
    assert page.url.endswith(f"/tables/{server.tables['russian']}/live")  # never .../steps
    assert page.input_value(".entry input[data-cards]") == "A♠ A♦ A♥ 2♣ 3♦"  # kept too
    assert page.input_value('input[name="amount"]') == "5"
    assert page.get_attribute('input[name="amount"]', "aria-invalid") == "true"
    message = page.inner_text('[data-error-for="amount"]')
    assert message.startswith("Box 1 · Insure: insurance must be from the table minimum 10")
    assert_card_entry_fits(page)
    page.reload()  # a reload is a GET: nothing is sent again, the refusal is not shown again
    assert len(page.locator('[data-error-for="amount"]').all()) == 0
    t.link("1", "insure", "insure-again")
    t.type('input[name="amount"]', "5")
    t.cards("As Ad Ah 2c 3d", "refused-again")
    t.type('input[name="amount"]', "100")
    assert page.locator('[data-error-for="amount"]').count() == 0  # stale: gone
    assert page.get_attribute('input[name="amount"]', "aria-invalid") is None
    t.check("corrected")
    t.tap(".entry [data-record]", "insured")
    assert "insurance 100" in page.inner_text('article.box[data-box="1"] h2')


@PORTRAIT
def test_the_dealer_draw_takes_one_card_and_a_second_only_when_it_is_free(
        page: Any, server: Server, shots: Shots) -> None:
    t = Table(page, shots)
    start_russian(t, page, server, box1="100")
    t.box("1", "bet", "box-1-bet")
    t.cards("Kh Qh 4s 5c 6d", "revealed", auto=True)
    t.box("1", "buy_game", "box-1-buys")
    assert page.inner_text("[data-count]") == "0 / 1"
    assert_card_entry_fits(page)
    # the king for the king, still no game: refused (nothing stored), a second card asked for
    t.tap('.card-grid button[data-card="Ks"]', "second-card-asked")
    assert page.inner_text("[data-count]") == "1 / 2"
    assert "free second card" in page.inner_text(".entry")
    assert page.locator(".entry .field-msg.note").count() == 1  # said as a note, not an error
    assert page.get_attribute(".entry input[data-cards]", "aria-invalid") is None
    t.tap('.card-grid button[data-card="9c"]', "drew-two")
    assert t.phase() == "Pay out"
    assert page.locator(".dealer [data-bought]").count() == 1


@PORTRAIT
def test_caribbean_no_game_is_paid_without_a_tap(page: Any, server: Server,
                                                 shots: Shots) -> None:
    t = Table(page, shots)
    login(page, server)
    page.goto(f"{server.url}/tables/{server.tables['caribbean']}/live")
    t.type('input[name="ante_1"]', "500")
    t.type('input[name="ante_2"]', "20")
    t.tap('button[data-step="start"]', "started")
    t.cards("8c", "dealt-up-card", auto=True)
    assert "Bet 1,000" in page.inner_text('article.box[data-box="1"]')
    t.box("1", "bet", "box-1-bets")
    t.box("2", "bet", "box-2-bets")
    assert_card_entry_fits(page)
    t.cards("2s 3d 9h Jc", "no-game", auto=True)
    assert t.phase() == "Pay out"
    main = page.inner_text("#live")
    assert "buy a game" not in main and "Take ANTE" not in main
    assert page.inner_text('article.payout[data-box="1"] .net') == "PAY 500"
    assert "RETURN 1,000" in page.inner_text('article.payout[data-box="1"]')


@PORTRAIT
def test_big_small_bought_extra_cards_and_the_suggested_split(page: Any, server: Server,
                                                              shots: Shots) -> None:
    t = Table(page, shots)
    login(page, server)
    page.goto(f"{server.url}/tables/{server.tables['split']}/live")
    t.type('input[name="ante_1"]', "50")
    t.tap('button[data-step="start"]', "started")
    t.cards("9c", "dealt-up-card", auto=True)
    t.tap('article.box[data-box="1"] button[data-step="extra"][data-value="bought"]',
          "extra-bought")
    t.link("1", "split", "split-open")
    assert_card_entry_fits(page)
    for code in "As Kd 7h 4c 2s Ad 7d".split():
        t.tap(f'.card-grid button[data-card="{code}"]')
    t.tap("button[data-suggest]", "suggested")
    assert "Suggested: Big Two pairs, aces and sevens" in page.inner_text(".entry")
    assert sorted(page.input_value('.entry input[data-cards="small"]').split()) == ["4♣", "K♦"]
    t.tap('.entry [data-record]', "split")
    box = page.inner_text('article.box[data-box="1"]')
    assert "K♦" in box and "4♣" in box and "A♦" in box  # the seven cards on the box


@PORTRAIT
def test_a_refused_ante_is_named_by_box_and_field_beside_its_input(page: Any, server: Server,
                                                                   shots: Shots) -> None:
    t = Table(page, shots)
    login(page, server)
    page.goto(f"{server.url}/tables/{server.tables['russian']}/live")
    t.type('input[name="ante_1"]', "100")
    t.type('input[name="ante_2"]', "5")
    t.tap('button[data-step="start"]', "ante-refused")
    assert page.url.endswith(f"/tables/{server.tables['russian']}/live")
    assert page.inner_text('[data-error-for="ante_2"]') == (
        "Box 2: ANTE 5 is below the table minimum 10")
    assert page.get_attribute('input[name="ante_2"]', "aria-invalid") == "true"
    assert page.input_value('input[name="ante_1"]') == "100"  # the other boxes kept too
    t.type('input[name="ante_2"]', "50")
    assert page.locator('[data-error-for="ante_2"]').count() == 0
    t.tap('button[data-step="start"]', "started")
    assert t.phase() == "Players decide"
