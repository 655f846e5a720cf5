"""200 seeded random shifts through the rounds API, and every rating figure recomputed
independently from the stored rounds.

The shifts (``random_shifts.py``): all four house games, one to three players with one to four
boxes each, rated and anonymous, on three gaming days, sit-downs and leaves tapped now and then.
The recomputation below reads the database with plain SQL -- the ``place`` events (who played
which box), the newest stored settlement of each settled round (its wagers), the rounds' times
and events, the shifts' gaming days, the visits -- and applies RULES.md's definitions ("Rating
(player tracking)") with code of its own, never the ratings service's. It must equal, figure by
figure, what ``GET /api/v1/players/<card>/ratings`` says (every day, every table session, the
total, and each day asked for alone), the CSV of every day's rating slips and the top rated
players of the shift reports. Both databases.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import text

from dealer_assist import db
from dealer_assist.lab.version import fingerprint
from dealer_assist.rules.profiles import get_profile
from dealer_assist.services.figures import house_edge
from tests.factories import make_user
from tests.web.conftest import Browser, arrange
from tests.web.random_shifts import play_shifts

SHIFTS = 200
#: the lab's house edge per ANTE stored for three profiles; Caribbean stud has none (its rounds'
#: theoretical win is unknown, and says so)
EDGES = {"russian-classic": "0.0731", "oasis-classic": "0.0491", "split-classic": "0.0362"}


def _store_edges(app: Flask) -> None:
    with db.session_scope(app) as session:
        for name, edge in EDGES.items():
            house_edge.save(session, {"profile": name,
                                      "fingerprint": fingerprint(get_profile(name)),
                                      # the tables assume "basic" (their default);
                                      # a rating that read the default ("best") would differ
                                      "default_strategy": "best",
                                      "strategies": {"basic": {"house_edge": float(edge)},
                                                     "best": {"house_edge": float(edge) / 2}}})


# --- the independent recomputation -----------------------------------------------------------

@dataclass
class Row:
    """One settled round, as far as one player is concerned."""

    round_id: int
    table_id: int
    table: str
    game: str
    profile: str
    shift_id: int
    day: date
    start: datetime
    end: datetime
    boxes: list[dict[str, Any]]


def _aware(value: Any) -> datetime:
    """A stored time: PostgreSQL gives it aware, SQLite as naive UTC text."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _rows_by_card(conn: Any) -> dict[str, list[Row]]:
    """Each card's settled rounds, from the place events and the stored settlements."""
    newest: dict[int, dict[str, Any]] = {}
    for rid, body in conn.execute(text(
            "SELECT round_id, settlement FROM round_settlement ORDER BY round_id, through_seq")):
        newest[rid] = json.loads(body)
    ends: dict[int, datetime] = {}
    places: dict[int, dict[str, Any]] = {}
    for rid, seq, kind, payload, at in conn.execute(text(
            "SELECT round_id, seq, type, payload, created_at FROM round_event "
            "WHERE round_id IS NOT NULL ORDER BY round_id, seq")):
        ends[rid] = max(ends.get(rid, _aware(at)), _aware(at))
        if seq == 1 and kind == "place":
            places[rid] = json.loads(payload)
    out: dict[str, list[Row]] = defaultdict(list)
    for rid, table_id, name, game, shift_id, day, opened, status, rules in conn.execute(text(
            "SELECT r.id, r.table_id, t.name, t.game, r.shift_id, s.gaming_date, r.opened_at, "
            "r.status, r.rules FROM game_round r JOIN game_table t ON t.id = r.table_id "
            "JOIN shift s ON s.id = r.shift_id")):
        if status != "settled":
            continue
        by_box = {b["box"]: b for b in newest[rid]["boxes"]}
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for placed in places[rid]["boxes"]:
            card = (placed.get("player") or {}).get("card")
            if card:
                mine[card].append(by_box[placed["box"]])
        profile = json.loads(rules)["profile"]["name"]
        day = day if isinstance(day, date) else date.fromisoformat(day)
        for card, boxes in mine.items():
            out[card].append(Row(rid, table_id, name, game, profile, shift_id, day,
                                 _aware(opened), ends[rid], boxes))
    return out


