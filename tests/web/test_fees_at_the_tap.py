"""On the table screen, on SQLite and PostgreSQL.

Item 1, RULES.md "People at the table": "Fees are collected when they are incurred: the
improvement fee (exchange, sixth card, Oasis replacement, Big/Small bought extra cards) when the
player asks for it, the buy-game fee when he buys. The croupier takes them into the tray then;
what is paid or taken at the showdown is the wagers alone. The house's win still counts the
fees." The screen says COLLECT at the tap, the box shows the fee as collected, and at the
showdown the box's headline is what moves then; the stored settlement is unchanged.

Item 2: "After the dealer's draw (bought Q, free 4 making a pair of fours) the dealer bar still
says 'High card, queen · NO GAME' through the whole showdown".
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from tests.web import taps
from tests.web.conftest import Browser, text
from tests.web.test_live_pages import round_of, shown, start, step
from tests.web.test_table_screen_floor import open_table

#: queen high, no game; the bought game takes the queen for the Q♠ (same rank, still no game)
#: and the free second replacement the Q♠ for the 4♦: a pair of fours, a game
DEALER = ["Qh", "9c", "4s", "5c", "2d"]
DRAW = ["Qs", "4d"]


def _tap(browser: Browser, app: Flask, table: Any, type: str, **fields: Any) -> dict[str, Any]:
    """One tap; the round as the screen draws it from the answer."""
    resp = step(browser, app, table, type, **fields)
    assert resp.status_code == 201, text(resp)
    rnd: dict[str, Any] = resp.get_json()["round"]
    return rnd


def _payout(rnd: dict[str, Any], box: str) -> tuple[str, dict[str, tuple[str, int]]]:
    """The box's headline (``PAY 80``) and its wagers: name -> (action, amount)."""
    line = next((p for p in rnd["payouts"] or [] if p["box"] == box), None)
    assert line is not None, f"no payout for box {box}"
    wagers = {w["name"]: (w["action"], w["amount"]) for w in line["wagers"]}
    return f"{line['said']} {line['net_said']}", wagers


def test_russian_fees_are_collected_at_the_tap_and_the_showdown_pays_the_wagers(
        browser: Browser, app: Flask, croupier: Any) -> None:
    rp = open_table(browser, app, name="RP 26")
    start(browser, rp, ante_1="20")
    rnd = _tap(browser, app, rp, "exchange", box="1", count=2)
    assert rnd["moved"] == ["Box 1: COLLECT 20"]
    assert taps.box_of(rnd, "1")["collected"] == "Fee collected: 20"
    assert _tap(browser, app, rp, "bet", box="1")["moved"] == []  # nothing more to take
    _tap(browser, app, rp, "reveal", cards=DEALER)
    rnd = _tap(browser, app, rp, "buy_game", box="1")
    assert rnd["moved"] == ["Box 1: COLLECT 20"]
    assert taps.box_of(rnd, "1")["collected"] == "Fee collected: 40"
    _tap(browser, app, rp, "dealer_draw", cards=DRAW)
    rnd = _tap(browser, app, rp, "show", box="1", cards=["Kh", "Kd", "7s", "7d", "3c"])
    said, wagers = _payout(rnd, "1")
    assert said == "PAY 80"  # the BET's 80; the two fees of 20 are already in the tray
    assert wagers == {"ANTE": ("RETURN", 20), "BET": ("PAY", 80),
                      "Improvement fee": ("COLLECTED", 20),
                      "Buy-game fee": ("COLLECTED", 20)}
    assert rnd["payouts"][0]["net"] == 80
    _tap(browser, app, rp, "paid")
    rnd = round_of_paid(app, rp)
    box = rnd["boxes"][0]
    assert (box["net"], rnd["house_net"]) == (40, -40)  # stored as before: fees still count
    assert box["wagers"]["improvement_fee"]["net"] == box["wagers"]["buy_game_fee"]["net"] == -20
    from dealer_assist import db
    from dealer_assist.services.rounds import live

    with db.session_scope(app) as dbs:
        round_id = live.last_round_id(dbs, rp.id)
    page = text(browser.get(f"/rounds/{round_id}"))  # the round's page says it the same way
    row = re.search(r'<tr class="[^"]*" data-box="1">(.*?)</tr>', page, re.S)
    assert row is not None
    assert 'data-net="80">PAY 80<' in row.group(1) and row.group(1).count("COLLECTED 20") == 2


