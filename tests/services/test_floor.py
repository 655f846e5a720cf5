"""The pit's live floor (``services.reports.floor``), on SQLite and PostgreSQL: its
figures are the shift report's for the same shift, each alert fires on its condition (and not
without it), the stage follows the round, and the dealers on break are listed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine
from sqlmodel import Session

from dealer_assist import audit, create_app
from dealer_assist.lab.version import fingerprint
from dealer_assist.models import Round, utcnow
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services import reports
from dealer_assist.services.disputes import disputes
from dealer_assist.services.figures import house_edge
from dealer_assist.services.people import reliefs, stints
from dealer_assist.services.reports import floor as floor_service
from dealer_assist.services.rounds import live, poker_hands, voids
from dealer_assist.services.shifts import inventory
from dealer_assist.services.tables import poker as poker_tables
from dealer_assist.services.tables import tables
from tests.conftest import FAST_ARGON2
from tests.factories import SIGNED, make_table, make_user, pay_round, record_step, start_round
from tests.services.test_disputes import STEPS, Floor, file, play

QUIET = floor_service.FloorSettings(payout_alert=10**9, idle=timedelta(days=1))


@pytest.fixture
def app(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """An app context for the lab's stored house edge (the report's theoretical section). The
    figures every shipped profile comes with are hidden: a test stores its own
    (``_edge``), else the table has none and raises no "hold" alert beside the one tested."""
    monkeypatch.setattr(house_edge.strategy_store, "figures", lambda profile: None)
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": db_url,
                      "HOUSE_EDGE_STORE": str(tmp_path / "edges.json"), **FAST_ARGON2})
    with app.app_context():
        yield app


def _edge(session: Session, edge: float) -> None:
    """The lab's figure for russian-classic, stored in the database as the lab stores it."""
    house_edge.save(session, {
        "profile": "russian-classic", "fingerprint": fingerprint(get_profile("russian-classic")),
        "default_strategy": "basic", "strategies": {"basic": {"house_edge": edge}}})


@pytest.fixture
def floor(engine: Engine, session: Session, app: Flask) -> Floor:
    audit.install(engine)
    ids = [make_user(session, name, role).id for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pavel", "pit_boss"),
        ("petra", "pit_boss"), ("maria", "shift_manager"))]
    table = make_table(session, name="RP 1", max_payout=50_000)
    tables.update_table(session, table.id, tables.TableSpec(
        "RP 1", "russian", table.profile, 10, 500, 50_000, 6, pit="A"))
    make_table(session, name="CS 1", game="caribbean")
    shift, _ = inventory.open_shift_with_count(
        session, table_id=table.id, actor_id=ids[0], croupier_id=ids[0], pit_boss_id=ids[2],
        chips={"100": 1000}, credential=SIGNED)
    session.commit()
    return Floor(*ids, table.id, shift.id)


def card(session: Session, floor: Floor, *, now: Any = None,
         settings: floor_service.FloorSettings = QUIET) -> dict[str, Any]:
    data = floor_service.floor(session, pit="A", now=now or utcnow(), settings=settings)
    assert [t["name"] for t in data["tables"]] == ["RP 1"]  # the pit's tables only
    found: dict[str, Any] = data["tables"][0]
    return found


def codes(found: dict[str, Any]) -> list[str]:
    return [a["code"] for a in found["alerts"]]


def test_the_floors_figures_agree_with_the_shift_report(session: Session, floor: Floor,
                                                        app: Flask) -> None:
    _edge(session, 0.02)
    rounds = [play(session, floor) for _ in range(3)]
    dispute = file(session, floor, rounds[0])
    disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=40,
                    note="camera", actor_id=floor.pit_boss)
    session.commit()
    found = card(session, floor)
    report = reports.build_shift_report(session, floor.shift_id)
    money = found["money"]
    assert money["wagered"] == report["total"]["wagered"] > 0
    assert money["win"] == report["total"]["house_win"]
    assert money["hold"] == report["hold"]
    assert money["win_corrected"] == report["after_corrections"]["house_win"] == \
        money["win"] - 40
    assert money["theoretical"] == report["theoretical"] and money["theoretical"]["available"]
    assert money["drop"] == report["inventory"]["buy_ins"] == 0  # the buy-ins
    assert found["rounds_last_hour"] == report["rounds"]["total"] == 3
    assert found["dealer"]["name"] == "Carla" and found["stage"]["code"] == "paid"
    assert [d["name"] for d in report["dealers"]] == ["Carla"]
    assert report["dealers"][0]["rounds"] == 3 and report["dealers"][0]["disputes_upheld"] == 1


