"""On the table screen in real Chromium, landscape 1024x768 and portrait 768x1024, in
English and Russian, photographed (``test-artifacts/browser/<test name>/``).

Item 17: **Start round** with six boxes and **Paid ✓** after a five-box showdown are on the
first screen. Item 18: "Same player as box 1" gives the box the first box's ANTE. Item 22: the
insurance form shows its limit (the presumptive payout) before the croupier types.

The checks use what the croupier sees (roles, visible words) and the data-* attributes the
features need, so they keep testing the behaviour when the screen's markup changes.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import User
from dealer_assist.services.shifts import shifts
from tests.browser.conftest import Server, Shots, login
from tests.browser.test_floor_screens import no_clipped_words, speak
from tests.factories import PASSWORD, make_table, make_user

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                                ids=["1024x768", "768x1024"])
LANGS = pytest.mark.parametrize("lang", ["en", "ru"])
WORDS = {"en": {"start": "Start round", "paid": "Paid ✓", "record": "Record",
                "same": "Same player as box 1"},
         "ru": {"start": "Начать раунд", "paid": "Выплачено ✓", "record": "Записать",
                "same": "Тот же игрок, что на боксе 1"}}


def six_box_table(server: Server) -> int:
    with db.session_scope(server.app) as dbs:
        carla = make_user(dbs, "vera", "croupier")
        t = make_table(dbs, name="RP 6", game="russian", boxes=6)
        shifts.open_shift(dbs, table_id=t.id, user_id=carla.id)
        return t.id


def open_table(page: Any, server: Server, lang: str, table_id: int) -> None:
    login(page, server)
    speak(page, lang)
    page.goto(f"{server.url}/tables/{table_id}/live")


def on_first_screen(page: Any, locator: Any, what: str, shots: Shots) -> None:
    """Seen without scrolling: the whole button inside the viewport as the croupier has the
    page now (as it opens, or as the round left it: the page no longer reloads at each tap),
    photographed as he sees it, beside the full page."""
    page.screenshot(path=str(shots.dir / f"{shots.n:02d}-first-screen.png"))
    box = locator.bounding_box()
    assert box is not None, f"{what}: not shown"
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (
        f"{what} at {box['y']:.0f}..{box['y'] + box['height']:.0f}px: below the fold ({height})")


def tap(page: Any, locator: Any) -> None:
    """A tap, and what it sent answered and drawn (a step: one request; a link: a page)."""
    locator.click()
    page.wait_for_load_state("load")
    page.wait_for_selector("body:not(.busy)", state="attached")


def tap_cards(page: Any, codes: str) -> None:
    """The card grid: the last tap of an exact count records the step."""
    for code in codes.split():
        tap(page, page.locator(f'.card-grid button[data-card="{code}"]'))


@SIZES
@LANGS
def test_start_round_is_on_the_first_screen_of_a_six_box_table(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    open_table(page, server, lang, six_box_table(server))
    start = page.get_by_role("button", name=WORDS[lang]["start"])
    shots("bets-six-boxes")
    on_first_screen(page, start, WORDS[lang]["start"], shots)
    no_clipped_words(page, "bets-six-boxes")


#: five boxes' hands at the showdown, none sharing a card with the dealer's pair of kings
HANDS = ["As Ad Ah 2c 3d", "7s 8s 9d Jc 2h", "Qs Qd 5h 5s 3c", "Tc Td 4h 6s 8d", "9s 9c 4c 3h 2s"]


@SIZES
@LANGS
def test_paid_is_on_the_first_screen_after_a_five_box_showdown(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    open_table(page, server, lang, server.tables["russian"])
    for box in "12345":
        page.fill(f'input[name="ante_{box}"]', "20")
    tap(page, page.get_by_role("button", name=WORDS[lang]["start"]))
    for box in "12345":
        tap(page, page.locator(f'article.box[data-box="{box}"] button[data-step="bet"]'))
    tap_cards(page, "Kh Kd 7c 6h 5d")
    for hand in HANDS:
        tap_cards(page, hand)
    assert page.locator("[data-net]").count() == 5
    paid = page.get_by_role("button", name=WORDS[lang]["paid"])
    shots("showdown-five-boxes")
    on_first_screen(page, paid, WORDS[lang]["paid"], shots)
    no_clipped_words(page, "showdown-five-boxes")
    tap(page, paid)
    assert page.get_by_role("button", name=WORDS[lang]["start"]).count() == 1
    shots("paid")


#: the words of ``selector``'s elements that are broken over two lines, or cut (an ellipsis)
BROKEN_WORDS = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.getBoundingClientRect().width === 0) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push('cut: ' + el.textContent.trim());
      continue;
    }
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /[^\\s-]+-?/g;  // a hyphen is a place to break
      let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) out.push('broken: ' + m[0]);
      }
    }
  }
  return out;
}"""
NAMES = {"en": "Administrator", "ru": "Администратор"}


