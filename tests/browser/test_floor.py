"""On the floor page in real Chromium: a table whose tablet fell silent says OFFLINE
since when, a returning tablet its queued steps, and a refused queued step waits there until
the pit boss taps Seen. Photographed at 1024x768 and 768x1024 in both languages
(``test-artifacts/browser/<test>/``).

RULES.md, "People at the table": "Offline at the table: only round steps may be recorded while
the server cannot be reached; the server re-checks every queued step on reconnect and its stored
events are the record."
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from dealer_assist import create_app, db
from dealer_assist.i18n.steps import phrase_data
from dealer_assist.models import TableDevice, utcnow
from dealer_assist.rules.phrase import Phrase
from dealer_assist.services.rounds import live, offline
from dealer_assist.services.shifts import inventory
from dealer_assist.services.tables import devices, tables
from tests.browser.conftest import LAYOUT, Server, Shots, served
from tests.browser.test_relief_floor import CLIPPED, _context, _sign_in
from tests.conftest import FAST_ARGON2
from tests.factories import SIGNED, make_table, make_user, start_round

pytestmark = pytest.mark.browser


@pytest.fixture
def offline_floor(tmp_path: Path) -> Iterator[Server]:
    """Pit A: RP 1's tablet silent for 40 s; OP 1's back with 7 steps of 2 rounds queued and
    one queued fold refused (its round voided meanwhile); CS 1 with no tablet."""
    url = f"sqlite:///{tmp_path / 'floor.sqlite3'}"
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": url,
                      "FLOOR_POLL_SECONDS": 1, "HOUSE_EDGE_STORE": str(tmp_path / "e.json"),
                      **FAST_ARGON2})
    db.upgrade(db.get_engine(app))
    ids: dict[str, int] = {}
    with db.session_scope(app) as dbs:
        people = {n: make_user(dbs, n, r, **extra).id for n, r, extra in (
            ("carla", "croupier", {}), ("pavel", "pit_boss", {}),
            ("lena", "pit_boss", {"language": "ru"}))}
        for name, game in (("RP 1", "russian"), ("OP 1", "oasis"), ("CS 1", "caribbean")):
            t = make_table(dbs, name=name, game=game)
            tables.update_table(dbs, t.id, tables.TableSpec(
                name, game, t.profile, 10, 500, 50_000, 6, pit="A"))
            ids[name] = t.id
        for name in ("RP 1", "OP 1"):
            inventory.open_shift_with_count(
                dbs, table_id=ids[name], actor_id=people["pavel"], croupier_id=people["carla"],
                pit_boss_id=people["pavel"], chips={"100": 500}, credential=SIGNED)
            devices.bind(dbs, table_id=ids[name], actor_id=people["pavel"])
        rnd = start_round(dbs, table_id=ids["OP 1"], actor_id=people["carla"],
                          boxes=[live.BoxStake("1", 100)], idempotency_key="s1")
        reason = Phrase("Round %(number)s is %(status)s; it takes no more steps.", number=1,
                        status="voided")
        offline.keep_refusal(dbs, offline.Refused(
            table_id=None, round_id=rnd.round.id, actor_id=people["carla"], device_id=None,
            type="fold", payload={"box": "1"}, tap=offline.Tap(utcnow(), True),
            idempotency_key="q9", status=409, detail=str(reason),
            reason=json.dumps(phrase_data(reason))))
        now = utcnow()
        for row in dbs.exec(select(TableDevice)).all():
            row.heard_at = now - timedelta(seconds=40) if row.table_id == ids["RP 1"] else now
            if row.table_id == ids["OP 1"]:
                row.queued_steps, row.queued_rounds = 7, 2
            dbs.add(row)
    with served(app, {**ids, **people}) as running:
        yield running


WORDS = {"en": ("OFFLINE since ", "7 steps of 2 rounds queued", "Round 1 · Fold: refused · "
                "Round 1 is voided; it takes no more steps.", "Seen"),
         "ru": ("НЕТ СВЯЗИ с ", "7 шагов из 2 раундов в очереди", "Раунд 1 · Фолд: отказ · "
                "Раунд 1: аннулировано; шаги больше не принимаются.", "Просмотрено")}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_floor_shows_offline_tablets_their_queue_and_refused_steps_in_both_languages(
        chromium: Any, offline_floor: Server, language: str,
        request: pytest.FixtureRequest) -> None:
    offline_words, queued, refused, seen = WORDS[language]
    who = "pavel" if language == "en" else "lena"
    for width, height in ((1024, 768), (768, 1024)):
        context = _context(chromium, width, height)
        try:
            page = context.new_page()
            _sign_in(page, offline_floor, who)
            page.goto(f"{offline_floor.url}/floor?pit=A")
            rp = page.locator('[data-table="RP 1"] [data-tablet="offline"]')
            assert rp.inner_text().startswith(offline_words), rp.inner_text()
            op = page.locator('[data-table="OP 1"]')
            assert op.locator('[data-tablet="queued"]').inner_text() == queued
            assert op.locator("[data-refusal] span").inner_text() == refused
            assert page.locator('[data-table="CS 1"] [data-tablet]').count() == 0
            layout = page.evaluate(LAYOUT, [".refusals button", 44])  # a finger on a podium
            assert layout["scroll"] <= layout["inner"] and not layout["small"], layout
            assert page.evaluate(CLIPPED) == []
            Shots(page, f"{request.node.name}-{width}x{height}")(f"floor-{width}x{height}")
        finally:
            context.close()
    if language == "en":  # the pit boss has seen it: it leaves the floor
        context = _context(chromium, 1024, 768)
        try:
            page = context.new_page()
            _sign_in(page, offline_floor, "pavel")
            page.goto(f"{offline_floor.url}/floor?pit=A")
            page.locator("[data-refusal] button").click()
            page.wait_for_url(f"{offline_floor.url}/floor")
            assert page.locator("[data-refusal]").count() == 0
        finally:
            context.close()
