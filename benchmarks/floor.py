"""The largest casino floor at human pace against the real server.

``--tables`` simulated tables (default 800: the biggest floors run 500-800), each a croupier who
records one step about every ``--pace`` seconds (default 4: exponential gaps, so the floor's
steps arrive as a Poisson stream of ``tables / pace`` a second), the four house games and 32-card
draw poker hands mixed (``--poker`` of the tables), for ``--seconds``, against the server as
``make run`` starts it (waitress, or ``--workers N``: gunicorn's N processes) on a fresh SQLite
file or ``--db postgres`` (a throwaway server with PostgreSQL's default, durable settings). A
table sends its next step only once its last one was answered, like a croupier. One client
process drives every table over ``--connections`` keep-alive connections.

It prints the steps per second answered, the step latency p50/p95/p99 counted from the moment
the step was due (so a client or server that falls behind shows), the 5xx answers, and then
checks the database: every step a table was answered 2xx for is stored exactly once, no key was
answered 201 twice, sequences, house settlements equal to the replay, SQLite's integrity check,
the audit chain (``benchmarks/load.py``'s check) and each poker hand started once per key. Last,
the bare durable-commit rate of the same disk (SQLite) or server (PostgreSQL), measured in the
same run, and our steps per second as a ratio of it; and the same floor (at most 30 s) against
the bare Flask app (``benchmarks/bare_app.py``) on the same disk or server, and our step p95 as
a multiple of its. ``--path screen``: the house tables send the table screen's own requests
(``benchmarks/routes.py``; ``--path api``, the default: the rounds API); poker tables
always send the poker API's. ``--smoke``: 12 tables for 6 seconds at a fast pace (``make test``
runs it, so the script never rots).

    .venv/bin/python benchmarks/floor.py [--db sqlite|postgres] [--tables 800] [--seconds 300]
        [--pace 4] [--poker 0.2] [--workers 1] [--threads 8] [--connections 48]
        [--path api|screen] [--smoke]

Headline figures come last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import heapq
import json
import queue
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))


def _load() -> Any:
    """``load.py``, by file name (this directory is off the path); its helper loads the rest."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("load", HERE / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["load"] = module
    spec.loader.exec_module(module)
    return module


load = sys.modules["load"] if "load" in sys.modules else _load()
tablet = load._helper("load_tablet")
floor_tables = load._helper("floor_tables")
bare_run = load._helper("bare_run")

from sqlalchemy import text  # noqa: E402

from dealer_assist import create_app, db  # noqa: E402
from dealer_assist.models import User  # noqa: E402
from dealer_assist.services.people import passwords, users  # noqa: E402
from dealer_assist.services.shifts import shifts  # noqa: E402
from dealer_assist.services.tables import poker as poker_tables  # noqa: E402


def setup(url: str, n: int, poker_share: float) -> list[dict[str, Any]]:
    """``load.setup``'s house tables, and poker tables (32-card draw, four seated players with
    deep stacks) for the ``poker_share`` of them; one croupier and an open shift each."""
    n_poker = round(n * poker_share)
    plan = load.setup(url, n - n_poker) if n > n_poker else []
    app = create_app({"SECRET_KEY": load.SECRET, "DATABASE_URL": url, **load.CHEAP_ARGON2})
    with db.session_scope(app) as dbs:
        for i in range(n_poker):
            name = f"poker{i}"
            created = users.create_user(dbs, username=name, display_name=name, role="croupier")
            row = dbs.get(User, created.user.id)
            assert row is not None
            row.password_hash = passwords.hash_password(load.PASSWORD)
            row.must_change_password = False
            table = poker_tables.open_table(dbs, name=f"P{i}", profile="draw32-limit",
                                            stakes={"small_blind": 10}, seat_count=5)
            shifts.open_shift(dbs, table_id=table.id, user_id=row.id or 0)
            for seat in "1234":
                poker_tables.seat_player(dbs, table.id, seat=seat, player=f"P{i}-{seat}",
                                         buy_in=10_000_000)
            plan.append({"id": table.id, "game": "draw32", "user": name, "poker": True})
    db.dispose(app)
    return plan


