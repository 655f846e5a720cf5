"""The end-of-shift report, on SQLite and PostgreSQL: a 12-hour shift of hundreds of random legal
Russian poker rounds recorded through the services, closed with its inventory, then reported.

Every total is checked against an independent aggregate computed here from the stored
settlement JSON and plain SQL (never through the report code), in the report data and in the
text of the PDF. Also: notes are text (no markup, nothing fetched), the fetcher serves only the
app's static files, the time limit holds, the report data is deterministic, and the pages are
turned into PNGs under ``test-artifacts/reports/`` for a human to look at.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from pypdf import PdfReader
from sqlalchemy import text
from sqlmodel import Session

from dealer_assist import create_app, pdf
from dealer_assist.db import make_engine, upgrade
from dealer_assist.services import reports
from dealer_assist.services.disputes import disputes
from dealer_assist.services.errors import NotFound
from dealer_assist.services.people import passwords, stints
from dealer_assist.services.rounds import voids
from dealer_assist.services.shifts import inventory
from tests.conftest import DATABASES, FAST_ARGON2
from tests.factories import SIGNED
from tests.services.conftest_reports import (
    RATED,
    T0,
    Floor,
    make_floor,
    open_inventory,
    play_shift,
    stored_settlements,
)

ROUNDS = 240
VARIANCE = -35
CLAIM = "Paid as a straight; it was a flush"
CORRECTION = "Ante overpaid by 40, taken back"
VOID_REASON = "Misdeal: the dealer exposed a card"
NOTE = '<img src="file:///etc/passwd"> see http://evil.example/x.png'
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "reports"
STATIC_CSS = pdf.BASE_URL + "static/report.css"


# --- one big shift per database, built once per module ------------------------------------------

@pytest.fixture(scope="module", params=DATABASES)
def shift_db(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database holding one closed shift of ``ROUNDS`` rounds (read-only in tests)."""
    passwords.configure(time_cost=1, memory_kib=64)
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('reports') / 'shift.sqlite3'}"
    else:
        server = request.getfixturevalue("postgres_server")
        name = f"reports_{os.getpid()}"
        server.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        server.admin(f"CREATE DATABASE {name}")
        url = server.url(name)
    engine = make_engine(url)
    upgrade(engine)
    with Session(engine, expire_on_commit=False) as session:
        floor = make_floor(session)
        open_inventory(session, floor, opening=200_000, fills=(50_000, 25_000),
                       credits=(20_000,), note=NOTE)
        play_shift(session, floor, ROUNDS, seed=2026, void_rate=0.02)
        session.commit()
        _after_payment(session, floor)
        session.commit()
        win = -sum(sum(b["net"] for b in s["boxes"])
                   for s in stored_settlements(session, floor.shift_id))
        moved = int(session.execute(text("SELECT coalesce(sum(amount), 0) FROM round_correction "
                                         "WHERE shift_id = :s"), {"s": floor.shift_id}).scalar())
        closing = 200_000 + (win - moved) - 20_000 + 75_000 + VARIANCE
        inventory.close_shift(session, credential=SIGNED,
                              shift_id=floor.shift_id, closing_amount=closing,
                              croupier_id=floor.croupier2, pit_boss_id=floor.pit_boss,
                              actor_id=floor.pit_boss, note="all chips racked",
                              now=T0 + timedelta(hours=12, minutes=20))
        session.commit()
    engine.dispose()
    yield url