def round_of_paid(app: Flask, table: Any) -> dict[str, Any]:
    from dealer_assist import db
    from dealer_assist.services.rounds import live

    with db.session_scope(app) as dbs:
        last = live.last_round_id(dbs, table.id)
        assert last is not None
        stored = live.load(dbs, last).stored_settlement
    assert stored is not None
    return stored


def test_an_undone_improvement_gives_the_fee_back(browser: Browser, app: Flask,
                                                  croupier: Any) -> None:
    rp = open_table(browser, app, name="RP 26")
    start(browser, rp, ante_1="20")
    assert _tap(browser, app, rp, "sixth_card", box="1")["moved"] == ["Box 1: COLLECT 20"]
    rnd = _tap(browser, app, rp, "undo")
    assert rnd["moved"] == ["Box 1: RETURN 20 (the fee goes back)"]
    assert "collected" not in taps.box_of(rnd, "1")


def test_oasis_replacement_fee_is_collected_at_the_tap(browser: Browser, app: Flask,
                                                       croupier: Any) -> None:
    op = open_table(browser, app, name="OP 26", game="oasis")
    start(browser, op, ante_1="50")
    _tap(browser, app, op, "deal_dealer", up=["8c"])
    rnd = _tap(browser, app, op, "replace", box="1", count=1)
    assert rnd["moved"] == ["Box 1: COLLECT 50"]
    assert taps.box_of(rnd, "1")["collected"] == "Fee collected: 50"
    _tap(browser, app, op, "bet", box="1")
    rnd = _tap(browser, app, op, "reveal", cards=["2s", "3d", "9h", "Jc"])  # no game: ANTE 1:1
    said, wagers = _payout(rnd, "1")
    assert said == "PAY 50" and wagers["Improvement fee"] == ("COLLECTED", 50)
    assert round_of(app, op).settlement.boxes[0].net == 0  # type: ignore[union-attr]


def test_big_small_bought_extra_cards_fee_is_collected_at_the_tap(
        browser: Browser, app: Flask, croupier: Any) -> None:
    bs = open_table(browser, app, name="BS 26", game="split")
    start(browser, bs, ante_1="50")
    _tap(browser, app, bs, "deal_dealer", up=["9c"])
    rnd = _tap(browser, app, bs, "extra", box="1", mode="bought")
    assert rnd["moved"] == ["Box 1: COLLECT 50"]
    assert taps.box_of(rnd, "1")["collected"] == "Fee collected: 50"
    _tap(browser, app, bs, "split", box="1", big=["As", "Ad", "7h", "4c", "2s"],
         small=["Kd", "3h"])
    for type, fields in (("bet", {"box": "1"}), ("reveal", {"cards": ["Qs", "Qd", "5h", "6h"]}),
                         ("dealer_small", {"cards": ["Kc", "Jc"]})):
        rnd = _tap(browser, app, bs, type, **fields)
    said, wagers = _payout(rnd, "1")
    assert said == "PAY 50"  # ANTE paid at the pair's 1 (the issue saw RETURN: 50 - fee 50)
    assert wagers["Improvement fee"] == ("COLLECTED", 50)
    assert round_of(app, bs).settlement.boxes[0].net == 0  # type: ignore[union-attr]


def test_the_dealers_bought_game_is_shown_as_soon_as_he_draws(browser: Browser, app: Flask,
                                                              croupier: Any) -> None:
    rp = open_table(browser, app, name="RP 26")
    start(browser, rp, ante_1="20", ante_2="20")
    for type, fields in (("bet", {"box": "1"}), ("bet", {"box": "2"}),
                         ("reveal", {"cards": DEALER}), ("buy_game", {"box": "1"}),
                         ("buy_game", {"box": "2"})):
        _tap(browser, app, rp, type, **fields)
    bought = _tap(browser, app, rp, "dealer_draw", cards=DRAW)["dealer"].get("bought")
    assert bought, "the bought game is not on the dealer bar"
    assert bought["hand"].startswith("One pair, fours") and bought["game"] == "GAME"
    assert "4d" in bought["cards"]  # drawn as 4♦
    assert round_of(app, rp).settlement is None  # no box shown yet: the showdown goes on
    browser.post("/language", {"language": "ru"})
    assert shown(browser, rp)["dealer"]["bought"]["hand"].startswith("Пара четвёрок")
