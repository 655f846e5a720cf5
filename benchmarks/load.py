"""Load test: N tablets playing rounds back to back against the real server, then a database check.

Starts the production server (waitress, as ``make run`` does) on a free 127.0.0.1 port with a
fresh database (a SQLite file with the production pragmas, or ``--db postgres``: a throwaway
PostgreSQL server with its default, durable settings), creates one croupier and one table per
tablet (the four house games in turn) with an open shift, and lets ``--tablets`` tablets
(``benchmarks/load_tablet.py``) play complete rounds for ``--seconds`` through the rounds API
(``--path api``, the default) or the table screen's own requests (``--path screen``,
``benchmarks/routes.py``), with double taps and time-outs-then-resends. ``--crashes N`` kills
the server with SIGKILL N times, evenly spread, and restarts it; the tablets resend with the
same keys.

Then it checks the database: every step a tablet got a 2xx for is stored exactly once (its key,
its type, its round), no key was answered 201 twice, every round's sequence numbers run 1..n,
every settled round has its settlement and replaying its events gives exactly that settlement,
at most one open round per table, SQLite's ``PRAGMA integrity_check``, and ``flask audit
verify`` on the hash chain. Exit 1 if any check fails. Last, in the same run, the bare Flask
app's writes a second (``benchmarks/bare_app.py``, the same server, clients and database) and
the bare durable-commit rate of the same disk or server, and our writes a second as a ratio of
each (a write: one request answered 2xx).

    .venv/bin/python benchmarks/load.py [--db sqlite|postgres] [--path api|screen] [--tablets 8]
                        [--seconds 60] [--crashes 0] [--threads 8] [--seed 11] [--workers 1]

Everything stays on 127.0.0.1 and ends within ``--seconds`` plus start-up and checks. Headline
figures come last, one per line, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# this directory holds ``http.py``, which would shadow the standard library's ``http`` package:
# take it off the path and load the helper modules by file name
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))


def _helper(name: str, file: str = "") -> Any:
    """``benchmarks/<file or name>.py`` as module ``name``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, HERE / f"{file or name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_tablet = _helper("load_tablet")
Stats, Tablet = _tablet.Stats, _tablet.Tablet
_bare = _helper("bare_run")
bare_commit_rate = _bare.bare_commit_rate

from sqlalchemy import text  # noqa: E402

from dealer_assist import create_app, db  # noqa: E402
from dealer_assist.models import User  # noqa: E402
from dealer_assist.rules.engine import Event  # noqa: E402
from dealer_assist.rules.games.registry import get_game, start  # noqa: E402
from dealer_assist.services.people import passwords, users  # noqa: E402
from dealer_assist.services.shifts import shifts  # noqa: E402
from dealer_assist.services.tables import profiles, tables  # noqa: E402

PASSWORD = "load test password 1"
GAMES = ("russian", "caribbean", "oasis", "split")
SECRET = "load-test-secret"
CHEAP_ARGON2 = {"ARGON2_TIME_COST": 1, "ARGON2_MEMORY_KIB": 64}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def setup(url: str, n: int) -> list[dict[str, Any]]:
    """Migrate; one croupier, one table (games in turn) and an open shift per tablet."""
    app = create_app({"SECRET_KEY": SECRET, "DATABASE_URL": url, **CHEAP_ARGON2})
    db.upgrade(db.get_engine(app))
    out = []
    with db.session_scope(app) as dbs:
        for i in range(n):
            game = GAMES[i % len(GAMES)]
            created = users.create_user(dbs, username=f"tablet{i}", display_name=f"Tablet {i}",
                                        role="croupier")
            row = dbs.get(User, created.user.id)
            assert row is not None
            row.password_hash = passwords.hash_password(PASSWORD)
            row.must_change_password = False
            profile = profiles.default_profile(game) or ""
            table = tables.create_table(dbs, tables.TableSpec(f"T{i} {game}", game, profile,
                                                              10, 500, 500000, 3))
            shifts.open_shift(dbs, table_id=table.id, user_id=row.id or 0)
            out.append({"id": table.id, "game": game, "profile": table.profile, "min_ante": 10,
                        "max_ante": 500, "max_payout": 500000, "user": f"tablet{i}"})
    db.dispose(app)
    return out