def _after_payment(session: Session, floor: Floor) -> None:
    """Through the real services, each decided by someone who did not deal or ask: a dispute
    upheld for 150 then superseded by 120 (a reversal), an after-payment correction taking back
    40, a rejected correction (no money moves) and an approved void of a settled round. The
    croupier at the table now asks (rule 5): Dimitri, whose turn is the shift's last."""
    settled = [r[0] for r in session.execute(text(
        "SELECT id FROM game_round WHERE shift_id = :s AND status = 'settled' ORDER BY number"),
        {"s": floor.shift_id})]
    at = T0 + timedelta(hours=11)
    dealer = floor.croupier2
    assert stints.current_dealer_id(session, floor.shift_id) == dealer
    filed = disputes.file_dispute(session, round_id=settled[3], box="1", claim=CLAIM,
                                  claimed_amount=150, croupier_note="", actor_id=dealer,
                                  now=at)
    disputes.decide(session, dispute_id=filed.id, outcome="upheld", note="camera 4: a flush",
                    adjustment=150, actor_id=floor.pit_boss, now=at + timedelta(minutes=5))
    disputes.decide(session, dispute_id=filed.id, outcome="upheld", note="paid at 12 to 1",
                    adjustment=120, actor_id=floor.manager, now=at + timedelta(minutes=9))
    fix = voids.request_change(session, round_id=settled[9], kind="correction", box="1",
                               amount=-40, reason=CORRECTION, actor_id=dealer,
                               now=at + timedelta(minutes=12))
    voids.decide_change(session, request_id=fix.id, approve=True, note="",
                        actor_id=floor.pit_boss, now=at + timedelta(minutes=14))
    no = voids.request_change(session, round_id=settled[11], kind="correction", box="1",
                              amount=-999, reason="Wrong, refused", actor_id=dealer,
                              now=at + timedelta(minutes=15))
    voids.decide_change(session, request_id=no.id, approve=False, note="the pay was right",
                        actor_id=floor.pit_boss, now=at + timedelta(minutes=16))
    void = voids.request_change(session, round_id=settled[20], kind="void", reason=VOID_REASON,
                                actor_id=dealer, now=at + timedelta(minutes=20))
    voids.decide_change(session, request_id=void.id, approve=True, note="seen on camera 2",
                        actor_id=floor.manager, now=at + timedelta(minutes=22))


@pytest.fixture(scope="module")
def report_app(shift_db: str) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": shift_db,
                       **FAST_ARGON2})


@pytest.fixture(scope="module")
def built(shift_db: str, report_app: Flask) -> dict[str, Any]:
    """The report data, its digest, its HTML, the A4 PDF, its text and the URLs fetched."""
    engine = make_engine(shift_db)
    with Session(engine) as session:
        data, sha = reports.report_with_digest(session, 1)
        independent = _independent(session, 1)
    engine.dispose()
    with report_app.app_context():
        html = pdf.report_html(data, sha, page_size="a4")
    body, asked = pdf.html_to_pdf_with_log(html, static_dir=report_app.static_folder or "")
    reader = PdfReader(io.BytesIO(body))
    pages = [page.extract_text() or "" for page in reader.pages]
    return {"data": data, "sha": sha, "html": html, "pdf": body, "asked": asked,
            "pages": pages, "text": " ".join(" ".join(pages).split()), "ind": independent,
            "reader": reader}


