"""Two app processes on one database, on SQLite and on PostgreSQL: the idempotency
races sent to *different* processes answer exactly as with one process (the rule: a
double tap is answered 201 once and 200 otherwise, with the same round; a key never records
twice), and the database holds each step once.

Each race is the same request with the same idempotency key from the same signed-in tablet,
released at the same moment towards process A and process B (a tablet's resend may reach
another machine behind the load balancer). No timing is asserted.
"""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import text

from dealer_assist import db
from tests.cluster.conftest import AppServer, bench
from tests.web.test_live_api import STEPS

REPEATS = 4


def _tablets(servers: tuple[AppServer, AppServer], user: str) -> list[Any]:
    """One signed-in tablet, as a client of each process (the same login session)."""
    tablet = bench("load_tablet")
    first = tablet.login(servers[0].port, user, bench("load").PASSWORD)
    return [first, tablet.Http(servers[1].port, first.cookie, first.csrf)]


def _race(clients: list[Any], path: str, body: dict[str, Any], key: str) -> list[Any]:
    """The same POST and key to every client (each its own process) at the same moment."""
    gate = threading.Barrier(len(clients))
    data = json.dumps(body).encode()

    def one(client: Any) -> tuple[int, Any]:
        gate.wait()
        status, answer, _ = client.send("POST", path, data, client.headers(key))
        client.close()
        return status, answer

    with ThreadPoolExecutor(len(clients)) as pool:
        return sorted(pool.map(one, clients), key=lambda a: a[0])


def _stored(url: str, round_id: int, key: str) -> int:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text(
                "SELECT count(*) FROM round_event WHERE round_id = :r AND idempotency_key = :k"),
                {"r": round_id, "k": key}).scalar() or 0)
    finally:
        engine.dispose()


def test_double_taps_and_resends_sent_to_two_processes_are_recorded_once(
        two_apps: tuple[AppServer, AppServer], plan: list[dict[str, Any]],
        cluster_db: str) -> None:
    table = plan[0]  # Russian poker
    clients = _tablets(two_apps, table["user"])
    for n in range(REPEATS):
        start = _race(clients, f"/api/v1/tables/{table['id']}/rounds",
                      {"boxes": [{"box": "1", "ante": 100}]}, f"start-{n}")
        assert [s for s, _ in start] == [200, 201], start  # a double-tapped start
        assert start[0][1]["id"] == start[1][1]["id"]
        rid = start[0][1]["id"]
        assert _stored(cluster_db, rid, f"start-{n}") == 1
        for m, step in enumerate(STEPS):
            key = f"{n}-{m}"
            answers = _race(clients, f"/api/v1/rounds/{rid}/events", step, key)
            assert [s for s, _ in answers] == [200, 201], (key, answers)  # a double-tapped step
            assert answers[0][1]["events"] == answers[1][1]["events"]
            assert _stored(cluster_db, rid, key) == 1
            if m == 0:  # a resent undo (no ``cancels``: the step it meant), then the step again
                undo = _race(clients, f"/api/v1/rounds/{rid}/events", {"type": "undo"},
                             f"{n}-undo")
                assert [s for s, _ in undo] == [200, 201], undo
                assert undo[0][1]["state"]["last_seq"] == undo[1][1]["state"]["last_seq"]
                again = _race(clients, f"/api/v1/rounds/{rid}/events", step, f"{n}-again")
                assert [s for s, _ in again] == [200, 201], again
        paid = _race(clients, f"/api/v1/rounds/{rid}/events", {"type": "paid"}, f"{n}-paid")
        assert [s for s, _ in paid] == [200, 201], paid
        assert paid[0][1]["status"] == paid[1][1]["status"] == "settled"


def test_a_key_reused_for_another_step_on_another_process_is_a_conflict(
        two_apps: tuple[AppServer, AppServer], plan: list[dict[str, Any]]) -> None:
    table = plan[4]  # Russian poker, the second table
    a, b = _tablets(two_apps, table["user"])
    status, rnd, _ = a.send("POST", f"/api/v1/tables/{table['id']}/rounds",
                            json.dumps({"boxes": [{"box": "1", "ante": 100}]}).encode(),
                            a.headers("start"))
    assert status == 201
    path = f"/api/v1/rounds/{rnd['id']}/events"
    assert a.send("POST", path, json.dumps(STEPS[0]).encode(), a.headers("k1"))[0] == 201
    status, problem, _ = b.send("POST", path, json.dumps(STEPS[1]).encode(), b.headers("k1"))
    assert status == 409, problem
    assert b.send("POST", path, json.dumps(STEPS[0]).encode(), b.headers("k1"))[0] == 200


def test_the_database_is_consistent_after_the_races(
        two_apps: tuple[AppServer, AppServer], plan: list[dict[str, Any]],
        cluster_db: str) -> None:
    """Sequences 1..n, settlements equal to the replay, one open round per table, the audit
    chain and the data it covers (``benchmarks/load.py``'s check, nothing acknowledged)."""
    assert bench("load").check(cluster_db, bench("load_tablet").Stats()) == []