class Server:
    """The server in a child process, as ``make run`` starts it: ``waitress-serve``, or with
    ``workers`` > 1 gunicorn's N app processes (``make run WORKERS=N``)."""

    def __init__(self, url: str, port: int, threads: int, log: Path, workers: int = 1,
                 config: dict[str, str] | None = None) -> None:
        self.url, self.port, self.threads, self.log = url, port, threads, log
        self.workers = workers
        #: more settings: ``DEALER_ASSIST_<KEY>``, and ``REDIS_URL`` as it is
        self.config = dict(config or {})
        self.proc: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        bindir = Path(sys.executable).parent
        if self.workers > 1:
            return [str(bindir / "gunicorn"), "-c", "python:dealer_assist.gunicorn_conf",
                    "--workers", str(self.workers), "--threads", str(self.threads),
                    "--bind", f"127.0.0.1:{self.port}", "dealer_assist.wsgi:production_app()"]
        return [str(bindir / "waitress-serve"), "--host", "127.0.0.1", f"--port={self.port}",
                f"--threads={self.threads}", "--call", "dealer_assist.wsgi:production_app"]

    def start(self) -> None:
        env = {**os.environ, "DATABASE_URL": self.url, "DEALER_ASSIST_SECRET_KEY": SECRET,
               "PYTHONPATH": str(ROOT),
               **{f"DEALER_ASSIST_{k}": str(v) for k, v in CHEAP_ARGON2.items()}}
        # the lab's tables (~18 s of CPU per start) judge settled rounds'
        # decisions, which no tablet here asks for: a start (and a restart after kill -9) is
        # the server's, not the lab's
        env.setdefault("DEALER_ASSIST_WARM_LAB", "false")
        env.pop("REDIS_URL", None)
        for key, value in self.config.items():
            env[key if key == "REDIS_URL" else f"DEALER_ASSIST_{key}"] = value
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(self.command(), env=env, stdout=log,
                                         stderr=subprocess.STDOUT, cwd=str(ROOT))
        until = time.monotonic() + 180  # imports take long on a busy machine
        while time.monotonic() < until and self.proc.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        tail = self.log.read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the server did not start:\n{tail}")

    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def merge(all_stats: list[Any]) -> Any:
    out = Stats()
    for s in all_stats:
        out.step_ms += s.step_ms
        out.settle_ms += s.settle_ms
        out.start_ms += s.start_ms
        for k, v in s.statuses.items():
            out.statuses[k] = out.statuses.get(k, 0) + v
        out.acked |= s.acked
        for k, v in s.created.items():
            out.created[k] = out.created.get(k, 0) + v
        out.rounds += s.rounds
        out.refused += s.refused
        out.errors += s.errors
    return out


def run_load(args: argparse.Namespace, url: str, port: int, tmp: Path) -> tuple[Any, float]:
    plan = setup(url, args.tablets)
    server = Server(url, port, args.threads, tmp / "server.log", workers=args.workers)
    server.start()
    t0 = time.monotonic()
    deadline = t0 + args.seconds
    tablets = [Tablet(i, port, t, PASSWORD, deadline, args.seed * 1000 + i, args.path)
               for i, t in enumerate(plan)]
    client0, server0 = time.process_time(), process_tree_cpu(server.pid())
    for t in tablets:
        t.start()
    try:
        for n in range(args.crashes):
            time.sleep(max(0.0, t0 + args.seconds * (n + 1) / (args.crashes + 1)
                           - time.monotonic()))
            server.kill9()
            server.start()
        for t in tablets:
            t.join(args.seconds + 120)
    finally:
        elapsed = time.monotonic() - t0
        if not args.crashes:  # a restarted server's CPU starts again from zero
            CPU["server"] = process_tree_cpu(server.pid()) - server0
        CPU["client"] = time.process_time() - client0
        server.stop()
    answers = [(t.http.received, t.http.answers) for t in tablets if t.http is not None]
    ANSWER["bytes"] = sum(b for b, _ in answers) // max(1, sum(n for _, n in answers))
    return merge([t.stats for t in tablets]), elapsed