def _independent(session: Session, shift_id: int) -> dict[str, Any]:
    """Totals computed here, from the stored settlement JSON and SQL, not by the report code."""
    settled = stored_settlements(session, shift_id)
    wagers: dict[str, dict[str, int]] = {}
    payouts = []
    for s in settled:
        for box in s["boxes"]:
            for name, w in box["wagers"].items():
                line = wagers.setdefault(name, {"boxes": 0, "wagered": 0, "collected": 0,
                                                "paid": 0})
                line["boxes"] += 1 if w["stake"] > 0 else 0
                line["wagered"] += w["stake"]
                line["collected"] += max(-w["net"], 0)
                line["paid"] += max(w["net"], 0)
            if box["net"] > 0:  # what the croupier paid: the box's net
                payouts.append(box["net"])
    sql = {k: session.execute(text(q), {"s": shift_id}).scalar() for k, q in {
        "rounds": "SELECT count(*) FROM game_round WHERE shift_id = :s",
        "settled": "SELECT count(*) FROM game_round WHERE shift_id = :s AND status = 'settled'",
        "voided": "SELECT count(*) FROM game_round WHERE shift_id = :s AND status = 'voided'",
        "fills": "SELECT coalesce(sum(amount), 0) FROM chip_transfer "
                 "WHERE shift_id = :s AND kind = 'fill'",
        "credits": "SELECT coalesce(sum(amount), 0) FROM chip_transfer "
                   "WHERE shift_id = :s AND kind = 'credit'",
        "opening": "SELECT amount FROM inventory_count WHERE shift_id = :s AND kind = 'opening'",
        "closing": "SELECT amount FROM inventory_count WHERE shift_id = :s AND kind = 'closing'",
        "undos": "SELECT count(*) FROM round_event e JOIN game_round r ON r.id = e.round_id "
                 "WHERE r.shift_id = :s AND e.type = 'undo'",
    }.items()}
    corrections = [dict(r._mapping) for r in session.execute(text(
        "SELECT g.number, c.box, c.amount, c.source, c.reason, a.display_name AS approver "
        "FROM round_correction c JOIN game_round g ON g.id = c.round_id "
        "JOIN user_account a ON a.id = c.approved_by WHERE c.shift_id = :s ORDER BY c.id"),
        {"s": shift_id})]
    voided = [dict(r._mapping) for r in session.execute(text(
        "SELECT g.number, q.reason, u.display_name AS requester, a.display_name AS approver "
        "FROM round_change_request q JOIN round_change_decision d ON d.request_id = q.id "
        "JOIN game_round g ON g.id = q.round_id JOIN user_account u ON u.id = q.requested_by "
        "JOIN user_account a ON a.id = d.decided_by "
        "WHERE q.shift_id = :s AND q.kind = 'void' AND d.approved ORDER BY q.id"),
        {"s": shift_id})]
    rated = [b for s in settled for b in s["boxes"]
             if (b.get("player") or {}).get("card") == RATED]
    total_wagered = sum(w["wagered"] for w in wagers.values())
    house = sum(w["collected"] - w["paid"] for w in wagers.values())
    return {"wagers": wagers, "wagered": total_wagered, "house": house, "sql": sql,
            "corrections": {"rows": corrections,
                            "player": sum(c["amount"] for c in corrections)},
            "voided": voided,
            "no_game": sum(1 for s in settled if not s["dealer"]["qualified"]),
            "settled": len(settled), "boxes": sum(len(s["boxes"]) for s in settled),
            "rated": {"boxes": len(rated),
                      "antes": sum(int(b["wagers"]["ante"]["stake"]) for b in rated),
                      "initial": sum(b["wagers"][w]["stake"] for b in rated
                                     for w in ("ante", "bonus")),
                      "wagered": sum(w["stake"] for b in rated for w in b["wagers"].values()),
                      "win": -sum(b["net"] for b in rated)},
            "top": sorted(payouts, reverse=True)[:10],
            "capped": sum(1 for s in settled for b in s["boxes"] if b["capped"]),
            "capped_wagers": sum(1 for s in settled for b in s["boxes"] if b["capped"]
                                 for w in b["wagers"].values()
                                 if "capped at" in w["explanation"] and w["net"] > 0)}


def m(value: int) -> str:
    """Money as the PDF prints it."""
    return f"{value:,}".replace("-", "\u2212")


# --- totals: data and PDF text against independent aggregates -----------------------------------

def test_the_shift_has_hundreds_of_rounds_with_voids_and_corrections(built: dict[str, Any]) -> None:
    sql = built["ind"]["sql"]
    assert sql["rounds"] == ROUNDS and sql["settled"] >= 200
    assert sql["voided"] >= 1 and sql["undos"] >= 1


