"""The fill slip of a pit boss who is a woman said she was authenticated "by
his own session". The people who sign are named, and the words around their names fit anyone."""

from __future__ import annotations

import io
from typing import Any

from flask import Flask
from pypdf import PdfReader

from dealer_assist.services.shifts import shifts
from tests.factories import PIN, cage_issue, make_table, make_user
from tests.web.conftest import Browser, arrange, text


def test_a_slip_signed_in_session_by_a_woman_names_her_in_neutral_words(
        app: Flask, browser: Browser) -> None:
    def build(session: Any) -> dict[str, int]:
        carla = make_user(session, "carla", "croupier").id
        make_user(session, "olga", "pit_boss")
        table = make_table(session, name="RP 1")
        shift = shifts.open_shift(session, table_id=table.id, user_id=carla).id
        # the cage issues the fill; the table signs for it
        return {"carla": carla, "shift": shift,
                "issue": cage_issue(session, shift, "fill", 5000)}

    floor = arrange(app, build)
    browser.login("olga")
    fill = browser.post(f"/reports/shifts/{floor['shift']}/transfers",
                        {"issue_id": floor["issue"], "croupier_id": floor["carla"],
                         "croupier_pin": PIN, "chips.1000": "5"})
    assert fill.status_code == 302
    page = text(browser.get(f"/reports/shifts/{floor['shift']}/inventory"))
    voided = browser.post("/cage/slips/1/void", {"reason": "never brought",
                                                 "signer_id": floor["carla"],
                                                 "signer_pin": PIN})
    assert voided.status_code == 303
    slip = browser.get("/cage/slips/1.pdf")
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(slip.data)).pages)
    printed = " ".join(printed.split())
    for gendered in ("his own session", "Signed with him", "his PIN", "he types"):
        assert gendered not in printed and gendered not in page, gendered
    assert "Olga · by signing in" in printed and "Carla · by PIN" in printed
    assert "Co-signed by Carla" in printed


def test_the_floor_s_rotation_hint_assumes_no_man(app: Flask, browser: Browser) -> None:
    def pit(session: Any) -> None:
        make_user(session, "petra", "pit_boss")
        make_table(session, name="RP 1", pit="A")

    arrange(app, pit)
    browser.login("petra")
    page = text(browser.get("/floor"))
    assert "minutes a dealer deals before a relief is due" in page
    assert "his relief" not in page
