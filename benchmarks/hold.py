"""Time the day/month/year-to-date hold report against reading its settlements.

    .venv/bin/python benchmarks/hold.py [--days 60] [--rounds 100] [--repeat 3]

Builds a temporary SQLite database (migrated) with one Russian poker table and, for each of
``--days`` gaming days, one closed shift of ``--rounds`` random legal rounds (the engine's live
flow, ``tests/services/conftest_reports.play_round``), its opening and closing counts, buy-ins
and the soft count, inserted in bulk (generation is not what is timed). Then times, each
``--repeat`` times (median reported):

* ``report``: :func:`dealer_assist.services.reports.hold.build_hold_report` for the last day
  (its year to date covers every day);
* ``floor``: the physical limit of this design -- one query reading every stored settlement of
  the period and parsing its JSON, which the report must do at least once to know the settled
  win (it re-reads no settlement twice).

Headline lines come last, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from sqlalchemy import text  # noqa: E402
from sqlmodel import Session  # noqa: E402

from dealer_assist.db import make_engine, upgrade  # noqa: E402
from dealer_assist.models import (  # noqa: E402
    DropCount,
    InventoryCount,
    Round,
    RoundSettlement,
    Shift,
)
from dealer_assist.models.cage import BuyIn  # noqa: E402
from dealer_assist.rules.games.registry import start  # noqa: E402
from dealer_assist.services.people import passwords  # noqa: E402
from dealer_assist.services.reports import hold  # noqa: E402
from dealer_assist.services.rounds import store as rounds  # noqa: E402
from tests.services.conftest_reports import Floor, make_floor, play_round  # noqa: E402

FIRST = date(2026, 1, 5)


def _day(session: Session, f: Floor, rng: random.Random, game_engine: Any, empty: Any, day: date,
         n: int) -> None:
    at = datetime(day.year, day.month, day.day, 16, tzinfo=UTC)
    shift = Shift(table_id=f.table_id, gaming_date=day, status="closed",
                  opened_by=f.croupier, opened_at=at, closed_by=f.pit_boss,
                  closed_at=at + timedelta(hours=8))
    session.add(shift)
    session.flush()
    won = 0
    for i in range(n):
        played = play_round(rng, game_engine, empty, f.limits, void_rate=0.0)
        rnd = Round(table_id=f.table_id, shift_id=shift.id, number=i + 1,
                    status="settled", opened_at=at + timedelta(minutes=i))
        session.add(rnd)
        session.flush()
        assert played.settlement is not None
        won -= sum(int(b["net"]) for b in played.settlement["boxes"])
        session.add(RoundSettlement(round_id=rnd.id, through_seq=len(played.events),
                                    settlement=rounds.encode_payload(played.settlement),
                                    engine_version="bench", profile=f.profile,
                                    profile_version="bench"))
    bought = 10_000 * (1 + day.day % 5)
    signers = {"croupier_id": f.croupier, "pit_boss_id": f.pit_boss,
               "recorded_by": f.pit_boss}
    session.add(InventoryCount(shift_id=shift.id, kind="opening", amount=500_000,
                               counted_at=at, **signers))
    session.add(InventoryCount(shift_id=shift.id, kind="closing",
                               amount=500_000 + won - bought, counted_at=at, **signers))
    session.add(BuyIn(table_id=f.table_id, shift_id=shift.id, gaming_date=day,
                      amount=bought, at=at, recorded_by=f.croupier))
    session.add(DropCount(table_id=f.table_id, gaming_date=day, amount=bought, cash="{}",
                          recorded=bought, counted_at=at, counter_a=f.pit_boss,
                          counter_b=f.manager, recorded_by=f.pit_boss))
    session.commit()


def build(url: str, days: int, n: int) -> date:
    passwords.configure(time_cost=1, memory_kib=64)
    engine = make_engine(url)
    upgrade(engine)
    rng = random.Random(27)
    with Session(engine, expire_on_commit=False) as session:
        floor = make_floor(session)
        game_engine, empty = start("russian", floor.profile, *floor.limits)
        for d in range(days):
            _day(session, floor, rng, game_engine, empty, FIRST + timedelta(days=d), n)
    engine.dispose()
    return FIRST + timedelta(days=days - 1)


def floor_read(session: Session, first: date, last: date) -> int:
    rows = session.execute(text(
        "SELECT s.settlement FROM round_settlement s JOIN game_round r ON r.id = s.round_id "
        "JOIN shift h ON h.id = r.shift_id WHERE h.gaming_date BETWEEN :a AND :b"),
        {"a": first, "b": last}).scalars()
    return -sum(int(b["net"]) for raw in rows for b in json.loads(raw)["boxes"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test)")
    args = parser.parse_args()
    if args.smoke:
        args.days, args.rounds, args.repeat = 3, 5, 1
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        t0 = time.perf_counter()
        last = build(url, args.days, args.rounds)
        print(f"generated {args.days} days x {args.rounds} rounds in "
              f"{time.perf_counter() - t0:.1f} s (not timed below)")
        engine = make_engine(url)
        report_t, floor_t = [], []
        for _ in range(args.repeat):
            with Session(engine) as session:
                t = time.perf_counter()
                data = hold.build_hold_report(session, last, band=hold.Band())
                report_t.append(time.perf_counter() - t)
                t = time.perf_counter()
                settled = floor_read(session, last.replace(month=1, day=1), last)
                floor_t.append(time.perf_counter() - t)
        engine.dispose()
        ytd = data["tables"][0]["ytd"]
        assert ytd["settled"] == settled and ytd["variance"] == 0, (ytd, settled)
        print(f"ytd: drop {ytd['drop']:,}, win {ytd['win']:,}, hold {ytd['hold']['percent']} %, "
              f"variance {ytd['variance']}")
    report, floor = statistics.median(report_t), statistics.median(floor_t)
    rounds_total = args.days * args.rounds
    print(f"hold_report_ytd_{rounds_total}_rounds: {report:.3f} s")
    print(f"settlements_read_floor_{rounds_total}_rounds: {floor:.3f} s")
    print(f"hold_report_vs_floor: {report / floor:.1f} x")


if __name__ == "__main__":
    main()