def test_every_wager_line_equals_the_sum_over_the_stored_settlements(
        built: dict[str, Any]) -> None:
    ind, data = built["ind"], built["data"]
    got = {w["wager"]: {k: w[k] for k in ("boxes", "wagered", "collected", "paid")}
           for w in data["wagers"]}
    assert got == ind["wagers"]
    for w in data["wagers"]:
        row = (f"{w['title']} {m(w['boxes'])} {m(w['wagered'])} {m(w['collected'])} "
               f"{m(w['paid'])} {m(w['collected'] - w['paid'])}")
        assert row in built["text"], row


def test_the_total_house_win_and_hold_in_the_pdf_match_the_independent_sums(
        built: dict[str, Any]) -> None:
    ind, text_ = built["ind"], built["text"]
    assert built["data"]["total"]["house_win"] == ind["house"]
    assert built["data"]["total"]["wagered"] == ind["wagered"]
    hundredths = (2 * ind["house"] * 10000 + ind["wagered"]) // (2 * ind["wagered"])
    hold = f"{hundredths // 100}.{hundredths % 100:02d}"
    assert f"Total {m(ind['wagered'])}" in text_
    assert f"= {m(ind['house'])} ÷ {m(ind['wagered'])} = {hold} %" in text_.replace(
        "house win ÷ wagered ", "")


def test_round_box_and_no_game_counts_in_the_pdf_match_sql(built: dict[str, Any]) -> None:
    ind, text_ = built["ind"], built["text"]
    assert f"ROUNDS {m(ind['sql']['settled'])} settled · {ind['sql']['voided']} voided" in text_
    assert f"BOXES PLAYED {m(ind['boxes'])}" in text_
    assert f"no game in {m(ind['no_game'])} of {m(ind['settled'])} settled rounds" in text_


def test_the_ten_largest_payouts_are_the_ten_largest_amounts_paid_to_a_box(
        built: dict[str, Any]) -> None:
    assert [p["paid"] for p in built["data"]["largest_payouts"]] == built["ind"]["top"]
    capped = built["data"]["capped"]
    assert len({(c["round"], c["box"]) for c in capped}) == built["ind"]["capped"]
    assert len(capped) == max(built["ind"]["capped_wagers"], built["ind"]["capped"])
    assert all(c["paid"] <= c["cap"] for c in capped)


def test_the_inventory_win_and_its_variance_match_the_counts_and_transfers(
        built: dict[str, Any]) -> None:
    sql, inv, text_ = built["ind"]["sql"], built["data"]["inventory"], built["text"]
    win = sql["closing"] - sql["opening"] + sql["credits"] - sql["fills"]
    assert (inv["fills"], inv["credits"], inv["win"]) == (sql["fills"], sql["credits"], win)
    moved = built["ind"]["corrections"]["player"]
    assert inv["variance_corrected"] == win - (built["ind"]["house"] - moved) == VARIANCE
    assert inv["variance"] == win - built["ind"]["house"] == VARIANCE - moved
    # the tray's change plus the drop recorded at the table (none here) is the win
    assert f"Tray (closing − opening + credits − fills) {m(win)}" in text_
    assert f"Table win {m(win)}" in text_
    assert f"Variance (table − computed) {m(VARIANCE - moved)}" in text_
    assert f"Variance (table − after corrections) {m(VARIANCE)}" in text_


def test_the_signature_lines_name_the_closing_signers_in_their_roles_and_leave_the_manager_blank(
        built: dict[str, Any]) -> None:
    assert "Croupier · Dimitri" in built["text"] and "Pit boss · Pavel" in built["text"]
    assert "Shift manager Name, signature, date" in built["text"]


# --- layout -------------------------------------------------------------------------------------

def test_every_page_after_the_first_has_the_running_header_and_page_x_of_y(
        built: dict[str, Any]) -> None:
    pages = built["pages"]
    assert len(pages) >= 2
    for number, page in enumerate(pages, 1):
        assert f"Page {number} of {len(pages)}" in page
        if number > 1:
            assert "RP 1 · gaming date 2026-03-14 · shift 1" in page