#: our answers' mean size in the last run (the bare Flask app answers as much)
ANSWER: dict[str, int] = {}


def bare_flask_rate(args: argparse.Namespace, url: str, tmp: Path) -> float:
    """The bare Flask app's writes a second on the same server and disk (or PostgreSQL server),
    driven as ours: ``--tablets`` clients back to back, ``--threads`` server threads."""
    with _bare.BareServer(tmp, free_port(), url, args.threads) as bare:
        return float(_bare.writes_per_s(bare, _tablet.Http, args.tablets,
                                        min(args.seconds, 20.0), ANSWER.get("bytes", 2000)))


#: CPU seconds of the last run: the tablets (this process) and the server (with its workers)
CPU: dict[str, float] = {}


def process_tree_cpu(pid: int | None) -> float:
    """User + system CPU seconds of a process and its descendants so far (Linux ``/proc``)."""
    if pid is None:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


def check(url: str, stats: Any) -> list[str]:
    """The database after the run: every acknowledged step exactly once, and consistent."""
    problems: list[str] = []
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT round_id, idempotency_key, type, seq FROM round_event"))
        stored: dict[tuple[int, str], list[str]] = {}
        for rid, key, type, _seq in rows:
            stored.setdefault((rid, key), []).append(type)
        for rid, key, type in stats.acked:
            found = stored.get((rid, key), [])
            if found != [type]:
                problems.append(f"acknowledged {type} {key} in round {rid}: stored {found}")
        problems += [f"key {k} answered 201 {n} times" for k, n in stats.created.items() if n > 1]
        problems += _rounds_consistent(conn)
        if engine.dialect.name == "sqlite":
            result = conn.execute(text("PRAGMA integrity_check")).scalar()
            if result != "ok":
                problems.append(f"integrity_check: {result}")
    engine.dispose()
    audit = subprocess.run([sys.executable, "-m", "flask", "--app", "dealer_assist", "audit",
                            "verify"], env={**os.environ, "DATABASE_URL": url,
                                            "DEALER_ASSIST_SECRET_KEY": SECRET,
                                            "PYTHONPATH": str(ROOT)},
                           capture_output=True, text=True, cwd=str(ROOT), timeout=600)
    if audit.returncode != 0:
        problems.append(f"audit verify: {audit.stdout.strip()} {audit.stderr.strip()[-500:]}")
    return problems


def _rounds_consistent(conn: Any) -> list[str]:
    """Sequence numbers 1..n, one open round per table, settlement == settle(replay(events))."""
    problems = []
    tables_ = {r[0]: r[1:] for r in conn.execute(text(
        "SELECT id, game, profile, min_ante, max_ante, max_payout FROM game_table"))
        if not get_game(r[1]).poker_room}  # a poker hand settles itself (benchmarks/floor.py)
    events: dict[int, list[Any]] = {}
    for rid, seq, type, payload in conn.execute(text(
            "SELECT round_id, seq, type, payload FROM round_event ORDER BY round_id, seq")):
        events.setdefault(rid, []).append(Event(seq, type, json.loads(payload)))
    settled = {r[0]: json.loads(r[1]) for r in conn.execute(text(
        "SELECT round_id, settlement FROM round_settlement"))}
    open_at: dict[int, int] = {}
    for rid, table_id, status in conn.execute(text(
            "SELECT id, table_id, status FROM game_round")):
        evs = events.get(rid, [])
        if [e.seq for e in evs] != list(range(1, len(evs) + 1)):
            problems.append(f"round {rid}: sequence {[e.seq for e in evs]}")
        if status == "open":
            open_at[table_id] = open_at.get(table_id, 0) + 1
        if status == "settled" and table_id in tables_:
            engine, empty = start(*tables_[table_id])
            replayed = engine.settle(engine.replay(empty, evs).state).to_dict()
            if settled.get(rid) != json.loads(json.dumps(replayed)):
                problems.append(f"round {rid}: stored settlement differs from the replay")
    problems += [f"table {t}: {n} open rounds" for t, n in open_at.items() if n > 1]
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--tablets", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--crashes", type=int, default=0)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=1,
                        help="app processes (gunicorn, as make run WORKERS=N); 1: waitress")
    parser.add_argument("--path", choices=tuple(_tablet.ROUTES), default="api",
                        help="the tablets' requests: the rounds API or the table screen's")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args()
    if args.smoke:
        args.tablets, args.seconds = 2, 2.0
    if not 1 <= args.tablets <= 64 or not 1 <= args.seconds <= 3600 or args.crashes > 100:
        parser.error("bounded: 1..64 tablets, 1..3600 s, at most 100 crashes")
    with tempfile.TemporaryDirectory(prefix="dealer-load-") as tmp_name:
        tmp = Path(tmp_name)
        pg = None
        if args.db == "postgres":
            pg = _helper("load_pg").start_postgres()
            url = pg.url("dealer_load")
        else:
            url = f"sqlite:///{tmp / 'load.sqlite3'}"
        try:
            stats, elapsed = run_load(args, url, free_port(), tmp)
            problems = check(url, stats)
            flask = bare_flask_rate(args, url, tmp)
            bare = bare_commit_rate(url, tmp, 5.0)
            report(args, stats, elapsed, problems, tmp / "server.log", bare, flask)
        finally:
            if pg is not None:
                pg.stop()
    if problems or stats.errors:
        sys.exit(1)


