"""``make run WORKERS=2`` (gunicorn, two app processes on one database), on SQLite and on
PostgreSQL: 20 times during a load, one worker is killed with SIGKILL -- in the middle of
whatever it was doing -- and gunicorn puts a new one in its place. The tablets resend what got
no answer with the same idempotency key (a resend may reach the other worker). Afterwards every
step a tablet was answered 2xx for is stored exactly once, no key was answered 201 twice, and
the database is consistent (``benchmarks/load.py``'s check: sequences, settlements = replay,
one open round per table, SQLite's integrity check, the audit chain). No timing is asserted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.cluster.conftest import AppServer, bench

KILLS = 20
TABLETS = 4


@pytest.fixture(scope="module")
def gunicorn_app(cluster_db: str, plan: list[dict[str, Any]],
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = AppServer(cluster_db, tmp_path_factory.mktemp("gunicorn") / "gunicorn.log",
                       workers=2)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _kill_one_worker(server: AppServer, rng: random.Random) -> int:
    """SIGKILL one of the workers serving now; wait until gunicorn has replaced it."""
    import os
    import signal

    workers = server.workers_pids()
    victim = rng.choice(workers)
    os.kill(victim, signal.SIGKILL)
    until = time.monotonic() + 60
    while time.monotonic() < until:
        now = server.workers_pids()
        if victim not in now and len(now) == len(workers):
            return victim
        time.sleep(0.02)
    raise AssertionError(f"gunicorn did not replace worker {victim}")


def _progress(tablets: list[Any]) -> None:
    """Wait until the tablets have been answered one more write (a slow machine may take a
    while to log them in or to bring a worker back)."""
    def acked() -> int:
        return sum(len(t.stats.acked) for t in tablets)

    seen, until = acked(), time.monotonic() + 120
    while acked() == seen:
        assert time.monotonic() < until, "no write answered for 120 s"
        assert all(t.is_alive() for t in tablets), [t.stats.errors for t in tablets]
        time.sleep(0.02)


def test_kill9_of_one_worker_during_load_loses_nothing_acknowledged(
        gunicorn_app: AppServer, plan: list[dict[str, Any]], cluster_db: str) -> None:
    load, tablet = bench("load"), bench("load_tablet")
    rng = random.Random(25)
    deadline = time.monotonic() + 3600  # ended below, once the kills are done
    tablets = [tablet.Tablet(i, gunicorn_app.port, table, load.PASSWORD, deadline, 25 + i)
               for i, table in enumerate(plan[:TABLETS])]
    for t in tablets:
        t.start()
    killed = []
    try:
        for _ in range(KILLS):
            _progress(tablets)  # each kill lands in a load that is going on
            time.sleep(rng.uniform(0.05, 0.3))
            killed.append(_kill_one_worker(gunicorn_app, rng))
    finally:
        for t in tablets:
            t.deadline = time.monotonic()  # finish the round in hand, then stop
        for t in tablets:
            t.join(300)
    assert len(set(killed)) == KILLS
    stats = load.merge([t.stats for t in tablets])
    assert stats.errors == []
    assert stats.acked, "the tablets recorded nothing"
    assert load.check(cluster_db, stats) == []
