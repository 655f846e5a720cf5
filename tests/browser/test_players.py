"""Players at the boxes in real headless Chromium, portrait and landscape, English and
Russian.

A pit boss seats a rated player on the table screen in one step (card number and name); the
croupier plays his four boxes at Russian poker: she links boxes 2 to 4 to box 1's player with one
tap each, and the screen offers the dark boxes 3 and 4 nothing until boxes 1 and 2 have decided
(seed 001: "At first you should make a decision on the first course of boxing distribution, then
on the second"). The croupier sees the card number, never the name. The pit boss then opens the
player's page and downloads the day's rating slips (CSV). Every screen is photographed
(``test-artifacts/browser/<test>/``, the pit boss's screens in ``<test>-pit/``) and checked for
no sideways scroll.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import db
from dealer_assist.models import User
from tests.browser.conftest import Server, Shots
from tests.browser.test_disputes import enter_cards, sign_in, tap
from tests.factories import make_user

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                                ids=["1024x768", "768x1024"])
CARD = "100234"
NAME = "Ivan Petrov"
WORDS = {"en": {"dark": "In the dark", "after": "decides after boxes 1, 2",
                "seated": "is seated", "top": "Rated players at this table",
                "link": "Same player as box 1", "page": "Gaming days and table sessions"},
         "ru": {"dark": "Втёмную", "after": "решает после боксов 1, 2",
                "seated": "сел за стол", "top": "Игроки с картой за этим столом",
                "link": "Тот же игрок, что на боксе 1", "page": "Игровые дни и сессии за столами"}}


def _look(page: Any, shots: Shots, label: str) -> str:
    page.wait_for_load_state("load")
    shots(label)
    assert not page.query_selector(".flash-error"), page.inner_text(".flash-error")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), label
    return str(page.inner_text("body"))


def _steps(page: Any, box: str) -> list[str]:
    """The decisions offered on a box (a redeal, asking for a void, is on every box dealt and
    decides nothing)."""
    found: list[str] = page.eval_on_selector_all(
        f'article.box[data-box="{box}"] [data-step]', "els => els.map(e => e.dataset.step)")
    return [step for step in found if step != "redeal"]


@SIZES
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_rated_player_plays_four_boxes_the_dark_course_after_the_first(
        page: Any, chromium: Any, server: Server, shots: Shots, language: str,
        request: pytest.FixtureRequest) -> None:
    words = WORDS[language]
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "olga", "pit_boss", language=language)
        dbs.exec(select(User).where(User.username == "carla")).one().language = language
    table = server.tables["russian"]
    pit_context = chromium.new_context(viewport=page.viewport_size, has_touch=True)
    pit = pit_context.new_page()
    pit.set_default_timeout(10_000)
    pit_shots = Shots(pit, f"{request.node.name}-pit")
    try:
        # the pit boss seats the rated player in one step: card number and name
        sign_in(pit, server, "olga")
        pit.goto(f"{server.url}/tables/{table}/live")
        pit.fill('form.sit-down input[name="card"]', CARD)
        pit.fill('form.sit-down input[name="name"]', NAME)
        pit.click("button[data-sit-down]")
        text = _look(pit, pit_shots, "pit-seats-the-rated-player")
        assert words["seated"] in text and f"★{CARD}" in text
        assert NAME in pit.inner_text(f'li[data-seated="{CARD}"]')  # the pit sees his name

        # the croupier: his card (never his name), four boxes linked with one tap each
        sign_in(page, server, "carla")
        page.goto(f"{server.url}/tables/{table}/live")
        text = _look(page, shots, "croupier-bets")
        assert words["top"] in text and f"★{CARD}" in text and NAME not in text
        assert page.query_selector('form.sit-down input[name="name"]') is None
        page.fill('input[name="ante_1"]', "100")
        page.select_option('select[name="player_1"]', f"card:{CARD}")
        for box in (2, 3, 4):
            page.click(f'button[data-link-player="{box}"]')
        assert page.input_value('input[name="ante_4"]') == "100"
        assert page.input_value('select[name="player_4"]') == f"card:{CARD}"
        assert page.eval_on_selector_all("fieldset.bet-box.same-player", "e => e.length") == 3
        _look(page, shots, "four-boxes-linked")
        tap(page, 'button[data-step="start"]')
        text = _look(page, shots, "started")
        assert NAME not in text and text.count(f"★{CARD}") >= 4

        # the first course decides first; the dark boxes wait and say for what
        assert "bet" in _steps(page, "1") and "bet" in _steps(page, "2")
        for box in ("3", "4"):
            assert _steps(page, box) == [], box
            dark = page.inner_text(f'article.box[data-box="{box}"] .dark')
            assert words["dark"] in dark and words["after"] in dark
        tap(page, 'article.box[data-box="1"] [data-step="bet"]')
        _look(page, shots, "box-1-bet")
        assert _steps(page, "3") == [] and _steps(page, "4") == []
        tap(page, 'article.box[data-box="2"] [data-step="fold"]')
        _look(page, shots, "first-course-decided")
        assert "bet" in _steps(page, "3") and "bet" in _steps(page, "4")
        for box in ("3", "4"):  # still marked dark, no longer waiting
            dark = page.inner_text(f'article.box[data-box="{box}"] .dark')
            assert words["dark"] in dark and words["after"] not in dark
        for box in ("3", "4"):
            tap(page, f'article.box[data-box="{box}"] [data-step="bet"]')
        enter_cards(page, "Kh Qh 4s 5c 6d")
        _look(page, shots, "revealed-no-game")
        for box in ("1", "3", "4"):
            tap(page, f'article.box[data-box="{box}"] [data-step="take_ante"]')
        _look(page, shots, "pay-out")
        tap(page, 'button[data-step="paid"]')
        _look(page, shots, "paid")
        for box in (1, 2, 3, 4):  # the bets carried to the next round keep their player
            assert page.input_value(f'select[name="player_{box}"]') == f"card:{CARD}", box
            assert page.input_value(f'input[name="ante_{box}"]') == "100", box

        # the pit boss: the player's page (with his name) and the day's rating slips
        pit.goto(f"{server.url}/players/{CARD}")
        text = _look(pit, pit_shots, "player-page")
        assert NAME in text and words["page"] in text
        slips = pit.eval_on_selector_all("tr.slip", "e => e.length")
        assert slips == 1
        pit.goto(f"{server.url}/players/")
        _look(pit, pit_shots, "players")
        answer = pit.request.get(f"{server.url}/players/slips.csv")
        assert answer.status == 200 and answer.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(answer.text())))
        (pit_shots.dir / "rating-slips.csv").write_text(answer.text(), encoding="utf-8")
        assert rows[0] == ["card", "table", "game", "start", "end", "average_bet", "wagered",
                           "win", "theoretical"]
        # four boxes: ANTE 100 each (400 per round); box 2 folded (ANTE lost), boxes 1, 3, 4
        # bet 200 and took the ANTE 1:1 (dealer no game): the house lost 3 x 100 - 100
        assert rows[1][:3] == [CARD, "RP 1", "russian"] and rows[1][5:8] == ["400", "1000",
                                                                              "-200"]
    finally:
        pit_context.close()