def test_the_pdf_comes_in_a4_and_in_letter(built: dict[str, Any], report_app: Flask) -> None:
    a4 = built["reader"].pages[0].mediabox
    assert (round(float(a4.width)), round(float(a4.height))) == (595, 842)
    with report_app.app_context():
        html = pdf.report_html(built["data"], built["sha"], page_size="letter")
    letter = PdfReader(io.BytesIO(pdf.html_to_pdf(html, static_dir=report_app.static_folder
                                                  or ""))).pages[0].mediabox
    assert (round(float(letter.width)), round(float(letter.height))) == (612, 792)


def test_the_chart_is_one_inline_svg_with_a_point_per_round(built: dict[str, Any]) -> None:
    svgs = re.findall(r"<svg.*?</svg>", built["html"], re.S)
    assert len(svgs) == 1
    points = re.search(r'<polyline points="([^"]+)"', svgs[0])
    assert points and len(points.group(1).split()) == built["ind"]["settled"] + 1


# --- escaping and fetching ----------------------------------------------------------------------

def test_a_note_with_markup_renders_as_text_and_nothing_outside_static_is_fetched(
        built: dict[str, Any]) -> None:
    assert built["asked"] == [STATIC_CSS]
    assert "&lt;img src=&#34;file:///etc/passwd&#34;&gt;" in built["html"]
    assert '<img src="file:///etc/passwd">' in built["text"]


def test_the_fetcher_refuses_local_files_remote_urls_and_escapes_from_static(
        report_app: Flask) -> None:
    html = ('<link rel="stylesheet" href="static/report.css">'
            '<link rel="stylesheet" href="http://example.com/x.css">'
            '<img src="file:///etc/passwd"><img src="static/../../../etc/passwd">'
            '<img src="https://example.com/a.png"><img src="data:image/gif;base64,'
            'R0lGODlhAQABAAAAACw=">')
    body, asked = pdf.render_in_process(html, report_app.static_folder or "")
    assert body.startswith(b"%PDF")
    served = [u for u in asked if u.startswith((STATIC_CSS, "data:"))]
    refused = [u for u in asked if u not in served]
    assert STATIC_CSS in served and any(u.startswith("data:") for u in served)
    assert {"http://example.com/x.css", "file:///etc/passwd",
            "https://example.com/a.png"} <= set(refused)
    assert not any(u.startswith(STATIC_CSS) and "passwd" in u for u in served)


def test_a_render_that_exceeds_its_time_limit_is_abandoned(report_app: Flask) -> None:
    html = "<table>" + "<tr><td>x</td></tr>" * 200_000 + "</table>"
    with pytest.raises(pdf.RenderTimeout):
        pdf.html_to_pdf(html, static_dir=report_app.static_folder or "", timeout=0.5)


# --- determinism --------------------------------------------------------------------------------

def test_the_same_shift_gives_the_same_canonical_json_and_sha256(shift_db: str,
                                                                built: dict[str, Any]) -> None:
    engine = make_engine(shift_db)
    with Session(engine) as session:
        again = reports.build_shift_report(session, 1)
    engine.dispose()
    assert reports.canonical_json(again) == reports.canonical_json(built["data"])
    assert built["sha"] == hashlib.sha256(reports.canonical_json(again)).hexdigest()
    assert built["sha"] in built["text"].replace(" ", "")


def test_an_unknown_shift_is_not_found(shift_db: str) -> None:
    engine = make_engine(shift_db)
    with Session(engine) as session, pytest.raises(NotFound):
        reports.build_shift_report(session, 999)
    engine.dispose()


@pytest.mark.parametrize(("num", "den", "shown"), [
    (1, 3, "33.33"), (2, 3, "66.67"), (1, 8, "12.50"), (-1, 8, "-12.50"), (1, 20000, "0.01"),
    (1, 40000, "0.00"), (0, 5, "0.00"), (131092, 325735, "40.24"), (7, 0, None)])
