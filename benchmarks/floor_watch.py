"""What the pit's live floor costs the server: polling against server-sent events.

    .venv/bin/python benchmarks/floor_watch.py [--tables 8] [--rounds 500] [--polls 40] [--smoke]

Builds a temporary SQLite database with ``--tables`` Russian poker tables in one pit, each with
an open shift of ``--rounds`` settled random legal rounds, recorded through the record path
(``tests/services/conftest_reports``; generation is not timed), signs a pit boss in (Flask
test client, in process) and times ``GET /floor/cards``, what ``floor.js`` asks every
``FLOOR_POLL_SECONDS``:

* ``cold``: the first poll, every shift's money computed from its settlements (after a restart;
  after a round is paid only that shift's is computed again);
* ``changed``: after a state change (the audit head moved: the server renders the cards; each
  shift's money comes from the per-shift cache);
* ``unchanged``: nothing happened (``If-None-Match`` matches: one query, 304).

The peer is a server-sent-events page: its stream holds one of waitress's threads for as long
as the page is open, i.e. 1.0 thread per open floor page. Polling holds a thread only while a
poll is answered: (time per poll) / (poll interval) of a thread, printed for an idle floor (all
304) and for a floor where every poll finds news (all ``changed``). Headline lines come last,
as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

from sqlmodel import Session  # noqa: E402

from dealer_assist import create_app, db  # noqa: E402
from dealer_assist.rules.games.registry import start  # noqa: E402
from dealer_assist.services.people import passwords  # noqa: E402
from dealer_assist.services.shifts import shifts  # noqa: E402
from dealer_assist.services.tables import tables  # noqa: E402
from tests.factories import PASSWORD, make_table, make_user  # noqa: E402
from tests.services.conftest_reports import (  # noqa: E402
    T0,
    Floor,
    play_round,
    store_round,
    unsynced,
)

POLL_SECONDS = 2.0


def build(url: str, n_tables: int, n_rounds: int) -> list[int]:
    """The floor; returns the shift ids."""
    passwords.configure(time_cost=1, memory_kib=64)
    engine = db.make_engine(url)
    db.upgrade(engine)
    rng = random.Random(28)
    shift_ids = []
    with Session(engine, expire_on_commit=False) as session:
        pit_boss = make_user(session, "pavel", "pit_boss").id
        for t in range(n_tables):
            croupier = make_user(session, f"dealer{t}", "croupier").id
            table = make_table(session, name=f"RP {t + 1}")
            tables.set_pit(session, table.id, "A")
            shift = shifts.open_shift(session, table_id=table.id, user_id=croupier,
                                      now=T0)
            floor = Floor(croupier, croupier, pit_boss, pit_boss, pit_boss, table.id,
                          shift.id, table.profile)
            game_engine, empty = start("russian", table.profile, *floor.limits)
            gap = timedelta(hours=8) / max(n_rounds, 1)
            with unsynced(session):
                for i in range(n_rounds):
                    played = play_round(rng, game_engine, empty, floor.limits, void_rate=0.0)
                    store_round(session, floor, played, actor_id=croupier,
                                at=T0 + timedelta(minutes=1) + gap * i)
            shift_ids.append(shift.id)
    engine.dispose()
    return shift_ids


def _login(client: Any) -> str:
    import re

    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    client.post("/login", data={"username": "pavel", "password": PASSWORD,
                                "csrf_token": token.group(1)})
    return token.group(1)


def _touch(app: Any) -> None:
    """A state change that moves the audit head but settles nothing (a login session row)."""
    with db.session_scope(app) as session:
        make_user(session, f"x{time.perf_counter_ns()}", "auditor")


def _time(client: Any, headers: dict[str, str]) -> tuple[float, int, str]:
    t = time.perf_counter()
    resp = client.get("/floor/cards", headers=headers)
    return time.perf_counter() - t, resp.status_code, resp.headers.get("ETag", "")


def measure(url: str, polls: int) -> dict[str, list[float]]:
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": url,
                      "ARGON2_TIME_COST": 1, "ARGON2_MEMORY_KIB": 64})
    client = app.test_client()
    _login(client)
    first, status, tag = _time(client, {})
    assert status == 200
    out: dict[str, list[float]] = {"cold": [first], "changed": [], "unchanged": []}
    for _ in range(polls):
        took, status, _t = _time(client, {"If-None-Match": tag})
        if status == 304:
            out["unchanged"].append(took)
        _touch(app)
        took, status, tag = _time(client, {"If-None-Match": tag})
        assert status == 200, status
        out["changed"].append(took)
    db.dispose(app)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--polls", type=int, default=40)
    parser.add_argument("--smoke", action="store_true", help="a tiny floor, a few polls")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.rounds, args.polls = 2, 20, 3
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'floor.sqlite3'}"
        t0 = time.perf_counter()
        build(url, args.tables, args.rounds)
        print(f"generated {args.tables} tables x {args.rounds} rounds in "
              f"{time.perf_counter() - t0:.1f} s (not timed below)")
        times = measure(url, args.polls)
    ms = {k: statistics.median(v) * 1000 for k, v in times.items() if v}
    print(f"cold (every shift's money computed): {ms['cold']:.1f} ms")
    for name in ("changed", "unchanged"):
        print(f"{name:>9}: median {ms[name]:.1f} ms, max {max(times[name]) * 1000:.1f} ms "
              f"over {len(times[name])} polls")
    busy = ms["changed"] / 1000 / POLL_SECONDS
    idle = ms["unchanged"] / 1000 / POLL_SECONDS
    print(f"threads held per open floor page, polling every {POLL_SECONDS:g} s: "
          f"{idle:.4f} (idle floor) .. {busy:.4f} (news at every poll); "
          f"server-sent events: 1.0 (the stream's thread, all the time)")
    print(f"floor_poll_unchanged: {ms['unchanged']:.2f} ms")
    print(f"floor_poll_changed_{args.tables}_tables: {ms['changed']:.2f} ms")
    print(f"floor_threads_per_page_polling_busy: {busy:.4f} threads")
    print("floor_threads_per_page_sse: 1.0 threads")


if __name__ == "__main__":
    main()
