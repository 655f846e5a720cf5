"""In real Chromium, 1024x768 and 768x1024, English and Russian: "a missing
figure must say exactly what computes it" (the report used to send the administrator to "the
Profiles page" for a control that does not exist).

Every shipped profile now comes with its figures, so a missing one is a profile version nobody
computed: simulated here by hiding the figures kept with the code. The administrator reads the
exact command on the shift report and the floor card; a shift manager is told to ask one (issue
26 item 12: no developer command for a shift manager). Photographed in
``test-artifacts/browser/<test name>/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist import db
from dealer_assist.services.figures import house_edge
from tests.browser.conftest import Server, Shots
from tests.browser.test_floor_screens import no_clipped_words, speak
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.browser
SIZES = pytest.mark.parametrize("page", [(1024, 768), (768, 1024)], indirect=True,
                                ids=["1024x768", "768x1024"])
LANGS = pytest.mark.parametrize("lang", ["en", "ru"])
COMMAND = "flask --app dealer_assist lab house-edge russian-classic"
ASK = {"en": "Ask an administrator", "ru": "Попросите администратора"}
#: the page's width beyond the viewport (sideways scroll)
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _login(page: Any, server: Server, name: str) -> None:
    page.goto(f"{server.url}/login")
    page.fill('input[name="username"]', name)
    page.fill('input[name="password"]', PASSWORD)
    page.click('button[type="submit"]')
    page.wait_for_url(f"{server.url}/**")


def _shift_of(server: Server, game: str) -> int:
    from sqlmodel import select

    from dealer_assist.models import Shift
    with db.session_scope(server.app, write=False) as dbs:
        row = dbs.exec(select(Shift).where(Shift.table_id == server.tables[game])).first()
        assert row is not None and row.id is not None
        return row.id


@SIZES
@LANGS
@pytest.mark.parametrize("role", ["admin", "shift_manager"])
def test_a_missing_figure_names_the_command_that_computes_it(
        page: Any, server: Server, shots: Shots, lang: str, role: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # nobody computed them
    monkeypatch.setattr(house_edge.strategy_store, "figures", lambda profile: None)
    with db.session_scope(server.app) as dbs:
        make_user(dbs, "ada", role)
    _login(page, server, "ada")
    speak(page, lang)
    page.goto(f"{server.url}/reports/shifts/{_shift_of(server, 'russian')}")
    note = page.locator("[data-no-theoretical]")
    note.scroll_into_view_if_needed()
    shots("report")
    note.screenshot(path=str(shots.dir / "report-note.png"))  # the words, legible
    text = note.inner_text()
    assert "russian-classic" in text
    if role == "admin":
        assert page.locator("[data-no-theoretical] [data-command]").inner_text() == COMMAND
    else:
        assert ASK[lang] in text and "flask" not in page.content()
    assert "Profiles page" not in text and "«Профили»" not in text
    assert page.evaluate(OVERFLOW) <= 0
    page.goto(f"{server.url}/floor")
    cards = page.locator('[data-fig="theo"]')
    cards.first.scroll_into_view_if_needed()
    shots("floor")
    every = " ".join(cards.all_inner_texts())  # one card per table of the four house games
    if role == "admin":
        assert COMMAND in every and "lab house-edge split-classic" in every
    else:
        assert "flask" not in every
    assert page.evaluate(OVERFLOW) <= 0
    no_clipped_words(page, "floor")