def test_a_ratio_is_shown_to_two_decimals_rounded_half_up_without_floats(
        num: int, den: int, shown: str | None) -> None:
    assert reports.percent(num, den) == shown


# --- pictures for a human -----------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_the_pages_are_rendered_to_png_for_review(built: dict[str, Any], shift_db: str) -> None:
    kind = "sqlite" if shift_db.startswith("sqlite") else "postgres"
    out = ARTIFACTS / kind
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "shift-a4.pdf").write_bytes(built["pdf"])
    subprocess.run(["pdftoppm", "-r", "80", "-png", str(out / "shift-a4.pdf"),
                    str(out / "page")], check=True, timeout=120)
    pngs = sorted(out.glob("page-*.png"))
    assert len(pngs) == len(built["pages"])
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


# --- corrections after payment and voids ----------------------------------------------

def test_the_shift_has_an_upheld_dispute_its_reversal_an_approved_correction_and_a_void(
        built: dict[str, Any]) -> None:
    rows = built["ind"]["corrections"]["rows"]
    assert [(r["source"], r["amount"]) for r in rows] == [
        ("dispute", 150), ("reversal", -150), ("dispute", 120), ("correction", -40)]
    *redeals, after_payment = built["ind"]["voided"]
    assert after_payment["reason"] == VOID_REASON
    # the others are the table's redeals: a void the croupier asked for and a pit boss approved
    assert redeals and all(v["reason"].startswith("redeal: ") for v in redeals)


def test_each_correction_is_listed_with_reason_requester_approver_and_house_amount(
        built: dict[str, Any]) -> None:
    rows, items = built["ind"]["corrections"]["rows"], built["data"]["paid_corrections"]["items"]
    assert [(i["round"], i["box"], i["house"], i["reason"], i["approved_by"]) for i in items] == [
        (r["number"], r["box"], -r["amount"], r["reason"], r["approver"]) for r in rows]
    # the croupier dealing at the table now asks, no other croupier
    assert [i["requested_by"] for i in items] == ["Dimitri", "Dimitri", "Dimitri", "Dimitri"]
    for r, i in zip(rows, items, strict=True):
        line = (f"{r['number']} {r['box']} {i['at'][11:16]} {i['kind']} {r['reason']} "
                f"{i['requested_by']} {r['approver']} {m(-r['amount'])}")
        assert line in built["text"], line


def test_the_corrections_total_and_the_win_after_corrections_equal_the_sql_aggregate(
        built: dict[str, Any]) -> None:
    moved, house = built["ind"]["corrections"]["player"], built["ind"]["house"]
    data, text_ = built["data"], built["text"]
    assert data["paid_corrections"]["house"] == -moved == -(120 - 40)
    assert data["after_corrections"]["house_win"] == house - moved
    assert f"Total corrections (house ±) {m(-moved)}" in text_
    assert f"House win after corrections {m(house - moved)}" in text_
    assert f"Win after corrections {m(house - moved)}" in text_


def test_each_croupier_deals_his_three_turns_of_40_rounds_between_the_reliefs(
        built: dict[str, Any]) -> None:
    """The two croupiers relieve each other every 40 rounds through the relief service: each
    is the dealer of record of 120 rounds, in three stints (Carla's first opens the table)."""
    lines = {d["name"]: d for d in built["data"]["dealers"]}
    assert sorted(lines) == ["Carla", "Dimitri"]
    assert [lines[n]["rounds"] for n in ("Carla", "Dimitri")] == [120, 120]
    assert [s["kind"] for s in lines["Carla"]["stints"]] == ["opening", "relief", "relief"]
    assert [s["kind"] for s in lines["Dimitri"]["stints"]] == ["relief"] * 3
    assert sum(d["voided"] for d in lines.values()) == built["ind"]["sql"]["voided"]


