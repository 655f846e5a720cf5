"""Time the day/month/year-to-date hold report against reading its settlements.

    .venv/bin/python benchmarks/hold.py [--days 60] [--rounds 100] [--repeat 3]

Builds a temporary SQLite database (migrated) with one Russian poker table and, for each of
``--days`` gaming days, one closed shift of ``--rounds`` random legal rounds (the engine's live
flow, ``tests/services/conftest_reports.play_round``), all recorded through the services
production uses, under a test clock standing on that day (each day is its own gaming day):
the shift opened (``services.shifts.shifts``) and its opening count
(``services.shifts.inventory``, which issues the opener slip), a buy-in
(``services.cage.buyins``), the rounds through the record path
(``conftest_reports.store_round``), the closing count that closes the shift (and issues the
closer slip), then the soft count of the day's drop box by the count team
(``services.cage.drop``). Generation is not what is timed. Then times, each ``--repeat`` times
(median reported):

* ``report``: :func:`dealer_assist.services.reports.hold.build_hold_report` for the last day
  (its year to date covers every day);
* ``floor``: the physical limit of this design -- one query reading every stored settlement of
  the period and parsing its JSON, which the report must do at least once to know the settled
  win (it re-reads no settlement twice).

Headline lines come last, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import dataclasses
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

import time_machine  # noqa: E402
from sqlalchemy import text  # noqa: E402
from sqlmodel import Session  # noqa: E402

from dealer_assist.db import make_engine, upgrade  # noqa: E402
from dealer_assist.rules.games.registry import start  # noqa: E402
from dealer_assist.services.cage import buyins, drop  # noqa: E402
from dealer_assist.services.people import passwords  # noqa: E402
from dealer_assist.services.reports import hold  # noqa: E402
from dealer_assist.services.shifts import inventory, shifts  # noqa: E402
from tests.factories import SIGNED, make_user  # noqa: E402
from tests.services.conftest_reports import (  # noqa: E402
    Floor,
    make_floor,
    play_round,
    store_round,
    unsynced,
)

FIRST = date(2026, 1, 5)
#: every shift opens with this float (chips on the table)
OPENING = 500_000
#: the soft count's notes: each day's buy-in is counted in 50.00 notes
NOTE = 5000


def _at(day: date) -> datetime:
    """The shift of ``day`` opens at 16:00 UTC: 10 hours into that gaming day (it starts at
    6:00), so the shift, its rounds (one a minute) and its closing 8 hours later fall in it."""
    return datetime(day.year, day.month, day.day, 16, tzinfo=UTC)


def _day(session: Session, f: Floor, rng: random.Random, game_engine: Any, empty: Any, day: date,
         n: int, team: tuple[int, int]) -> None:
    """One gaming day of ``f``'s table, its shift already open (``f.shift_id``)."""
    at = _at(day)
    with time_machine.travel(at, tick=False):
        inventory.record_opening_count(session, credential=SIGNED, shift_id=f.shift_id,
                                       amount=OPENING, croupier_id=f.croupier,
                                       pit_boss_id=f.pit_boss, actor_id=f.pit_boss)
        bought = 10_000 * (1 + day.day % 5)
        buyins.record_buy_in(session, table_id=f.table_id, amount=bought, actor_id=f.croupier,
                             seat="1")
        session.commit()
    won = 0
    for i in range(n):
        played = play_round(rng, game_engine, empty, f.limits, void_rate=0.0)
        assert played.settlement is not None
        won -= sum(int(b["net"]) for b in played.settlement["boxes"])
        store_round(session, f, played, actor_id=f.croupier,
                    at=at + timedelta(minutes=1 + i))
    with time_machine.travel(at + timedelta(hours=8), tick=False):
        inventory.close_shift(session, credential=SIGNED, shift_id=f.shift_id,
                              closing_amount=OPENING + won - bought, croupier_id=f.croupier,
                              pit_boss_id=f.pit_boss, actor_id=f.pit_boss)
        session.commit()
    with time_machine.travel(at + timedelta(hours=9), tick=False):
        drop.soft_count(session, table_id=f.table_id, gaming_date=day,
                        cash={NOTE: bought // NOTE}, counter_a=team[0], counter_b=team[1],
                        credential_a=SIGNED, credential_b=SIGNED, actor_id=team[0])
        session.commit()


def _open(session: Session, f: Floor, day: date) -> Floor:
    """The croupier opens the table's shift of ``day`` (he deals first)."""
    with time_machine.travel(_at(day), tick=False):
        opened = shifts.open_shift(session, table_id=f.table_id, user_id=f.croupier,
                                   gaming_date=day)
        session.commit()
    return dataclasses.replace(f, shift_id=opened.id)


def build(url: str, days: int, n: int) -> date:
    passwords.configure(time_cost=1, memory_kib=64)
    engine = make_engine(url)
    upgrade(engine)
    rng = random.Random(27)
    with Session(engine, expire_on_commit=False) as session:
        with time_machine.travel(_at(FIRST), tick=False):
            floor = make_floor(session, now=_at(FIRST))  # opens the first day's shift
            team = (make_user(session, "kira", "count_team").id,
                    make_user(session, "kostya", "count_team").id)
            session.commit()
        game_engine, empty = start("russian", floor.profile, *floor.limits)
        with unsynced(session):
            for d in range(days):
                day = FIRST + timedelta(days=d)
                if d:
                    floor = _open(session, floor, day)
                _day(session, floor, rng, game_engine, empty, day, n, team)
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
        assert ytd["settled"] == settled and ytd["variance"] == 0 and ytd["uncounted"] == 0, \
            (ytd, settled)
        print(f"ytd: drop {ytd['drop']:,}, win {ytd['win']:,}, hold {ytd['hold']['percent']} %, "
              f"variance {ytd['variance']}")
    report, floor = statistics.median(report_t), statistics.median(floor_t)
    rounds_total = args.days * args.rounds
    print(f"hold_report_ytd_{rounds_total}_rounds: {report:.3f} s")
    print(f"settlements_read_floor_{rounds_total}_rounds: {floor:.3f} s")
    print(f"hold_report_vs_floor: {report / floor:.1f} x")


if __name__ == "__main__":
    main()