class Floor:
    """The tables, their arrival clock and the connections that carry their requests."""

    def __init__(self, port: int, plan: list[dict[str, Any]], pace: float, seed: int,
                 path: str = "api") -> None:
        self.port, self.pace = port, pace
        self.rng = random.Random(seed)
        chooser = tablet.Tablet(0, port, plan[0], load.PASSWORD, 0.0, seed, path)
        self.tables = [floor_tables.PokerTable(p, seed + i) if p.get("poker")
                       else floor_tables.BareTable(p, seed + i, p["body"]) if p.get("body")
                       else floor_tables.HouseTable(p, seed + i, chooser)
                       for i, p in enumerate(plan)]
        for i, t in enumerate(self.tables):
            t.index = i
        self.due: queue.Queue[tuple[float, Any]] = queue.Queue()
        self.lock = threading.Lock()
        self.step_ms: list[float] = []
        self.lag_ms: list[float] = []
        self.statuses: dict[int, int] = {}
        self.acked: set[tuple[int, str, str]] = set()
        self.created: dict[str, int] = {}
        self.hands: set[tuple[int, str]] = set()
        #: bytes and count of the 2xx answers (the bare Flask app answers as much)
        self.received = [0, 0]

    def login_all(self, connections: int) -> None:
        """Every croupier signs in (before the clock starts)."""
        work: queue.Queue[Any] = queue.Queue()
        for t in self.tables:
            work.put(t)

        def signer() -> None:
            while True:
                try:
                    t = work.get_nowait()
                except queue.Empty:
                    return
                http = tablet.login(self.port, t.plan["user"], load.PASSWORD)
                t.cookie, t.csrf = http.cookie, http.csrf
                http.close()

        threads = [threading.Thread(target=signer) for _ in range(connections)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()

    def run(self, seconds: float, connections: int) -> float:
        """The floor for ``seconds``: arrivals scheduled, sent and answered; the elapsed time."""
        t0 = time.monotonic()
        self.until = t0 + seconds
        clock: list[tuple[float, int]] = [(t0 + self.rng.expovariate(1 / self.pace), i)
                                          for i in range(len(self.tables))]
        heapq.heapify(clock)
        self.clock, self.clock_lock = clock, threading.Lock()
        workers = [threading.Thread(target=self._worker, daemon=True)
                   for _ in range(connections)]
        for w in workers:
            w.start()
        while time.monotonic() < self.until:
            with self.clock_lock:
                ready = []
                while self.clock and self.clock[0][0] <= time.monotonic():
                    ready.append(heapq.heappop(self.clock))
            for when, i in ready:
                self.due.put((when, self.tables[i]))
            time.sleep(0.002)
        for _ in workers:
            self.due.put((0.0, None))
        for w in workers:
            w.join(120)
        return time.monotonic() - t0

    def _worker(self) -> None:
        http = tablet.Http(self.port)
        while True:
            when, table = self.due.get()
            if table is None:
                http.close()
                with self.lock:
                    self.received[0] += http.received
                    self.received[1] += http.answers
                return
            self._one(http, when, table)
            if table.stopped is None and time.monotonic() < self.until:
                with self.clock_lock:  # the croupier's next step, after this one's answer
                    heapq.heappush(self.clock, (time.monotonic()
                                                + self.rng.expovariate(1 / self.pace),
                                                table.index))

    def _one(self, http: Any, when: float, table: Any) -> None:
        request = table.next_request()
        http.cookie, http.csrf = table.cookie, table.csrf
        sent = time.monotonic()
        try:
            status, body, _ = http.send(request.method, request.path, request.body,
                                        http.headers(request.key if request.header_key else None,
                                                     request.form))
        except OSError as err:  # the request is resent at the table's next arrival
            status, body = 0, str(err)
        done = time.monotonic()
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status in (200, 201):
                self.step_ms.append((done - when) * 1000)
                self.lag_ms.append((sent - when) * 1000)
                self._acknowledge(table, request, status, body)
        if status != 0:
            table.answered(status, body)

    def _acknowledge(self, table: Any, request: Any, status: int, body: Any) -> None:
        kind, what = request.kind
        if kind == "bare":
            return
        if kind == "hand":
            self.hands.add((int(body["id"]), request.key))
        else:
            self.acked.update(tablet.routes.acknowledged(table.round_id(body), request.key,
                                                         what, request.follows))
        if status == 201:
            self.created[request.key] = self.created.get(request.key, 0) + 1


def check_hands(url: str, hands: set[tuple[int, str]]) -> list[str]:
    """Each poker hand answered 2xx was started once under its key."""
    engine = db.make_engine(url)
    problems = []
    with engine.connect() as conn:
        keys: dict[str, list[int]] = {}
        for rid, rules in conn.execute(text("SELECT id, rules FROM game_round "
                                            "WHERE rules LIKE '%idempotency_key%'")):
            keys.setdefault(json.loads(rules).get("idempotency_key", ""), []).append(rid)
    engine.dispose()
    for rid, key in hands:
        if keys.get(key) != [rid]:
            problems.append(f"poker hand {key}: rounds {keys.get(key)}, answered {rid}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tables", type=int, default=800)
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--pace", type=float, default=4.0)
    parser.add_argument("--poker", type=float, default=0.2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--connections", type=int, default=48)
    parser.add_argument("--path", choices=tuple(tablet.ROUTES), default="api",
                        help="the house tables' requests: the rounds API or the table screen's")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.tables, args.seconds, args.pace, args.connections = 12, 6.0, 0.5, 6
    if not 1 <= args.tables <= 2000 or not 1 <= args.seconds <= 3600 or args.pace <= 0 \
            or not 0 <= args.poker <= 1 or not 1 <= args.workers <= 16:
        parser.error("bounded: 1..2000 tables, 1..3600 s, a positive pace, 1..16 workers")
    with tempfile.TemporaryDirectory(prefix="dealer-floor-") as tmp_name:
        tmp = Path(tmp_name)
        pg = load._helper("load_pg").start_postgres() if args.db == "postgres" else None
        url = pg.url("dealer_load") if pg else f"sqlite:///{tmp / 'floor.sqlite3'}"
        try:
            plan = setup(url, args.tables, args.poker)
            server = load.Server(url, load.free_port(), args.threads, tmp / "server.log",
                                 workers=args.workers)
            server.start()
            try:
                floor = Floor(server.port, plan, args.pace, args.seed, args.path)
                floor.login_all(min(args.connections, 16))
                elapsed = floor.run(args.seconds, args.connections)
            finally:
                server.stop()
            stopped = [t.stopped for t in floor.tables if t.stopped]
            stats = tablet.Stats(acked=floor.acked, created=floor.created)
            problems = load.check(url, stats) + check_hands(url, floor.hands)
            flask = bare_floor(args, url, tmp, floor.received[0] // max(1, floor.received[1]))
            bare = load.bare_commit_rate(url, tmp, 2.0 if args.smoke else 5.0)
        finally:
            if pg is not None:
                pg.stop()
    report(args, floor, elapsed, problems, stopped, bare, flask)
    if problems or stopped:
        sys.exit(1)


def bare_floor(args: argparse.Namespace, url: str, tmp: Path, answer: int) -> Floor:
    """The same floor (tables, pace, connections, server threads) against the bare Flask app
    on the same disk or PostgreSQL server, for at most 30 seconds: the figure beside ours."""
    body = bare_run.step_body(answer)
    with bare_run.BareServer(tmp, load.free_port(), url, args.threads) as server:
        server.warm(tablet.Http, body)
        floor = Floor(server.port, [{"body": body}] * args.tables, args.pace, args.seed)
        floor.elapsed = floor.run(min(args.seconds, 30.0), args.connections)
    return floor


def report(args: argparse.Namespace, floor: Floor, elapsed: float, problems: list[str],
           stopped: list[str], bare: float, flask: Floor) -> None:
    pct = load.percentile
    steps = len(floor.step_ms)
    five = sum(n for status, n in floor.statuses.items() if status >= 500)
    server = f"gunicorn {args.workers} workers" if args.workers > 1 else "waitress"
    print(f"{args.tables} tables ({round(args.tables * args.poker)} poker), --path {args.path}, "
          f"one step every {args.pace:g} s each (Poisson), {args.db}, {server} {args.threads} "
          f"threads, {elapsed:.1f} s; statuses {dict(sorted(floor.statuses.items()))}")
    print(f"client lag (due -> sent): p50 {pct(floor.lag_ms, .5):.1f} ms, "
          f"p95 {pct(floor.lag_ms, .95):.1f} ms")
    for line in stopped[:10]:
        print(f"table stopped: {line}")
    for line in problems[:20]:
        print(f"CHECK FAILED: {line}")
    print(f"checks: {len(floor.acked)} acknowledged steps, {len(floor.hands)} poker hands "
          f"started, {len(problems)} problems (stored exactly once, no double 201, sequences, "
          "settlements = replay, integrity_check, audit verify, one hand per key)")
    print(f"bare durable commits ({args.db}, one writer, same disk): {bare:.0f} commits/s")
    bare_p95 = pct(flask.step_ms, .95)
    print(f"the same floor against a bare Flask app (benchmarks/bare_app.py, one durable write, "
          f"{flask.elapsed:.0f} s): {len(flask.step_ms) / flask.elapsed:.1f} steps/s, p50 "
          f"{pct(flask.step_ms, .5):.1f} ms, p95 {bare_p95:.1f} ms; statuses "
          f"{dict(sorted(flask.statuses.items()))}")
    print(f"steps_per_s: {steps / elapsed:.1f} steps/s")
    print(f"offered_steps_per_s: {args.tables / args.pace:.1f} steps/s")
    print(f"step_p50: {pct(floor.step_ms, .5):.1f} ms")
    print(f"step_p95: {pct(floor.step_ms, .95):.1f} ms")
    print(f"step_p99: {pct(floor.step_ms, .99):.1f} ms")
    print(f"http_5xx: {five} responses")
    print(f"lost_or_duplicated: {len(problems)} problems")
    print(f"bare_flask_step_p95: {bare_p95:.1f} ms")
    print(f"step_p95_vs_bare_flask: {pct(floor.step_ms, .95) / bare_p95:.1f} x")
    print(f"bare_commit_rate: {bare:.0f} commits/s")
    print(f"steps_vs_bare_commits: {steps / elapsed / bare:.3f} ratio")


if __name__ == "__main__":
    main()
