"""Where the time of one step goes: cProfile around rounds API steps, in process, on SQLite.

Plays ``--rounds`` Russian poker rounds through the rounds API (the Flask test client, the same
JSON requests the tablets send: session cookie, CSRF header, idempotency key) on a SQLite file
with the production pragmas, profiles every ``POST /events`` and prints the share of the time
spent in each layer (SQL execution, the ORM around it, the rules engine, the audit chain,
Flask/Werkzeug, JSON) and the top functions by own time.

    .venv/bin/python benchmarks/profile_step.py [--rounds 30] [--db-url URL]
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
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny run that proves the script works (make test); no figure "
                             "of a smoke run means anything")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 2
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
        client = app.test_client()
        client.get("/login")
        with client.session_transaction() as sess:
            csrf = sess["csrf_token"]
        client.post("/login", data={"username": "carla", "password": PASSWORD,
                                    "csrf_token": csrf})
        with client.session_transaction() as sess:
            csrf = sess["csrf_token"]
        profile = cProfile.Profile()
        n = 0
        wall = cpu = 0.0
        # the evaluator builds its lookup tables on first use (seconds, once per process):
        # a reveal outside the profile builds them, so the profile shows the steady state
        from dealer_assist.rules.registry import start

        flow, state = start("russian", "russian-classic", 10, 500, 50000)
        for type, payload in [("place", {"boxes": [{"box": "1", "ante": 100}]}), STEPS[0],
                              STEPS[2], STEPS[3], STEPS[5]]:
            state = flow.step(state, type, payload)

        def post(url: str, body: dict[str, object], profiled: bool) -> dict[str, object]:
            nonlocal n, wall, cpu
            headers = {"X-CSRF-Token": csrf, "Idempotency-Key": uuid.uuid4().hex}
            t0, c0 = time.perf_counter(), time.process_time()
            if profiled and not args.plain:
                profile.enable()
            resp = client.post(url, json=body, headers=headers)
            if profiled:
                profile.disable()
                n += 1
                wall += time.perf_counter() - t0
                cpu += time.process_time() - c0
            assert resp.status_code in (200, 201), resp.get_data(as_text=True)
            answer: dict[str, object] = resp.get_json()
            return answer

        for _ in range(args.rounds):
            rnd = post(f"/api/v1/tables/{table.id}/rounds",
                       {"boxes": [{"box": "1", "ante": 100}, {"box": "2", "ante": 100}]}, False)
            rid = rnd["id"]
            last: dict[str, object] = {}
            for type, payload in STEPS:
                last = post(f"/api/v1/rounds/{rid}/events", {"type": type, "payload": payload},
                            True)
            state = last["state"]
            assert isinstance(state, dict)
            for step in state["next_steps"]:
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
        db.dispose(app)
    if args.plain:
        print(f"{n} steps, wall {wall / n * 1000:.2f} ms, CPU {cpu / n * 1000:.2f} ms per step")
        print(f"step_wall: {wall / n * 1000:.2f} ms")
        print(f"step_cpu: {cpu / n * 1000:.2f} ms")
        return
    report(pstats.Stats(profile), n, wall)


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