@SIZES
@LANGS
def test_the_header_shows_the_whole_name_and_no_column_title_breaks_inside_a_word(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    """Item 17: "Header names truncated ("Adminis…"); "Usern ame" wraps"."""
    from sqlmodel import select

    from dealer_assist.models import User

    with db.session_scope(server.app) as dbs:
        make_user(dbs, "root", "admin")
        root = dbs.exec(select(User).where(User.username == "root")).one()
        root.display_name = NAMES[lang]
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', "root")
    page.fill('input[name="password"]', PASSWORD)
    with page.expect_navigation():
        page.click('button[type="submit"]')
    speak(page, lang)
    page.goto(f"{server.url}/admin/users")
    shots("users")
    assert page.locator("header.bar").get_by_text(NAMES[lang], exact=True).first.is_visible()
    assert page.evaluate(BROKEN_WORDS, "header.bar summary, header.bar .name, header.bar nav a, "
                         "table.list th, table.list td") == []
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page scrolls sideways: {wide}px"
    if page.viewport_size["width"] >= 1024:  # one row in landscape (base.html)
        height = page.eval_on_selector("header.bar", "h => h.getBoundingClientRect().height")
        assert height < 80, f"the header takes {height}px: more than one row"


@LANGS
def test_same_player_as_box_1_takes_box_1_s_ante_and_the_round_starts(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    """Item 18: the box already held an ANTE (typed, or carried from the last round): the link
    kept it, and Start round was then refused (a player's boxes carry equal antes)."""
    open_table(page, server, lang, server.tables["russian"])
    page.fill('input[name="ante_1"]', "100")
    page.fill('input[name="ante_2"]', "50")
    page.get_by_role("button", name=WORDS[lang]["same"]).click()
    assert page.input_value('input[name="ante_2"]') == "100"
    assert page.input_value('select[name="player_2"]') == page.input_value(
        'select[name="player_1"]')
    shots("linked")
    tap(page, page.get_by_role("button", name=WORDS[lang]["start"]))
    assert page.locator('article.box[data-box="2"]').count() == 1, "the round did not start"
    assert page.locator('article.box[data-box="2"] [data-player]').inner_text() == \
        page.locator('article.box[data-box="1"] [data-player]').inner_text()
    shots("started")


AMOUNT = {"en": "Amount", "ru": "Сумма"}


@SIZES
@LANGS
def test_the_insurance_form_shows_the_presumptive_payout_before_the_amount_is_typed(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    """Item 22: the limit was said only by the refusal of a larger amount. Trips on BET 200
    pay 600: once the hand is tapped the form offers 10-600 (and 600 as one tap)."""
    open_table(page, server, lang, server.tables["russian"])
    page.fill('input[name="ante_1"]', "100")
    tap(page, page.get_by_role("button", name=WORDS[lang]["start"]))
    tap(page, page.locator('article.box[data-box="1"] button[data-step="bet"]'))
    tap(page, page.locator('article.box[data-box="1"] button[data-step="insure"]'))
    shots("insure-asks-for-the-hand")
    tap_cards(page, "As Ad Ah 2c 3d")
    amount = page.locator(".entry label", has=page.locator('input[name="amount"]'))
    assert "600" in amount.inner_text(), amount.inner_text()
    assert page.input_value('input[name="amount"]') == ""
    assert page.input_value('.entry input[data-cards="cards"]').split() == [
        "A♠", "A♦", "A♥", "2♣", "3♦"]
    shots("limit-before-the-amount")
    record = page.locator(".entry [data-record]")
    on_first_screen(page, record, WORDS[lang]["record"], shots)
    no_clipped_words(page, "limit-before-the-amount")
    page.get_by_role("button", name="600", exact=True).click()
    tap(page, record)
    assert page.locator('article.box[data-box="1"]').inner_text().count("600") >= 1
    shots("insured")


@SIZES
@LANGS
def test_the_report_preview_has_the_language_switch_one_tap_away(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    """Item 16: the preview had no header, so no language button."""
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "maria", "shift_manager")
        shift = shifts.open_shift_of(dbs, server.tables["russian"])
        assert shift is not None
        shift_id = shift.id
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', "maria")
    page.fill('input[name="password"]', PASSWORD)
    with page.expect_navigation():
        page.click('button[type="submit"]')
    speak(page, lang)
    page.goto(f"{server.url}/reports/shifts/{shift_id}")
    other = "ru" if lang == "en" else "en"
    switch = page.get_by_role("button", name={"ru": "Русский", "en": "English"}[other])
    on_first_screen(page, switch, "the language switch", shots)
    shots("preview")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page scrolls sideways: {wide}px"
    tap(page, switch)
    assert page.url.endswith(f"/reports/shifts/{shift_id}")
    assert page.locator("html").get_attribute("lang") == other
    shots("switched")


#: what each page must say (and never say) in each language: items 10, 13 and 20
SAYS = {"en": {"nobody": "Nobody deals at this table yet", "elsewhere": "You deal at RP 1 now"},
        "ru": {"nobody": "За этим столом пока никто не сдаёт",
               "elsewhere": "Сейчас вы сдаёте за столом RP 1"}}


@SIZES
@LANGS
def test_the_reworded_pages_read_well_in_both_languages(
        page: Any, server: Server, shots: Shots, lang: str) -> None:
    """Item 20: a poker table whose float Carla counted while she deals at RP 1 says how it is
    taken; item 10: the shift list and the table's page write dates the reader's way."""
    from dealer_assist.services.tables import poker as poker_tables

    with db.session_scope(server.app) as dbs:
        carla = dbs.exec(select(User).where(User.username == "carla")).one()
        poker = poker_tables.open_table(dbs, name="AS 1", profile="americana-limit",
                                        stakes={"ante": 10}, seat_count=6)
        shifts.open_shift(dbs, table_id=poker.id, user_id=carla.id)
        poker_id = poker.id
    login(page, server)
    speak(page, lang)
    page.goto(f"{server.url}/poker/{poker_id}")
    bar = page.locator("[data-dealer-bar]").inner_text()
    assert SAYS[lang]["nobody"] in bar and SAYS[lang]["elsewhere"] in bar, bar
    assert "Nobody is tapped in" not in bar
    shots("poker-nobody-deals")
    no_clipped_words(page, "poker-nobody-deals")
    page.goto(f"{server.url}/tables/{server.tables['russian']}")
    iso = page.evaluate(r"/\d{4}-\d\d-\d\d/.test(document.querySelector('main').innerText)")
    assert not iso or lang == "en", "an ISO date on the Russian page"
    shots("table-page")
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page scrolls sideways: {wide}px"
