"""Two Parlour Americana hands played in real Chromium, at 1024x768 and 768x1024.

The host enters each deal with the card grid (the extra hand is "Rest of the pack"), taps the
betting round, records the hand, replays the Ante card by card, and the board is carried to the
next hand. The page's figures are checked against the engine replaying the stored events; every
screen is checked for horizontal scroll and small touch targets, and photographed.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.services.rounds import parlour
from tests.browser.conftest import LAYOUT, Server, Shots, login
from tests.rules.parlour_deals import SUITED

pytestmark = pytest.mark.browser
MIN_TARGET = 44
TARGETS = ("#parlour button, #parlour a.button, #parlour .pick, "
           "#parlour input:not([type=hidden]):not([type=radio])")



def check(page: Any, shots: Shots, label: str) -> None:
    page.wait_for_load_state("load")
    layout = page.evaluate(LAYOUT, [TARGETS, MIN_TARGET])
    assert layout["scroll"] <= layout["inner"], f"{label}: horizontal scroll {layout}"
    assert not layout["small"], f"{label}: touch targets under {MIN_TARGET}px: {layout}"
    shots(label)


def deal(page: Any, hands: dict[str, str]) -> None:
    """Tap each player's cards (a full hand moves on by itself); the extra hand is the rest."""
    for name, cards in hands.items():
        page.click(f'.targets button:has-text("{name}")')
        for code in cards.split():
            page.click(f'.parlour-grid button[data-card="{code}"]')
    page.click('.targets button[data-target="extra"]')
    page.click("[data-rest]")


def bet(page: Any, *steps: str) -> None:
    for step in steps:
        kind, *amount = step.split()
        if amount:
            page.fill("[data-amount-input]", amount[0])
        page.click(f'.bet-buttons button[data-act="{kind}"]')


def board_shown(page: Any) -> dict[str, int]:
    spaces = page.locator(".board-panel .space").all()
    return {s.get_attribute("data-space"): int(s.locator(".chips").inner_text()) for s in spaces}


@pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                         ids=["1024x768", "768x1024"])
def test_two_parlour_hands_are_played_with_the_board_carried_over(page: Any, server: Server,
                                                          shots: Shots) -> None:
    login(page, server)
    page.click('nav a:has-text("Parlour")')
    check(page, shots, "games")
    page.fill('input[name="name"]', "Friday")
    page.fill('textarea[name="players"]', "Ann\nBob\nCy")
    page.click('button:has-text("Start the game")')
    assert page.inner_text("[data-phase]") == "Hand 1 · Ann deals"
    check(page, shots, "hand-1-empty")

    deal(page, {p: SUITED["hands"][p] for p in ("Ann", "Bob", "Cy")})
    assert set(page.input_value('input[name="extra"]').split()) == set(SUITED["extra"].split())
    bet(page, "bet 2", "raise 1", "call", "pass")
    assert page.input_value('input[name="betting"]') == "Bob bet 2, Cy raise 1, Ann call, Bob pass"
    assert page.inner_text("[data-turn]") == "Betting closed"
    check(page, shots, "hand-1-entered")
    page.click("[data-record]")
    assert page.inner_text("[data-phase]") == "Hand 2 · Bob deals"
    for _ in range(3):
        page.click('[data-replay="next"]')
    assert page.inner_text("[data-replay-count]").startswith("4 /")
    check(page, shots, "hand-1-replay")

    game_id = int(page.url.split("/parlour/")[1].split("#")[0])
    with db.session_scope(server.app) as dbs:
        first = parlour.load(dbs, game_id)
    board = first.board
    assert board_shown(page) == {"pool": board["pool"], **board["sections"]}
    assert first.hands[0].result["pool"]["winners"] == ["Cy"]  # Bob folded to the raise

    # hand 2: Bob deals, the cards go round one seat; everybody passes; the board carried in
    deal(page, {"Bob": SUITED["hands"]["Ann"], "Cy": SUITED["hands"]["Bob"],
                "Ann": SUITED["hands"]["Cy"]})
    bet(page, "pass", "pass", "pass")
    page.click("[data-record]")
    assert page.inner_text("[data-phase]") == "Hand 3 · Cy deals"
    page.click('[data-replay="all"]')
    check(page, shots, "hand-2-replayed")
    with db.session_scope(server.app) as dbs:
        second = parlour.load(dbs, game_id)
    assert second.hands[1].request["board"] == board
    assert second.hands[1].result["pool"]["amount"] == board["pool"] + 4
    assert board_shown(page) == {"pool": second.board["pool"], **second.board["sections"]}
    for p, total in second.totals.items():
        assert page.inner_text(f'[data-total="{p}"]') == (f"{total:+d}" if total else "0")
