"""Where the time of one step goes: cProfile around steps (or screen taps), in process, SQLite.

Plays ``--rounds`` Russian poker rounds through the rounds API (the Flask test client, the same
JSON requests the tablets send: session cookie, CSRF header, idempotency key), or with ``--path
screen`` through the table screen's own requests (the bets form, then one JSON tap per
step, as ``benchmarks/http.py`` plays them), on a SQLite file with the production pragmas,
profiles every ``POST /events`` (or tap) and prints the share of the time spent in each layer
(SQL execution, the ORM around it, the rules engine, the audit chain, Flask/Werkzeug, JSON),
the top functions by own time, and the SQL statements one step sends
(``--sql``: each of them, as round trips; and how many reads of the round's
events, write transactions and BEGINs before that read each step has).

``--server SECONDS``: the real server instead (waitress as ``make run`` starts it, on a fresh
SQLite file or ``--db postgres``), one tablet over loopback playing the four house games with no
double taps, one step at a time (no contention), through the rounds API or ``--path screen``;
the server process's own CPU time (user + system, from ``/proc``) per answered write (a tap)
is the figure to bring down, printed beside the bare Flask app's on the same server and
database in the same run (``benchmarks/bare_run.py``), as a ratio.

    .venv/bin/python benchmarks/profile_step.py [--rounds 30] [--db-url URL] [--sql]
                                                [--path api|screen]
    .venv/bin/python benchmarks/profile_step.py --server 20 [--db sqlite|postgres]
                                                [--path api|screen]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

from dealer_assist import create_app, db  # noqa: E402
from dealer_assist.models import User  # noqa: E402
from dealer_assist.services.people import passwords, users  # noqa: E402
from dealer_assist.services.shifts import shifts  # noqa: E402
from dealer_assist.services.tables import tables  # noqa: E402

PASSWORD = "profile password 1"
STEPS = [("deal_box", {"box": "1", "cards": "as ad ah 2c 3d"}),
         ("deal_box", {"box": "2", "cards": "7s 8s 9d jc 2h"}),
         ("deal_dealer", {"cards": "kh qh 4s 5c 6d"}),
         ("bet", {"box": "1"}), ("bet", {"box": "2"}), ("reveal", {})]
LAYERS = (("rules engine", "dealer_assist/rules/"), ("audit chain", "dealer_assist/audit/"),
          ("services", "dealer_assist/services/"), ("sqlite3 / psycopg (SQL)", "sqlite3"),
          ("SQLAlchemy + SQLModel", "sqlalchemy"), ("Flask + Werkzeug", "werkzeug"),
          ("Flask + Werkzeug", "flask"), ("json", "json/"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--db-url", default=None)
    parser.add_argument("--plain", action="store_true",
                        help="no profiler: wall and CPU time per step only")
    parser.add_argument("--sql", action="store_true",
                        help="count the SQL statements of each step; print one step's")
    parser.add_argument("--server", type=float, default=None, metavar="SECONDS",
                        help="the server process's CPU per write, over HTTP (see above)")
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--path", choices=("api", "screen"), default="api",
                        help="the rounds API's steps or the table screen's taps (issue 37)")
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 2
    if args.server is not None:
        server_cpu(2.0 if args.smoke else args.server, args.db, args.path)
        return
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db_url or f"sqlite:///{Path(tmp) / 'profile.sqlite3'}"
        app = create_app({"SECRET_KEY": "profile", "DATABASE_URL": url,
                          "ARGON2_TIME_COST": 1, "ARGON2_MEMORY_KIB": 64})
        db.upgrade(db.get_engine(app))
        with db.session_scope(app) as dbs:
            created = users.create_user(dbs, username="carla", display_name="Carla",
                                        role="croupier")
            row = dbs.get(User, created.user.id)
            assert row is not None
            row.password_hash = passwords.hash_password(PASSWORD)
            row.must_change_password = False
            table = tables.create_table(dbs, tables.TableSpec("RP 1", "russian",
                                                              "russian-classic", 10, 500,
                                                              50000, 6))
            shifts.open_shift(dbs, table_id=table.id, user_id=row.id or 0)
        statements: list[str] = []
        if args.sql:
            from sqlalchemy import event

            @event.listens_for(db.get_engine(app), "before_cursor_execute")
            def _count(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
                statements.append(" ".join(statement.split()))
        client = app.test_client()
        client.get("/login")
        with client.session_transaction() as sess:
            csrf = sess["csrf_token"]
        client.post("/login", data={"username": "carla", "password": PASSWORD,
                                    "csrf_token": csrf})
        with client.session_transaction() as sess:
            csrf = sess["csrf_token"]
        profile = cProfile.Profile()
        held, committing = (_time_the_write_lock(db.get_engine(app)) if args.plain
                            else ([], []))
        per_step: list[list[str]] = []
        n = 0
        wall = cpu = 0.0
        # the evaluator builds its lookup tables on first use (seconds, once per process):
        # a reveal outside the profile builds them, so the profile shows the steady state
        from dealer_assist.rules.games.registry import start

        engine, state = start("russian", "russian-classic", 10, 500, 50000)
        for type, payload in [("place", {"boxes": [{"box": "1", "ante": 100}]}), STEPS[0],
                              STEPS[2], STEPS[3], STEPS[5]]:
            state = engine.step(state, type, payload)

        def post(url: str, body: dict[str, Any], profiled: bool,
                 form: bool = False) -> dict[str, Any]:
            nonlocal n, wall, cpu
            headers = {"X-CSRF-Token": csrf}
            if args.path == "api":
                headers["Idempotency-Key"] = uuid.uuid4().hex
            t0, c0 = time.perf_counter(), time.process_time()
            if profiled and not args.plain:
                profile.enable()
            before = len(statements)
            resp = (client.post(url, data={**body, "csrf_token": csrf}, headers=headers) if form
                    else client.post(url, json=body, headers=headers))
            if profiled:
                profile.disable()
                if args.sql:
                    per_step.append(statements[before:])
                n += 1
                wall += time.perf_counter() - t0
                cpu += time.process_time() - c0
            assert resp.status_code in (200, 201), resp.get_data(as_text=True)
            answer: dict[str, Any] = resp.get_json()
            return answer

        play = _screen_rounds if args.path == "screen" else _api_rounds
        play(post, client, table.id, args.rounds)
        db.dispose(app)
        bare = (_load_benchmark().bare_commit_rate(url, Path(tmp), 3.0)
                if args.plain and held else 0.0)
    if args.sql:
        sql_report(per_step)
    if args.plain and held:
        lock_report(held, committing, bare)
    if args.plain:
        print(f"{n} steps, wall {wall / n * 1000:.2f} ms, CPU {cpu / n * 1000:.2f} ms per step")
        print(f"step_wall: {wall / n * 1000:.2f} ms")
        print(f"step_cpu: {cpu / n * 1000:.2f} ms")
        return
    report(pstats.Stats(profile), n, wall)


def _api_rounds(post: Any, client: Any, table_id: int, rounds: int) -> None:
    """Rounds through the rounds API: the deals, the bets and the reveal, then the engine's
    next step until it can settle (each profiled), then "Paid" (not profiled)."""
    for _ in range(rounds):
        rnd = post(f"/api/v1/tables/{table_id}/rounds",
                   {"boxes": [{"box": "1", "ante": 100}, {"box": "2", "ante": 100}]}, False)
        rid = rnd["id"]
        last: dict[str, Any] = {}
        for type, payload in STEPS:
            last = post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                        True)
        for step in last["state"]["next_steps"]:
            post(f"/api/v1/rounds/{rid}/events", {"type": step["type"],
                                                  "payload": {"box": step["box"]}}, True)
            break
        while True:
            got = client.get(f"/api/v1/rounds/{rid}").get_json()
            if got["settlement"] is not None:
                break
            step = got["state"]["next_steps"][0]
            post(f"/api/v1/rounds/{rid}/events",
                 {"type": step["type"], "payload": {"box": step["box"]}}, True)
        post(f"/api/v1/rounds/{rid}/events", {"type": "paid"}, False)


def _screen_rounds(post: Any, _client: Any, table_id: int, rounds: int) -> None:
    """Rounds through the table screen's own requests, as ``benchmarks/http.py``
    plays them: "Start round" (the bets form; it records the deal too), then each tap one JSON
    request with its key and the last sequence number shown (each profiled), then "Paid"."""
    import random

    rng = random.Random(7)
    round_steps = _load_benchmark()._helper("bench_http", "http").round_steps
    for _ in range(rounds):
        rnd = post(f"/tables/{table_id}/live/rounds",
                   {"ante_1": "100", "ante_2": "100", "key": uuid.uuid4().hex}, False,
                   form=True)["round"]
        for type, payload in [*round_steps(rng), ("paid", {})]:
            rnd = post(f"/live/rounds/{rnd['id']}/steps",
                       {"type": type, "payload": payload, "idempotency_key": uuid.uuid4().hex,
                        "expected_seq": rnd["last_seq"]}, type != "paid")["round"]


def _time_the_write_lock(engine: object) -> tuple[list[float], list[float]]:
    """Wrap the record path's write phase (group commit): how long one writer holds
    SQLite's lock, from ``begin_write`` to the end of its commit, and how much of that is the
    durable COMMIT itself (the fsync a group commit would share): milliseconds per write."""
    from sqlalchemy import event

    from dealer_assist.services.rounds import txn

    held: list[float] = []
    committing: list[float] = []
    commit_started: list[float] = []
    begin_write, end_write = txn.begin_write, txn.end_write  # wrapped to be measured

    def timed_begin(session: object) -> None:
        begin_write(session)  # type: ignore[arg-type]
        session.info["profile_t0"] = time.perf_counter()  # type: ignore[attr-defined]
        commit_started.clear()

    @event.listens_for(engine, "commit")
    def _commit(_conn: object) -> None:
        commit_started.append(time.perf_counter())

    def timed_end(session: object) -> None:
        t0 = session.info.pop("profile_t0", None)  # type: ignore[attr-defined]
        if t0 is not None:
            now = time.perf_counter()
            held.append((now - t0) * 1000)
            if commit_started:
                committing.append((now - commit_started[-1]) * 1000)
        end_write(session)  # type: ignore[arg-type]

    txn.begin_write, txn.end_write = timed_begin, timed_end  # type: ignore[assignment]
    return held, committing


def lock_report(held: list[float], committing: list[float], bare: float) -> None:
    """Group commit, decided with figures: the write lock's hold time, the share of
    it that is the durable COMMIT (the only part several writers' appends could share), the
    bare durable commit of the same disk, and the ceilings one writer puts on writes/s without
    and with a perfect group commit (the COMMIT's time shared by many writes: it tends to 0)."""
    median = sorted(held)[len(held) // 2]
    commit = sorted(committing)[len(committing) // 2] if committing else 0.0
    print(f"write lock held (BEGIN IMMEDIATE to COMMIT done, no contention): median "
          f"{median:.2f} ms, of which the durable COMMIT {commit:.2f} ms; a bare durable "
          f"commit on the same disk {1000 / bare:.2f} ms ({bare:.0f} commits/s)")
    print(f"one writer's ceiling {1000 / median:.0f} writes/s; with a perfect group commit "
          f"{1000 / max(median - commit, 0.01):.0f} writes/s")
    print(f"write_lock_held: {median:.2f} ms")
    print(f"commit_in_lock: {commit:.2f} ms")
    print(f"bare_commit: {1000 / bare:.2f} ms")
    print(f"writer_ceiling: {1000 / median:.0f} writes/s")
    print(f"group_commit_ceiling: {1000 / max(median - commit, 0.01):.0f} writes/s")


def sql_report(per_step: list[list[str]]) -> None:
    """The statements of a typical step (the second profiled one: not the first of a round),
    the average count, and the shape a tap should have: the round's events read once, one
    write transaction (SQLite's BEGIN IMMEDIATE) and no BEGIN before that read."""
    typical = per_step[1] if len(per_step) > 1 else per_step[0]
    print("the SQL statements of one step (the second of a round):")
    for statement in typical:
        print(f"  {statement[:150]}")
    round_trips = [len([s for s in step if not s.startswith(("BEGIN", "COMMIT", "ROLLBACK"))])
                   for step in per_step]
    reads = [len([s for s in step if s.startswith("SELECT round_event.")]) for step in per_step]
    writes = [step.count("BEGIN IMMEDIATE") for step in per_step]
    early = 0
    for step in per_step:
        read = next((i for i, s in enumerate(step) if s.startswith("SELECT")
                     and ("game_round" in s or "round_event" in s)), len(step))
        early += any(s.startswith("BEGIN") for s in step[:read])
    print(f"round_reads_per_step: {sum(reads) / len(reads):.2f} reads (of its events)")
    print(f"write_transactions_per_step: {sum(writes) / len(writes):.2f} BEGIN IMMEDIATE")
    print(f"steps_beginning_before_the_read: {early} steps")
    print(f"sql_statements_per_step: {sum(map(len, per_step)) / len(per_step):.1f} statements")
    print(f"sql_round_trips_per_step: {sum(round_trips) / len(round_trips):.1f} statements "
          "(BEGIN/COMMIT left out)")


def _load_benchmark() -> Any:
    """``load.py``, by file name (this directory is off the path); it loads its helpers."""
    import importlib.util

    if "load" in sys.modules:
        return sys.modules["load"]
    spec = importlib.util.spec_from_file_location("load", HERE / "load.py")
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    sys.modules["load"] = load
    spec.loader.exec_module(load)
    return load


def server_cpu(seconds: float, database: str, path: str = "api") -> None:
    """One tablet at a time against the real server, no double taps: the server process's CPU
    (user + system) per answered write (``--path screen``: per tap), for each house game in
    turn; then the bare Flask app's on the same server and database, and ours as a ratio."""
    load = _load_benchmark()
    tablet = sys.modules["load_tablet"]
    bare_run = load._helper("bare_run")
    tablet.DOUBLE_TAP = tablet.TIME_OUT = 0.0  # one request at a time: no contention
    cpu = load.process_tree_cpu  # user + system seconds, from /proc

    with tempfile.TemporaryDirectory(prefix="dealer-cpu-") as tmp_name:
        tmp = Path(tmp_name)
        pg = load._helper("load_pg").start_postgres() if database == "postgres" else None
        url = pg.url("dealer_load") if pg else f"sqlite:///{tmp / 'cpu.sqlite3'}"
        try:
            plan = load.setup(url, len(load.GAMES))
            server = load.Server(url, load.free_port(), 8, tmp / "server.log")
            server.start()
            try:
                writes, used, wall = _play_in_turn(load, tablet, plan, server, seconds, cpu,
                                                   path)
            finally:
                server.stop()
            size = _ANSWER_BYTES[0] // max(1, _ANSWER_BYTES[1])  # our answers' mean size
            with bare_run.BareServer(tmp, load.free_port(), url) as bare_server:
                bare = bare_run.cpu_per_write(bare_server, tablet.Http, cpu, writes, size)
        finally:
            if pg is not None:
                pg.stop()
    ours = used / writes * 1000
    print(f"{writes} writes answered one at a time (--path {path}, {database}, waitress), "
          f"server CPU {used:.2f} s in {wall:.1f} s")
    print(f"the same server running a bare Flask app (benchmarks/bare_app.py: parse the JSON, "
          f"one durable {database} commit, answer {size} bytes of JSON): {bare:.2f} ms CPU per "
          f"write; ours is {ours / bare:.1f}x that")
    print(f"bare_flask_cpu_per_write: {bare:.2f} ms")
    print(f"ratio_to_bare_flask: {ours / bare:.1f} x")
    print(f"server_cpu_per_write: {ours:.2f} ms")
    print(f"wall_per_write: {wall / writes * 1000:.2f} ms")


#: the answers seen by the measured tablets: total bytes, count
_ANSWER_BYTES = [0, 0]


def _play_in_turn(load: Any, tablet: Any, plan: list[dict[str, Any]], server: Any,
                  seconds: float, cpu: Any, path: str) -> tuple[int, float, float]:
    """A warm-up round at every table, then the measured time shared among the tables."""
    port, pid, Tablet = server.port, server.proc.pid, tablet.Tablet
    for i, table in enumerate(plan):  # warm-up: login, first rounds, lazy tables
        Tablet(i, port, table, load.PASSWORD, time.monotonic() + 1, i, path).run()
    tablets = [Tablet(i, port, table, load.PASSWORD, 0.0, 100 + i, path)
               for i, table in enumerate(plan)]
    for t in tablets:  # signed in before the clock starts: a login's password hash is no step
        t.http = tablet.login(port, t.table["user"], load.PASSWORD)
        t.http.received = t.http.answers = 0  # the answers measured, not the login's
    c0, t0 = cpu(pid), time.monotonic()
    writes = 0
    for t in tablets:
        t.deadline = time.monotonic() + seconds / len(plan)
        t.run()
        if t.stats.errors:
            raise SystemExit(f"tablet errors: {t.stats.errors[:3]}")
        writes += len(t.stats.step_ms) + len(t.stats.settle_ms) + len(t.stats.start_ms)
        _ANSWER_BYTES[0] += t.http.received
        _ANSWER_BYTES[1] += t.http.answers
    return writes, cpu(pid) - c0, time.monotonic() - t0


def report(stats: pstats.Stats, n: int, wall: float) -> None:
    own: dict[str, float] = {}
    total = 0.0
    for (filename, _line, _name), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        total += tt
        layer = next((name for name, marker in LAYERS if marker in filename), "other")
        if filename == "~" and "sqlite3" in _name:
            layer = "sqlite3 / psycopg (SQL)"
        own[layer] = own.get(layer, 0.0) + tt
    print(f"{n} steps profiled, {wall / n * 1000:.2f} ms per step under the profiler")
    for layer, seconds in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {layer:28s} {seconds / total * 100:5.1f} %  {seconds / n * 1000:6.2f} ms/step")
    stats.sort_stats("tottime").print_stats(15)
    print(f"profiled_step: {wall / n * 1000:.2f} ms")


if __name__ == "__main__":
    main()
