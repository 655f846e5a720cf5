"""More than one app process on one database: real servers in child processes.

``two_apps`` starts two app processes (waitress, as ``make run`` does), each its own "machine"
on its own port, on one database -- a SQLite file or a PostgreSQL database of the suite's
throwaway server -- so a test chooses which process gets each request. ``gunicorn_app`` starts
``make run WORKERS=2``'s server (gunicorn, two workers) for the kill tests. ``redis_url`` is a
throwaway ``redis-server`` (no persistence, 127.0.0.1 only): skipped locally when Redis is not
installed, a failure in CI (``scripts/system-deps.sh`` installs it).

The tablets and the after-run database check are those of ``benchmarks/load.py``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist import db
from tests.conftest import DATABASES, PostgresServer

ROOT = Path(__file__).resolve().parents[2]


def bench(name: str) -> Any:
    """A module of ``benchmarks/`` (not a package: loaded by file name, once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class AppServer:
    """One app server in a child process, as ``make run`` starts it (``benchmarks/load.py``'s
    ``Server``: waitress, or gunicorn's ``workers``), on a free port, with more settings."""

    def __init__(self, url: str, log: Path, *, workers: int = 1, threads: int = 4,
                 **config: str) -> None:
        load = bench("load")
        self.server = load.Server(url, load.free_port(), threads, log, workers=workers,
                                  config=config)
        self.port: int = self.server.port

    def start(self) -> AppServer:
        self.server.start()
        return self

    def workers_pids(self) -> list[int]:
        """gunicorn's workers: the master's children now."""
        pid = self.server.proc.pid
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]

    def stop(self) -> None:
        self.server.stop()


# --- a database for a module's servers -------------------------------------------------------

@pytest.fixture(scope="module", params=DATABASES)
def cluster_db(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database shared by one module's servers, on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("cluster") / "cluster.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = f"cluster_{os.getpid()}_{abs(hash(request.module.__name__)) % 10_000}"
    server.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    server.admin(f"CREATE DATABASE {name}")
    engine = db.make_engine(server.url(name))
    db.upgrade(engine)
    engine.dispose()
    yield server.url(name)
    server.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="module")
def plan(cluster_db: str) -> list[dict[str, Any]]:
    """Eight tables (the four house games twice), each with its croupier and an open shift."""
    plan: list[dict[str, Any]] = bench("load").setup(cluster_db, 8)
    return plan


@pytest.fixture(scope="module")
def two_apps(cluster_db: str, plan: list[dict[str, Any]],
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, AppServer]]:
    """Two app processes on one database, each on its own port (two machines)."""
    logs = tmp_path_factory.mktemp("apps")
    servers = [AppServer(cluster_db, logs / f"app{n}.log") for n in (1, 2)]
    try:
        for server in servers:
            server.start()
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


# --- a throwaway redis-server -------------------------------------------------------------------

@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("redis-server is required in CI (scripts/system-deps.sh)", pytrace=False)
        pytest.skip("Redis tests skipped: no redis-server (run scripts/system-deps.sh as root)")
    root = Path(tempfile.mkdtemp(prefix="dealer-assist-redis-"))
    port = bench("load").free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(root)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        import redis

        client = redis.Redis.from_url(url)
        until = time.monotonic() + 30
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > until or proc.poll() is not None:
                    raise
                time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(root, ignore_errors=True)