def test_a_poker_tables_floor_figures_agree_with_its_report(session: Session,
                                                            floor: Floor) -> None:
    table = poker_tables.open_table(session, name="PK 1", profile="draw32-limit",
                                    stakes={"small_blind": 10}, seat_count=4)
    shift, _ = inventory.open_shift_with_count(
        session, table_id=table.id, actor_id=floor.pit_boss, croupier_id=floor.croupier2,
        pit_boss_id=floor.pit_boss, chips={"100": 100}, credential=SIGNED)
    for n, name in enumerate(("Ann", "Bob")):
        poker_tables.seat_player(session, table.id, seat=str(n + 1), player=name, buy_in=500)
    hand = poker_hands.start_hand(session, table_id=table.id, user_id=floor.croupier2)
    session.commit()
    data = floor_service.floor(session, pit=None, now=utcnow(), settings=QUIET)
    found = next(t for t in data["tables"] if t["name"] == "PK 1")
    report = reports.build_shift_report(session, shift.id)
    assert found["money"]["drop"] == report["chips"]["bought_in"] == 1000
    assert found["money"]["win"] == report["rake"]["collected"]
    assert found["stage"]["code"] == "betting" and found["stage"]["number"] == 1
    assert found["stage"]["poker"]["pot"] == hand.state.pot > 0
    assert found["dealer"]["name"] == "Dimitri"


def test_the_stage_follows_the_round(session: Session, floor: Floor) -> None:
    assert card(session, floor)["stage"]["code"] == "waiting"
    rnd = start_round(session, table_id=floor.table_id, actor_id=floor.croupier,
                           boxes=[live.BoxStake("1", 100)], idempotency_key="s")
    session.commit()
    seen = [card(session, floor)["stage"]["code"]]
    for n, (type, payload) in enumerate(STEPS):
        if payload.get("box") == "2":
            continue
        record_step(session, round_id=rnd.round.id, actor_id=floor.croupier, type=type,
                         payload=payload, idempotency_key=f"k{n}")
        session.commit()
        seen.append(card(session, floor)["stage"]["code"])
    pay_round(session, round_id=rnd.round.id, actor_id=floor.croupier, idempotency_key="p")
    session.commit()
    seen.append(card(session, floor)["stage"]["code"])
    # start, box 1 dealt, dealer dealt, box 1 bets (everyone decided: the reveal), the reveal
    # (no game: take the ANTE or buy), the ANTE taken (pay out), paid
    assert seen == ["placing", "placing", "deciding", "reveal", "reveal", "showdown", "paid"]


# --- one test per alert ------------------------------------------------------------------------

def test_a_payout_at_or_over_the_threshold_raises_the_payout_alert(session: Session,
                                                                   floor: Floor) -> None:
    play(session, floor)  # box 2 is paid 100, box 1 50
    at_100 = replace(QUIET, payout_alert=100)
    assert codes(card(session, floor, settings=at_100)) == ["payout"]
    alert = card(session, floor, settings=at_100)["alerts"][0]
    assert (alert["amount"], alert["round"], alert["box"]) == (100, 1, "2")
    assert codes(card(session, floor, settings=replace(QUIET, payout_alert=101))) == []
    later = utcnow() + timedelta(hours=1)  # out of the alert window
    assert "payout" not in codes(card(session, floor, now=later, settings=at_100))


def test_a_frozen_table_raises_the_frozen_alert(session: Session, floor: Floor) -> None:
    rid = play(session, floor, pay=False)
    assert "frozen" not in codes(card(session, floor))
    voids.request_change(session, round_id=rid, kind="void", reason="misdeal",
                         actor_id=floor.croupier)
    session.commit()
    found = card(session, floor)
    assert found["stage"]["code"] == "frozen" and codes(found) == ["frozen"]


