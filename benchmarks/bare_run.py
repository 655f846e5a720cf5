"""The bare Flask app (``benchmarks/bare_app.py``) on the same server, run and measured in the
same run as ours: what the load benchmarks print beside their own figure, as a ratio.

:class:`BareServer` starts it as ``make run`` starts ours (waitress, 8 threads) on a SQLite file
beside ours (the same disk) or on the same PostgreSQL server; :func:`cpu_per_write` is its
server CPU per write one request at a time (``profile_step.py --server``);
:func:`writes_per_s` its writes a second from N clients back to back (``load.py``). The floor
at human pace (``floor.py``) drives it with its own Poisson stream (``floor_tables.BareTable``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import text

from dealer_assist import db

HERE = Path(__file__).resolve().parent


def step_body(answer: int) -> bytes:
    """A step's request (its size) asking for an answer of ``answer`` bytes (ours, on average)."""
    return json.dumps({"type": "deal_box", "payload": {"box": "1", "cards": "as ad ah 2c 3d"},
                       "expected_seq": 3, "idempotency_key": uuid.uuid4().hex,
                       "answer_bytes": answer}).encode()


class BareServer:
    """``bare_app`` under waitress in a child process, on ``url`` (PostgreSQL) or a SQLite file
    in ``tmp``; a context manager that stops it."""

    def __init__(self, tmp: Path, port: int, url: str | None = None, threads: int = 8) -> None:
        self.tmp, self.port, self.threads = tmp, port, threads
        self.db = url if url and url.startswith("postgresql") else str(tmp / "bare.sqlite3")
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> BareServer:
        # a directory of its own on the path (this one has an ``http.py`` that would shadow the
        # standard library's)
        home = self.tmp / "bare"
        home.mkdir(exist_ok=True)
        shutil.copy(HERE / "bare_app.py", home / "bare_app.py")
        env = {**os.environ, "BARE_DB": self.db, "PYTHONPATH": str(home)}
        bindir = Path(sys.executable).parent
        with (self.tmp / "bare.log").open("ab") as log:
            self.proc = subprocess.Popen([str(bindir / "waitress-serve"), "--host", "127.0.0.1",
                                          f"--port={self.port}", f"--threads={self.threads}",
                                          "--call", "bare_app:create"],
                                         env=env, stdout=log, stderr=subprocess.STDOUT,
                                         cwd=str(home))
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def warm(self, http: Any, body: bytes, n: int = 50) -> None:
        """Wait until it answers, then ``n`` writes (first connections, lazy imports)."""
        client = http(self.port)
        until = time.monotonic() + 120
        while True:
            try:
                client.send("POST", "/step", body, client.headers())
                break
            except OSError:
                if time.monotonic() > until or (self.proc and self.proc.poll() is not None):
                    tail = (self.tmp / "bare.log").read_text(errors="replace")[-2000:]
                    raise SystemExit(f"the bare app did not start: {tail}") from None
                time.sleep(0.05)
        for _ in range(n):
            client.send("POST", "/step", body, client.headers())
        client.close()


def cpu_per_write(server: BareServer, http: Any, cpu: Any, writes: int, answer: int) -> float:
    """Server CPU milliseconds per write, ``writes`` POSTs one at a time (no contention)."""
    body = step_body(answer)
    server.warm(http, body)
    client = http(server.port)
    c0 = cpu(server.pid)
    for _ in range(writes):
        status, _answer, _resp = client.send("POST", "/step", body, client.headers())
        assert status == 201, status
    used: float = cpu(server.pid) - c0
    client.close()
    return used / writes * 1000


def writes_per_s(server: BareServer, http: Any, clients: int, seconds: float,
                 answer: int) -> float:
    """Writes a second answered to ``clients`` clients sending back to back for ``seconds``."""
    body = step_body(answer)
    server.warm(http, body)
    counts = [0] * clients
    until = time.monotonic() + seconds

    def client(n: int) -> None:
        conn = http(server.port)
        while time.monotonic() < until:
            status, _answer, _resp = conn.send("POST", "/step", body, conn.headers())
            if status == 201:
                counts[n] += 1
        conn.close()

    t0 = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - t0)


def bare_commit_rate(url: str, tmp: Path, seconds: float) -> float:
    """Durable commits a second from one writer on the same disk (SQLite: WAL,
    ``synchronous=FULL``, as the app's engine) or the same server (PostgreSQL, its durable
    defaults): one small INSERT per commit, nothing else -- the physical limit."""
    bare = f"sqlite:///{tmp / 'bare.sqlite3'}" if url.startswith("sqlite") else url
    engine = db.make_engine(bare)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS bare_commit (n INTEGER)"))
    n, t0 = 0, time.monotonic()
    with engine.connect() as conn:
        while time.monotonic() - t0 < seconds:
            conn.execute(text("INSERT INTO bare_commit (n) VALUES (:n)"), {"n": n})
            conn.commit()
            n += 1
        elapsed = time.monotonic() - t0
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE bare_commit"))
    engine.dispose()
    return n / elapsed