def _visits(conn: Any) -> dict[str, list[tuple[int, int, datetime, datetime | None]]]:
    out: dict[str, list[tuple[int, int, datetime, datetime | None]]] = defaultdict(list)
    for vid, card, table_id, sat, left in conn.execute(text(
            "SELECT v.id, c.card, v.table_id, v.sat_at, v.left_at FROM player_visit v "
            "JOIN player_card c ON c.id = v.player_id ORDER BY v.id")):
        out[card].append((vid, table_id, _aware(sat), _aware(left) if left else None))
    return out


def _figures(rows: list[Row], seconds: int) -> dict[str, Any]:
    """RULES.md: average bet = initial wagers (ANTE and side bets) per round; theoretical = the
    sum of each wager times the house edge per unit of that wager (the ANTE's, whole hand)."""
    initial = sum(int(b["wagers"][w]["stake"]) for r in rows for b in r.boxes
                  for w in ("ante", "bonus") if w in b["wagers"])
    missing = sorted({r.profile for r in rows if r.profile not in EDGES})
    theo = sum((Fraction(Decimal(EDGES[r.profile])) * int(b["wagers"]["ante"]["stake"])
                for r in rows if r.profile in EDGES for b in r.boxes), Fraction(0))
    n = len(rows)
    return {"seconds": seconds, "rounds": n, "boxes": sum(len(r.boxes) for r in rows),
            "average_bet": {"num": initial, "den": n,
                            "rounded": (2 * initial + n) // (2 * n) if n else None},
            "wagered": sum(int(w["stake"]) for r in rows for b in r.boxes
                           for w in b["wagers"].values()),
            "win": -sum(int(b["net"]) for r in rows for b in r.boxes),
            "theoretical": None if missing else int(theo + Fraction(1, 2)) if theo >= 0
            else -int(-theo + Fraction(1, 2)),
            "no_figure": missing, "decisions_differing": None}


def _sessions(rows: list[Row], visits: list[tuple[int, int, datetime, datetime | None]]
              ) -> list[dict[str, Any]]:
    """Table sessions: (visit holding the round's start, table, shift); the sit-down opens the
    visit's first session, the leave closes its last."""
    groups: dict[tuple[Any, int, int], list[Row]] = {}
    for r in sorted(rows, key=lambda r: (r.start, r.round_id)):
        holding = [v for v in visits if v[1] == r.table_id and v[2] <= r.start
                   and (v[3] is None or r.start <= v[3])]
        visit = max(holding, key=lambda v: (v[2], v[0])) if holding else None
        groups.setdefault((visit, r.table_id, r.shift_id), []).append(r)
    keys = list(groups)
    out = []
    for key in keys:
        visit, mine = key[0], groups[key]
        start, end = mine[0].start, max(r.end for r in mine)
        same = [k for k in keys if visit is not None and k[0] == visit]
        if visit is not None and same[0] == key:
            start = min(start, visit[2])
        if visit is not None and same[-1] == key and visit[3] is not None:
            end = max(end, visit[3])
        out.append({"table": mine[0].table, "game": mine[0].game, "shift_id": mine[0].shift_id,
                    "gaming_date": mine[0].day, "start": start, "end": end, "rows": mine,
                    **_figures(mine, int((end - start).total_seconds()))})
    return out


def _expected(rows: list[Row], visits: list[Any]) -> dict[str, Any]:
    sessions = _sessions(rows, visits)
    days = []
    for day in sorted({s["gaming_date"] for s in sessions}):
        mine = [s for s in sessions if s["gaming_date"] == day]
        days.append({"gaming_date": day, "sessions": mine,
                     **_figures([r for s in mine for r in s["rows"]],
                                sum(s["seconds"] for s in mine))})
    return {"sessions": sessions, "days": days,
            "total": _figures(rows, sum(s["seconds"] for s in sessions))}


FIGURES = ("seconds", "rounds", "boxes", "average_bet", "wagered", "win", "theoretical",
           "no_figure", "decisions_differing")


def _same(got: dict[str, Any], want: dict[str, Any], where: str) -> None:
    for name in FIGURES:
        assert got[name] == want[name], (where, name, got[name], want[name])


# --- the test --------------------------------------------------------------------------------

@pytest.fixture
def pit(app: Flask, browser: Browser) -> int:
    user = arrange(app, make_user, "pavel", "pit_boss")
    assert browser.login("pavel").status_code == 302
    return int(user.id)


def test_every_rating_figure_equals_an_independent_recomputation_from_the_stored_rounds(
        app: Flask, browser: Browser, pit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # ships every profile's figures with the code: hidden here, so the database's
    # (EDGES) are the only ones and Caribbean stud's rounds still have none
    monkeypatch.setattr(house_edge.strategy_store, "figures", lambda profile: None)
    _store_edges(app)
    played = play_shifts(app, browser, pit, seed=23, count=SHIFTS)
    assert played.shifts == SHIFTS and played.rounds >= SHIFTS and played.dark_refusals > 0
    with db.session_scope(app, write=False) as session:
        conn = session.connection()
        by_card, visits = _rows_by_card(conn), _visits(conn)
    assert set(by_card) == played.cards
    expected = {card: _expected(rows, visits.get(card, [])) for card, rows in by_card.items()}
    for card, want in expected.items():
        _check_player(browser, card, want)
    _check_slips(browser, expected)
    _check_top_players(app, expected, played.shift_ids[::10])
    games = {s["game"] for w in expected.values() for s in w["sessions"]}
    assert games == {"russian", "caribbean", "oasis", "split"}
    assert any(s["theoretical"] is None for w in expected.values() for s in w["sessions"])


def _check_player(browser: Browser, card: str, want: dict[str, Any]) -> None:
    got = browser.get(f"/api/v1/players/{card}/ratings").get_json()
    assert got["card"] == card and got["day"] is None
    _same(got["total"], want["total"], card)
    assert [d["gaming_date"] for d in got["days"]] == [d["gaming_date"].isoformat()
                                                        for d in want["days"]]
    for day_got, day_want in zip(got["days"], want["days"], strict=True):
        where = f"{card} {day_want['gaming_date']}"
        _same(day_got, day_want, where)
        _check_sessions(day_got["sessions"], day_want["sessions"], where)
        alone = browser.get(f"/api/v1/players/{card}/ratings?day={day_got['gaming_date']}")
        body = alone.get_json()
        assert alone.status_code == 200 and len(body["days"]) == 1, body
        _same(body["days"][0], day_want, where + " alone")
        _same(body["total"], day_want, where + " alone total")


def _check_sessions(got: list[dict[str, Any]], want: list[dict[str, Any]], where: str) -> None:
    assert len(got) == len(want), where
    for g, w in zip(got, want, strict=True):
        assert (g["table"], g["game"], g["shift_id"]) == (w["table"], w["game"], w["shift_id"])
        assert datetime.fromisoformat(g["start"]) == w["start"], where
        assert datetime.fromisoformat(g["end"]) == w["end"], where
        _same(g, w, f"{where} {w['table']}")


def _check_slips(browser: Browser, expected: dict[str, Any]) -> None:
    by_day: dict[date, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for card, want in expected.items():
        for s in want["sessions"]:
            by_day[s["gaming_date"]].append((card, s))
    for day, slips in by_day.items():
        resp = browser.get(f"/players/slips.csv?day={day.isoformat()}")
        rows = list(csv.reader(io.StringIO(resp.get_data(as_text=True))))
        assert rows[0] == ["card", "table", "game", "start", "end", "average_bet", "wagered",
                           "win", "theoretical"]
        got = sorted((r[0], r[1], datetime.fromisoformat(r[3]), datetime.fromisoformat(r[4]),
                      int(r[5]), int(r[6]), int(r[7]), int(r[8]) if r[8] else None)
                     for r in rows[1:])
        want = sorted((c, s["table"], s["start"].replace(microsecond=0),
                       s["end"].replace(microsecond=0), s["average_bet"]["rounded"],
                       s["wagered"], s["win"], s["theoretical"]) for c, s in slips)
        assert got == want, day


def _check_top_players(app: Flask, expected: dict[str, Any], shift_ids: list[int]) -> None:
    from dealer_assist.services.reports import build_shift_report

    for shift_id in shift_ids:
        with db.session_scope(app, write=False) as session:
            top = build_shift_report(session, shift_id)["top_players"]
        want = {card: [s for s in w["sessions"] if s["shift_id"] == shift_id]
                for card, w in expected.items()}
        want = {card: s for card, s in want.items() if s}
        figures = {card: _figures([r for s in mine for r in s["rows"]],
                                  sum(s["seconds"] for s in mine))
                   for card, mine in want.items()}
        order = sorted(figures, key=lambda c: (figures[c]["theoretical"] is None,
                                               -(figures[c]["theoretical"] or 0),
                                               -figures[c]["wagered"], c))
        assert [p["card"] for p in top] == order[:10], shift_id
        for p in top:
            _same(p, figures[p["card"]], f"shift {shift_id}")