def test_an_open_dispute_raises_the_dispute_alert(session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    dispute = file(session, floor, rid)
    session.commit()
    assert codes(card(session, floor)) == ["dispute"]
    disputes.decide(session, dispute_id=dispute.id, outcome="denied", note="camera",
                    actor_id=floor.pit_boss)
    session.commit()
    assert codes(card(session, floor)) == []


def test_a_hold_outside_the_range_raises_the_hold_alert(session: Session, floor: Floor,
                                                        app: Flask) -> None:
    for _ in range(3):
        play(session, floor)  # the players win every box: far below a 60 % edge
    _edge(session, 0.60)
    found = card(session, floor)
    assert found["money"]["theoretical"]["outside"] and codes(found) == ["hold"]
    # every box's result is the same (the house loses its ANTE): an edge of -100 % expects
    # exactly that, and the (zero-width) range holds it
    _edge(session, -1.0)
    assert codes(card(session, floor)) == []


def test_a_dealer_past_his_interval_raises_the_rotation_alert(session: Session,
                                                              floor: Floor) -> None:
    start = stints.current(session, floor.shift_id).started_at  # type: ignore[union-attr]
    assert codes(card(session, floor, now=start + timedelta(minutes=39))) == []
    found = card(session, floor, now=start + timedelta(minutes=40))
    assert codes(found) == ["rotation"] and found["dealer"]["due"]
    tables.set_rotation(session, floor.table_id, 60)
    session.commit()
    assert codes(card(session, floor, now=start + timedelta(minutes=40))) == []


def test_no_round_for_n_minutes_raises_the_idle_alert(session: Session, floor: Floor) -> None:
    rid = play(session, floor)
    last = session.get(Round, rid).opened_at  # type: ignore[union-attr]
    idle = replace(QUIET, idle=timedelta(minutes=15))
    ten = last + timedelta(minutes=10)
    assert codes(card(session, floor, now=ten, settings=idle)) == []
    found = card(session, floor, now=last + timedelta(minutes=16), settings=idle)
    assert codes(found) == ["idle"] and found["alerts"][0]["minutes"] == 16


def test_a_relieved_dealer_is_listed_on_break(session: Session, floor: Floor) -> None:
    reliefs.relieve(session, table_id=floor.table_id,
                    relief=reliefs.Relief(floor.croupier2, SIGNED))
    session.commit()
    data = floor_service.floor(session, pit="A", now=utcnow() + timedelta(minutes=12),
                               settings=QUIET)
    assert [(b["name"], b["minutes"], b["table"]) for b in data["breaks"]] == [
        ("Carla", 12, "RP 1")]
    assert data["tables"][0]["dealer"]["name"] == "Dimitri"


def test_the_floor_card_shows_the_win_after_a_paid_disputes_adjustment(
        session: Session, floor: Floor, app: Flask) -> None:
    """The floor's win ignored a paid dispute's adjustment (-59,850 on the
    floor, the report's -59,860 after corrections). The card's Win and Win / wagered are the
    report's figures after corrections; /floor/data keeps ``win`` (before) beside them."""
    import re

    from dealer_assist.i18n import formats
    from tests.web.conftest import Browser

    rounds = [play(session, floor) for _ in range(3)]
    dispute = file(session, floor, rounds[0])
    disputes.decide(session, dispute_id=dispute.id, outcome="upheld", adjustment=40,
                    note="camera", actor_id=floor.pit_boss)
    session.commit()
    report = reports.build_shift_report(session, floor.shift_id)
    after = report["after_corrections"]
    assert after["house_win"] == report["total"]["house_win"] - 40
    session.commit()  # the pages below write (the login): end this session's transaction
    browser = Browser(app.test_client())
    browser.login("pavel")
    page = browser.get("/floor?pit=A").get_data(as_text=True)
    shown = re.search(r'data-fig="win">([^<]*)<', page)
    assert shown and shown.group(1).strip() == formats.amount(after["house_win"])
    hold = re.search(r'data-fig="hold">([^<]*)<', page)
    assert hold and hold.group(1).strip() == \
        f"{after['hold']['percent']} %".replace("-", "−")
    data = browser.get("/floor/data?pit=A").get_json()["tables"][0]["money"]
    assert (data["win"], data["win_corrected"], data["hold_corrected"]) == \
        (report["total"]["house_win"], after["house_win"], after["hold"])


def test_the_shift_chart_ends_at_the_last_settled_rounds_number(
        session: Session, floor: Floor, app: Flask) -> None:
    """The shift chart ended "round 8 · end of shift" when round 9 was the
    last settled (8 was voided): it counted the settled rounds and called the count a round
    number. Its ends are the first and last settled rounds' numbers."""
    from dealer_assist import pdf

    rounds = [play(session, floor) for _ in range(3)]
    void = voids.request_change(session, round_id=rounds[0], kind="void",
                                reason="wrong cards dealt", actor_id=floor.croupier)
    voids.decide_change(session, request_id=void.id, approve=True, note="camera",
                        actor_id=floor.manager)
    session.commit()
    data = reports.build_shift_report(session, floor.shift_id)
    assert data["cumulative_rounds"] == [2, 3] and len(data["cumulative"]) == 2
    chart = pdf.report_context(data, "0" * 64)["chart"]
    assert (chart["first"], chart["last"]) == (2, 3)
    with app.test_request_context("/"):
        html = pdf.report_html(data, "0" * 64)
    assert "round 2</text>" in html and "round 3 · end of shift" in html
    assert "round 1</text>" not in html