def test_every_voided_round_shows_the_void_requests_reason_requester_and_approver(
        built: dict[str, Any]) -> None:
    asked = {v["number"]: v for v in built["ind"]["voided"]}
    listed = {v["round"]: v for v in built["data"]["voids"]}
    assert len(listed) == built["ind"]["sql"]["voided"] and set(asked) <= set(listed)
    for number, v in asked.items():
        got = listed[number]
        assert (got["reason"], got["requested_by"], got["approved_by"]) == (
            v["reason"], v["requester"], v["approver"])
        assert f"{number} {got['at'][11:16]} {v['reason']}" in built["text"]
        assert f"{v['requester']} {v['approver']}" in built["text"]
    # a redeal at the table too is a void request a pit boss approved (the record path stores
    # no ``void`` event): asked for by the croupier dealing the round, approved by Pavel
    assert set(asked) == set(listed)
    redeals = [v for v in asked.values() if v["reason"].startswith("redeal: ")]
    assert redeals and all(v["requester"] in {"Carla", "Dimitri"} and v["approver"] == "Pavel"
                           for v in redeals)


def test_the_top_rated_player_is_box_1s_player_with_his_figures_from_the_settlements(
        built: dict[str, Any]) -> None:
    """Box 1 of every round is the rated player's; the report's top rated players
    list him with the figures summed here from the stored settlements (one box a round), and
    the PDF prints them (no theoretical figure without the lab's stored house edge)."""
    ind = built["ind"]["rated"]
    (top,) = built["data"]["top_players"]
    assert top["card"] == RATED and top["rounds"] == top["boxes"] == ind["boxes"]
    assert top["wagered"] == ind["wagered"] and top["win"] == ind["win"]
    assert top["average_bet"]["num"] == ind["initial"]
    assert top["average_bet"]["rounded"] == (2 * ind["initial"] + ind["boxes"]) // (
        2 * ind["boxes"])
    # every shipped profile's basic-strategy figure comes with the code, so the
    # rated player has a theoretical win: his ANTEs x that house edge, rounded half up
    from fractions import Fraction

    from dealer_assist.lab.strategy_store import figures
    from dealer_assist.rules.profiles import get_profile
    kept = figures(get_profile(built["data"]["theoretical"]["profile"]))
    assert kept is not None
    edge = Fraction(str(kept["strategies"]["basic"]["house_edge"]))
    assert top["theoretical"] == int(edge * ind["antes"] + Fraction(1, 2))
    assert top["decisions_differing"] is None
    text = built["text"]
    assert "Top rated players" in text and RATED in text
    assert m(ind["wagered"]) in text and m(ind["win"]) in text


def test_the_russian_report_names_hands_corrections_and_voids_in_russian(
        built: dict[str, Any], report_app: Flask) -> None:
    """"in the Russian PDF the largest-payout hands are English, the dispute
    headers 'Round/Box', the status 'denied' and '… by'; '25.00 %' with a point"."""
    from flask_babel import force_locale

    from dealer_assist.i18n.wording import hand_name

    with report_app.test_request_context("/"), force_locale("ru"):
        html = pdf.report_html(built["data"], built["sha"], printed_at="2026-03-15 02:30")
        named = [hand_name(p["hand_value"]) for p in built["data"]["largest_payouts"]]
    assert named and all(named)
    for english, russian in zip((p["hand"] for p in built["data"]["largest_payouts"]), named,
                                strict=True):
        assert russian in html and f">{english}<" not in html
    assert "Спор 1 удовлетворён: camera 4: a flush" in html
    assert "Спор 1: решение 2 заменяет решение 1" in html
    assert ">Round<" not in html and ">Box<" not in html and ">upheld<" not in html
    assert re.search(r"\d+,\d\d %", html) and not re.search(r"\d+\.\d\d %", html)
