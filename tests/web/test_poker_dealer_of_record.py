""""The poker screen right after the opening count says 'Nobody is tapped in
at this table.'" The croupier who counted the float deals first (RULES.md, People at the table:
a round or hand is dealt by the dealer at the table when it started), on a poker table as on a
house table."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.web.conftest import Browser, arrange, opening_form, text
from tests.web.test_poker_pages import _table


def test_right_after_the_opening_count_the_poker_screen_names_the_croupier_who_counted(
        app: Flask, browser: Browser, croupier: Any) -> None:
    tid = arrange(app, _table)
    browser.login("carla")
    opened = browser.post(f"/tables/{tid}/shifts", opening_form(app))
    assert opened.status_code == 302 and opened.headers["Location"] == f"/poker/{tid}"
    page = text(browser.get(opened.headers["Location"]))
    assert "Nobody is tapped in" not in page
    assert 'data-dealer="Carla"' in page


def test_a_pit_boss_who_opens_the_poker_table_leaves_the_counting_croupier_dealing(
        app: Flask, browser: Browser, croupier: Any) -> None:
    tid = arrange(app, _table)
    form = opening_form(app)
    browser.login("olga")
    assert browser.post(f"/tables/{tid}/shifts", form).status_code == 302
    page = text(browser.get(f"/poker/{tid}"))
    assert "Nobody is tapped in" not in page and 'data-dealer="Carla"' in page


def test_a_croupier_dealing_elsewhere_who_counts_a_poker_float_is_told_how_the_table_is_taken(
        app: Flask, browser: Browser, croupier: Any) -> None:
    """The walk-through's case: Carla deals at RP 1 and counts the poker table's float too. She
    cannot deal both (a relief there comes first), so nobody deals at the poker table yet; the
    screen says so in words that lead on (who she is dealing for, and the relief), not the bare
    "Nobody is tapped in at this table."."""
    from tests.factories import make_table

    house = arrange(app, make_table, name="RP 1")
    browser.login("carla")
    assert browser.post(f"/tables/{house.id}/shifts", opening_form(app)).status_code == 302
    tid = arrange(app, _table)
    opened = browser.post(f"/tables/{tid}/shifts", opening_form(app))
    page = text(browser.get(opened.headers["Location"]))
    assert "Nobody is tapped in" not in page
    assert "Nobody deals at this table yet" in page and "You deal at RP 1 now" in page
    assert f'href="/tables/{tid}/relief"' in page
