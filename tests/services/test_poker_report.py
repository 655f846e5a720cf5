"""The shift report of a poker table (part 4) on SQLite and PostgreSQL: a shift of a
4-player limit 32-card draw table with a showdown, a hand won on the blinds, a voided misdeal, a
rebuy, a player leaving, a fill, a denied and an upheld dispute, closed with its count.

Every figure is checked against sums taken here with plain SQL and the stored settlement JSON,
in the data and in the PDF's text; the PDF is rendered to PNG under
``test-artifacts/reports/poker-<database>/`` for a human to look at."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from sqlalchemy import text
from sqlmodel import Session

from dealer_assist import create_app, pdf
from dealer_assist.services import reports
from dealer_assist.services.disputes import disputes
from dealer_assist.services.rounds import poker_hands
from dealer_assist.services.rounds import voids as void_service
from dealer_assist.services.shifts import inventory, shifts
from dealer_assist.services.tables import poker as poker_tables
from tests.conftest import FAST_ARGON2
from tests.factories import SIGNED, cage_issue, make_user
from tests.services.test_poker_records import _showdown
from tests.services.test_poker_tables import _fold_out

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "reports"
OPENING, FILL = 10_000, 2_000


def _play_shift(session: Session) -> dict[str, int]:
    people = {name: make_user(session, name, role).id for name, role in (
        ("carla", "croupier"), ("dimitri", "croupier"), ("pia", "pit_boss"),
        ("sam", "shift_manager"))}
    table = poker_tables.open_table(session, name="PK 1", profile="draw32-limit",
                                    stakes={"small_blind": 10}, seat_count=5)
    shift = shifts.open_shift(session, table_id=table.id, user_id=people["carla"])
    inventory.record_opening_count(session, credential=SIGNED, shift_id=shift.id, amount=OPENING,
                                   croupier_id=people["carla"], pit_boss_id=people["pia"],
                                   actor_id=people["pia"])
    for seat, name in zip("1234", ("Ann", "Bob", "Cy", "Dee"), strict=True):
        poker_tables.seat_player(session, table.id, seat=seat, player=name, buy_in=1000)
    inventory.record_transfer(session, credential=SIGNED,
                              issue_id=cage_issue(session, shift.id, "fill", FILL),
                              shift_id=shift.id, kind="fill", amount=FILL,
                              croupier_id=people["carla"], pit_boss_id=people["pia"],
                              actor_id=people["pia"])
    first = _showdown(session, table.id, people["carla"])  # 400 to seat 1 (three queens)
    _fold_out(session, table.id, people["carla"])  # button 2: the blinds to the over blind
    misdeal = poker_hands.start_hand(session, table_id=table.id, user_id=people["carla"])
    asked = void_service.request_change(session, round_id=misdeal.round.id, kind="void",
                                        reason="Misdeal: a card flashed", actor_id=people["carla"])
    void_service.decide_change(session, request_id=asked.id, approve=True, note="",
                               actor_id=people["pia"])
    denied = disputes.file_dispute(session, round_id=first.round.id, box="2", claim="Aces up "
                                   "won", claimed_amount=400, croupier_note="",
                                   actor_id=people["carla"])
    disputes.decide(session, dispute_id=denied.id, outcome="denied", note="Three queens win",
                    actor_id=people["pia"])
    upheld = disputes.file_dispute(session, round_id=first.round.id, box="4", claim="Mucked "
                                   "by the dealer", claimed_amount=40, croupier_note="",
                                   actor_id=people["carla"])
    disputes.decide(session, dispute_id=upheld.id, outcome="upheld", adjustment=40,
                    note="Camera 2: the dealer mucked it", actor_id=people["sam"])
    poker_tables.rebuy(session, table.id, "3", 500)
    poker_tables.set_status(session, table.id, "2", "left")
    session.commit()
    sold = 4 * 1000 + 500
    inventory.close_shift(session, credential=SIGNED,
                          shift_id=shift.id, croupier_id=people["dimitri"],
                          pit_boss_id=people["pia"], actor_id=people["pia"],
                          closing_amount=OPENING + FILL - sold - 40)  # 40 paid from the tray
    session.commit()
    return {"shift": shift.id, "table": table.id}


def _independent(session: Session, shift_id: int) -> dict[str, Any]:
    """Sums taken with SQL and the stored JSON, never through the report code."""
    def one(query: str) -> int:
        return int(session.execute(text(query), {"s": shift_id}).scalar() or 0)

    settlements = [json.loads(r[0]) for r in session.execute(text(
        "SELECT s.settlement FROM round_settlement s JOIN game_round r ON r.id = s.round_id "
        "WHERE r.shift_id = :s AND r.status = 'settled'"), {"s": shift_id})]
    pots = sorted((p["amount"] for s in settlements for p in s["pots"]), reverse=True)
    return {"hands": one("SELECT count(*) FROM game_round WHERE shift_id = :s"),
            "voided": one("SELECT count(*) FROM game_round WHERE shift_id = :s "
                          "AND status = 'voided'"),
            "sold": one("SELECT sum(amount) FROM poker_chip_move WHERE shift_id = :s "
                        "AND kind IN ('buy_in', 'rebuy')"),
            "cashed": one("SELECT sum(amount) FROM poker_chip_move WHERE shift_id = :s "
                          "AND kind = 'cash_out'"),
            "players": one("SELECT count(DISTINCT seat) FROM poker_chip_move "
                           "WHERE shift_id = :s"),
            "pots": pots, "rake": sum(s["rake"] for s in settlements)}


@pytest.fixture
def built(session: Session, db_url: str) -> dict[str, Any]:
    ids = _play_shift(session)
    data, sha = reports.report_with_digest(session, ids["shift"])
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": db_url,
                      **FAST_ARGON2})
    with app.app_context():
        html = pdf.report_html(data, sha, page_size="a4")
    body = pdf.html_to_pdf(html, static_dir=app.static_folder or "")
    pages = [p.extract_text() or "" for p in PdfReader(io.BytesIO(body)).pages]
    return {"data": data, "pdf": body, "text": " ".join(" ".join(pages).split()),
            "ind": _independent(session, ids["shift"]), "db": db_url}


def test_the_poker_report_counts_hands_players_chips_and_pots_as_the_database_holds_them(
        built: dict[str, Any]) -> None:
    r, ind = built["data"], built["ind"]
    assert r["schema"] == "dealer_assist/poker-shift-report/1"
    assert (r["hands"]["dealt"], r["hands"]["voided"]) == (ind["hands"], ind["voided"]) == (3, 1)
    assert r["chips"]["bought_in"] == ind["sold"] == 4500
    assert r["chips"]["cashed_out"] == ind["cashed"] > 0
    assert len(r["players"]) == ind["players"] == 4
    assert r["pots"]["total"] == sum(ind["pots"])
    assert [p["amount"] for p in r["pots"]["largest"]] == ind["pots"]
    award = r["pots"]["largest"][0]["awards"]
    assert [(a["seat"], a["amount"]) for a in award] == [("1", 400)]
    assert award[0]["hand"].startswith("Three of a kind")
    assert award[0]["hand_value"]["category"] == "three_of_a_kind"  # named by the reader's PDF
    assert r["rake"]["collected"] == ind["rake"] == 0  # the default profiles take no rake
    assert sum(p["net"] for p in r["players"]) == -r["rake"]["collected"]


def test_the_tray_changes_only_by_rake_and_chips_sold_and_the_variance_is_zero(
        built: dict[str, Any]) -> None:
    inv = built["data"]["inventory"]
    assert inv["win"] == -4500 - 40 and inv["expected"] == 0 - 4500
    assert inv["variance"] == -40 and inv["variance_corrected"] == 0


def test_disputes_voids_and_signatures_are_in_the_poker_report_and_its_pdf(
        built: dict[str, Any]) -> None:
    r, pdf_text = built["data"], built["text"]
    assert [(d["box"], d["status"], d["adjustment"]) for d in r["disputes"]["items"]] == [
        ("2", "denied", 0), ("4", "upheld", 40)]
    assert [v["reason"] for v in r["voids"]] == ["Misdeal: a card flashed"]
    assert [s["role"] for s in r["signatures"]] == ["Croupier", "Pit boss", "Shift manager"]
    for needle in ("Poker table · 32-card draw", "small blind 10, big blind 20, over blind 40",
                   "CHIPS SOLD 4,500", "TOTAL POTS 450",
                   "Ten largest pots", "Main pot 400 seat 1 400", "Three of a kind",
                   "Expected change of the tray −4,500", "Variance after corrections 0",
                   "Misdeal: a card flashed", "RAKE 0", "Dimitri", "Signatures"):
        assert needle in pdf_text, needle


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_the_poker_report_pages_are_rendered_to_png_for_review(built: dict[str, Any]) -> None:
    out = ARTIFACTS / ("poker-sqlite" if built["db"].startswith("sqlite") else "poker-postgres")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "poker-shift-a4.pdf").write_bytes(built["pdf"])
    subprocess.run(["pdftoppm", "-r", "80", "-png", str(out / "poker-shift-a4.pdf"),
                    str(out / "page")], check=True, timeout=120)
    assert sorted(out.glob("page-*.png"))


def test_the_poker_report_is_printed_in_russian_for_a_russian_reader(
        session: Session, db_url: str) -> None:
    """The poker shift report PDF in Russian: the game, the stakes, the roles."""
    from flask_babel import force_locale

    ids = _play_shift(session)
    data, sha = reports.report_with_digest(session, ids["shift"])
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": db_url,
                      **FAST_ARGON2})
    with app.test_request_context(), force_locale("ru"):
        html = pdf.report_html(data, sha, page_size="a4")
    body = pdf.html_to_pdf(html, static_dir=app.static_folder or "")
    text = " ".join(" ".join(p.extract_text() or "" for p in
                             PdfReader(io.BytesIO(body)).pages).split())
    assert "Отчёт смены" in text and "Дро-покер на 32 картах" in text
    assert "малый блайнд" in text and "большой блайнд" in text and "крупье" in text
    assert "Тройка дам" in text  # the largest pot's hand, named in Russian
    for english in ("small blind", "big blind", "32-card draw", "croupier", "Shift report",
                    "Three of a kind", "Shift manager", "Pit boss"):
        assert english not in text, english
    if db_url.startswith("sqlite"):  # the first page as an image, to look at
        out = ARTIFACTS / "poker-ru"
        out.mkdir(parents=True, exist_ok=True)
        (out / "poker-shift-ru.pdf").write_bytes(body)
        subprocess.run(["pdftoppm", "-r", "80", "-png", "-f", "1", "-l", "1",
                        str(out / "poker-shift-ru.pdf"), str(out / "page")], check=True)


def test_each_players_time_played_runs_from_his_sit_down_to_his_leave_or_last_hand(
        built: dict[str, Any], session: Session) -> None:
    """The poker report's time played per player, on the ratings' definition: from the
    sit-down (tapped in this shift) to the leave when tapped, else to the end of his last hand;
    recomputed here with SQL."""
    from datetime import UTC, datetime

    def aware(value: Any) -> datetime:
        value = datetime.fromisoformat(value) if isinstance(value, str) else value
        return value if value.tzinfo else value.replace(tzinfo=UTC)

    shift = built["data"]["shift"]["id"]
    ends = {rid: aware(at) for rid, at in session.execute(text(
        "SELECT e.round_id, max(e.created_at) FROM round_event e JOIN game_round r "
        "ON r.id = e.round_id WHERE r.shift_id = :s AND r.status = 'settled' "
        "GROUP BY e.round_id"), {"s": shift})}
    last = max(ends.values())
    seats = {seat: (aware(sat), aware(left) if left else None) for seat, sat, left in
             session.execute(text("SELECT seat, seated_at, left_at FROM poker_seat"))}
    got = {p["seat"]: p for p in built["data"]["players"]}
    assert seats["2"][1] is not None  # Bob left: his leave was tapped
    for seat, (sat, left) in seats.items():
        want = int(((left or last) - sat).total_seconds())
        assert got[seat]["seconds"] == want, seat
        assert datetime.fromisoformat(got[seat]["started"]) == sat.replace(microsecond=0)
    assert "Time played" in built["text"]