def report(args: argparse.Namespace, s: Any, elapsed: float, problems: list[str],
           log: Path, bare: float, flask: float) -> None:
    writes = len(s.step_ms) + len(s.settle_ms) + len(s.start_ms)
    five = sum(n for status, n in s.statuses.items() if status >= 500)
    served = (f"gunicorn {args.workers} workers x {args.threads} threads" if args.workers > 1
              else f"waitress {args.threads} threads")
    print(f"{args.tablets} tablets, --path {args.path}, {args.db}, {served}, "
          f"{elapsed:.1f} s, {args.crashes} kill -9; {s.rounds} rounds paid, {writes} writes "
          f"answered; statuses {dict(sorted(s.statuses.items()))}")
    for name, values in (("start", s.start_ms), ("step", s.step_ms), ("settle", s.settle_ms)):
        print(f"{name}: p50 {percentile(values, .5):.1f} ms, p95 {percentile(values, .95):.1f} ms"
              f", p99 {percentile(values, .99):.1f} ms, max {max(values, default=0):.1f} ms")
    for line in s.errors[:20]:
        print(f"tablet error: {line}")
    for line in problems[:20]:
        print(f"CHECK FAILED: {line}")
    if s.errors and log.exists():
        print(log.read_text(errors="replace")[-3000:])
    print(f"checks: {len(s.acked)} acknowledged writes, {len(problems)} problems "
          "(stored exactly once, no double 201, sequences, settlements = replay, one open round "
          "per table, integrity_check, audit verify)")
    print(f"steps_per_s: {writes / elapsed:.1f} steps/s")
    print(f"step_p50: {percentile(s.step_ms, .5):.1f} ms")
    print(f"step_p95: {percentile(s.step_ms, .95):.1f} ms")
    print(f"step_p99: {percentile(s.step_ms, .99):.1f} ms")
    print(f"settle_p50: {percentile(s.settle_ms, .5):.1f} ms")
    print(f"settle_p95: {percentile(s.settle_ms, .95):.1f} ms")
    print(f"settle_p99: {percentile(s.settle_ms, .99):.1f} ms")
    print(f"http_5xx: {five} responses")
    print(f"lost_or_duplicated: {len(problems)} problems")
    if CPU.get("server"):
        print(f"server_cpu_per_write: {CPU['server'] / writes * 1000:.2f} ms")
    if CPU.get("client"):
        print(f"tablets_cpu_per_write: {CPU['client'] / writes * 1000:.2f} ms")
    print(f"bare_flask_writes_per_s: {flask:.1f} writes/s")
    print(f"writes_vs_bare_flask: {writes / elapsed / flask:.3f} ratio")
    print(f"bare_commit_rate: {bare:.0f} commits/s")
    print(f"steps_vs_bare_commits: {writes / elapsed / bare:.3f} ratio")


if __name__ == "__main__":
    main()
