"""Time the live table through the app: recording a step and settling ("Paid") a round.

Runs the real app (Flask test client, the table screen's own requests, "Start round"
is the bets form, each tap one JSON request with its idempotency key and the last sequence
number shown, the CSRF token in the header; each answered 201 with the round to draw next) on
a temporary SQLite file with the production pragmas (WAL, ``synchronous=FULL``). Each round in
dealing order: two boxes placed ("Start round" records the deal too), both boxes bet, the
dealer's cards at the reveal, the no-game choices when needed, each box's hand shown, then
"Paid" (stores the settlement). Deals are random from a fixed seed, so every run times the same
rounds.

    .venv/bin/python benchmarks/http.py [--rounds 200] [--seed 7] [--smoke]

Headline lines come last, as ``name: value unit``.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

# this file is named like the standard library's ``http`` package, which werkzeug imports: take
# the benchmarks directory off the path before anything imports ``http``
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from dealer_assist import create_app, db  # noqa: E402
from dealer_assist.models import User  # noqa: E402
from dealer_assist.rules.cards import ALL_CARDS  # noqa: E402
from dealer_assist.rules.games.registry import start  # noqa: E402
from dealer_assist.services.people import passwords, users  # noqa: E402
from dealer_assist.services.shifts import shifts  # noqa: E402
from dealer_assist.services.tables import tables  # noqa: E402

PASSWORD = "benchmark password 1"


def setup(app: object) -> int:
    """A croupier, a Russian poker table and an open shift; returns the table id."""
    with db.session_scope(app) as dbs:  # type: ignore[arg-type]
        created = users.create_user(dbs, username="carla", display_name="Carla",
                                    role="croupier")
        row = dbs.get(User, created.user.id)
        assert row is not None
        row.password_hash = passwords.hash_password(PASSWORD)
        row.must_change_password = False
        table = tables.create_table(dbs, tables.TableSpec("RP 1", "russian", "russian-classic",
                                                          10, 500, 50000, 6))
        shifts.open_shift(dbs, table_id=table.id, user_id=row.id or 0)
        return table.id


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def round_steps(rng: random.Random) -> list[tuple[str, dict[str, str]]]:
    """One round's steps after "Start round" (which records the deal: Russian poker deals no
    card face up), in dealing order as the tablet sends them: both boxes bet, the dealer's
    cards at the reveal, the no-game choices when needed, then each box's hand at the showdown.
    The pure engine checks every step first, so a step the app refuses stops the benchmark."""
    cards = [c.code for c in rng.sample(ALL_CARDS, 15)]
    engine, state = start("russian", "russian-classic", 10, 500, 50000)
    state = engine.step(state, "place", {"boxes": [{"box": "1", "ante": 100},
                                                 {"box": "2", "ante": 100}]})
    state = engine.step(state, "deal_dealer", {"up": []})
    steps = [("bet", {"box": "1"}), ("bet", {"box": "2"}),
             ("reveal", {"cards": " ".join(cards[10:15])})]
    for type, payload in steps:
        state = engine.step(state, type, payload)
    if any(s.type == "take_ante" for s in engine.next_steps(state)):
        steps += [("take_ante", {"box": "1"}), ("take_ante", {"box": "2"})]
    steps += [("show", {"box": "1", "cards": " ".join(cards[0:5])}),
              ("show", {"box": "2", "cards": " ".join(cards[5:10])})]
    for type, payload in steps[3:]:
        state = engine.step(state, type, payload)
    assert engine.can_settle(state), "the round did not reach its settlement"
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--smoke", action="store_true",
                        help="a few rounds only, to prove the script runs (make test)")
    args = parser.parse_args()
    if args.smoke:
        args.rounds = 3
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url,
                          "ARGON2_TIME_COST": 1, "ARGON2_MEMORY_KIB": 64})
        db.upgrade(db.get_engine(app))
        table_id = setup(app)
        client = app.test_client()
        page = client.get("/login").get_data(as_text=True)
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
        client.post("/login", data={"username": "carla", "password": PASSWORD,
                                    "csrf_token": csrf})
        with client.session_transaction() as sess:  # a login starts a fresh session
            csrf = str(sess["csrf_token"])
        rng = random.Random(args.seed)
        step_ms: list[float] = []
        paid_ms: list[float] = []
        start_ms: list[float] = []
        screen_ms: list[float] = []

        def post(url: str, body: dict[str, Any], form: bool = False) -> dict[str, Any]:
            """One request as the screen sends it (``static/round.js``): the bets form, or a
            tap's JSON; its answer is the round as the screen draws it next."""
            t0 = time.perf_counter()
            if form:
                resp = client.post(url, data={**body, "csrf_token": csrf},
                                   headers={"X-CSRF-Token": csrf})
            else:
                resp = client.post(url, json=body, headers={"X-CSRF-Token": csrf})
            timing[0] = (time.perf_counter() - t0) * 1000
            if resp.status_code != 201:
                raise SystemExit(f"{url} {body}: {resp.status_code}\n"
                                 f"{resp.get_data(as_text=True)[:2000]}")
            answer: dict[str, Any] = resp.get_json()["round"]
            return answer

        def tap(rnd: dict[str, Any], type: str, payload: dict[str, str]) -> dict[str, Any]:
            return post(f"/live/rounds/{rnd['id']}/steps",
                        {"type": type, "payload": payload, "idempotency_key": uuid.uuid4().hex,
                         "expected_seq": rnd["last_seq"]})

        timing = [0.0]
        t_all = time.perf_counter()
        for _ in range(args.rounds):
            rnd = post(f"/tables/{table_id}/live/rounds",
                       {"ante_1": "100", "ante_2": "100", "key": uuid.uuid4().hex}, form=True)
            start_ms.append(timing[0])
            for type, payload in round_steps(rng):
                rnd = tap(rnd, type, payload)
                step_ms.append(timing[0])
            t0 = time.perf_counter()
            client.get(f"/tables/{table_id}/live")
            screen_ms.append((time.perf_counter() - t0) * 1000)
            tap(rnd, "paid", {})
            paid_ms.append(timing[0])
        total = time.perf_counter() - t_all
        db.dispose(app)

    print(f"rounds: {args.rounds}, steps recorded: {len(step_ms)}, SQLite (WAL, synchronous=FULL)"
          f", Flask test client, {total:.1f} s in all")
    for name, values in (("start_round", start_ms), ("record_step", step_ms),
                         ("table_screen_get", screen_ms), ("settle_paid", paid_ms)):
        print(f"{name}: median {statistics.median(values):.2f} ms, p95 "
              f"{percentile(values, 0.95):.2f} ms, max {max(values):.2f} ms")
    print(f"record_step_p50: {statistics.median(step_ms):.2f} ms")
    print(f"record_step_p95: {percentile(step_ms, 0.95):.2f} ms")
    print(f"settle_paid_p50: {statistics.median(paid_ms):.2f} ms")
    print(f"settle_paid_p95: {percentile(paid_ms, 0.95):.2f} ms")


if __name__ == "__main__":
    main()
