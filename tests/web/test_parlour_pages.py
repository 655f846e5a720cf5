"""The parlour page over HTTP: a croupier starts a game and records hands (the last
hand left empty takes the remaining cards), a refused hand names the box and stores nothing,
and only croupiers and administrators reach the page."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from dealer_assist import db
from dealer_assist.services.rounds import parlour
from tests.factories import make_user
from tests.rules.parlour_deals import SUITED
from tests.web.conftest import Browser, arrange, text


def _start(browser: Browser) -> str:
    resp = browser.post("/parlour", {"name": "Friday", "players": "Ann\nBob\nCy",
                                     "variant": "basic"})
    assert resp.status_code == 303
    return str(resp.headers["Location"])


def _key(page: str) -> str:
    found = re.search(r'name="key" value="([0-9a-f]+)"', page)
    assert found
    return found.group(1)


def _hand(page: str, **fields: str) -> dict[str, str]:
    return {"key": _key(page), "hand_0": SUITED["hands"]["Ann"], "hand_1": SUITED["hands"]["Bob"],
            "hand_2": SUITED["hands"]["Cy"], "extra": "", "extra_action": "keep",
            "betting": "", **fields}


def test_a_croupier_records_a_hand_whose_extra_hand_is_the_rest_of_the_pack(
        app: Flask, browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    url = _start(browser)
    page = text(browser.get(url))
    assert "Hand 1 · Ann deals" in page
    resp = browser.post(f"{url}/hands", _hand(page, betting="Bob bet 2, Cy call, Ann pass"))
    assert resp.status_code == 303
    page = text(browser.get(url))
    assert "Hand 2 · Bob deals" in page
    with db.session_scope(app) as dbs:
        view = parlour.load(dbs, int(url.rsplit("/", 1)[1]))
    assert view.hands[0].request["extra"] == SUITED["extra"].split()
    assert view.hands[0].result["pool"]["winners"] == ["Bob", "Cy"]  # two royal flushes split
    assert f'data-total="Cy">{view.totals["Cy"]:+d}' in page


def test_a_refused_hand_names_the_box_keeps_the_typing_and_stores_nothing(
        app: Flask, browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    url = _start(browser)
    page = text(browser.get(url))
    bad = _hand(page, hand_2=SUITED["hands"]["Cy"].replace("2h", "As"), extra=SUITED["extra"])
    resp = browser.post(f"{url}/hands", bad)
    assert resp.status_code == 422
    body = text(resp)
    assert "Extra hand cards" in body and "As" in body
    assert 'value="As 3h' in body  # what was typed is still there
    resp = browser.post(f"{url}/hands", _hand(page, betting="Cy bet 1"))
    assert resp.status_code == 422
    assert "Betting" in text(resp) and "Bob&#39;s turn" in text(resp)
    two_empty = _hand(page, hand_1="")
    resp = browser.post(f"{url}/hands", two_empty)
    assert resp.status_code == 422
    assert "every hand but one (empty: Bob, extra hand)" in text(resp)
    with db.session_scope(app) as dbs:
        assert parlour.load(dbs, int(url.rsplit("/", 1)[1])).last_seq == 0


def test_only_croupiers_and_administrators_reach_the_parlour(app: Flask, browser: Browser,
                                                             other_browser: Browser) -> None:
    arrange(app, make_user, "pete", "pit_boss")
    arrange(app, make_user, "root", "admin")
    browser.login("pete")
    assert browser.get("/parlour").status_code == 403
    other_browser.login("root")
    assert other_browser.get("/parlour").status_code == 200


def test_the_end_of_game_form_shares_the_board_and_closes_the_game(
        app: Flask, browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    url = _start(browser)
    page = text(browser.get(url))
    assert browser.post(f"{url}/hands", _hand(page)).status_code == 303
    page = text(browser.get(url))
    resp = browser.post(f"{url}/end", {"key": "end-" + _key(page), "end_0": "As Ad 2c 3c 4c",
                                       "end_1": "Ks Kd Kc 5h 6h", "end_2": "7s 8d 9c Th 2h"})
    assert resp.status_code == 303
    page = text(browser.get(url))
    # Bob deals hand 2, so end_0 is Bob's: Cy (end_1) holds the three kings
    assert "Game over" in page and "Cy takes 28 (Three of a kind" in page
    assert 'id="hand-form"' not in page


def test_a_double_tapped_new_game_form_creates_one_evening(
        app: Flask, browser: Browser, croupier: Any) -> None:
    browser.login("carla")
    form = {"key": _key(text(browser.get("/parlour"))), "name": "Friday",
            "players": "Ann\nBob\nCy", "variant": "basic"}
    first, again = browser.post("/parlour", form), browser.post("/parlour", form)
    assert (first.status_code, again.status_code) == (303, 303)
    assert first.headers["Location"] == again.headers["Location"]
    assert len(arrange(app, parlour.list_games)) == 1
