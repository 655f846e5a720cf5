"""Shared fixtures, after the Flask tutorial: ``app``, ``client``, ``runner``.

Rules tests (``tests/rules``) use no fixtures and no database. API tests use ``app``/``client``
as they are: the stateless calculator needs no database and no login.

Database tests ask for ``db_url`` (a fresh, migrated database) or ``empty_db_url`` (a fresh,
empty one). Both are parametrized over a real SQLite file and a real PostgreSQL server: a
throwaway server per test process, started with ``initdb``/``pg_ctl`` from
``/usr/lib/postgresql/*/bin`` on a free localhost port (as the ``postgres`` user when we are
root). Each test gets a fresh database: a copy of a migrated SQLite template file; on PostgreSQL
a per-process migrated database with every table truncated (or a new empty database for
``empty_db_url``). Without PostgreSQL the
``postgres`` half is skipped, except in CI (``CI=true``) where it fails.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from dealer_assist import create_app

#: cheap Argon2 for tests (the cost is a config value; the algorithm is the same)
FAST_ARGON2 = {"ARGON2_TIME_COST": 1, "ARGON2_MEMORY_KIB": 64}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        **FAST_ARGON2,
    })
    yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


# --- a throwaway PostgreSQL server ------------------------------------------------------------

def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> None:
    """Skip locally; in CI a missing PostgreSQL is a failure, not a quiet skip."""
    if _in_ci():
        pytest.fail(f"PostgreSQL is required in CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason} (run scripts/system-deps.sh as root)")


def _pg_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresServer:
    """initdb + pg_ctl in a temporary directory; trust auth on 127.0.0.1 only."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="dealer-assist-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=60)

    #: tests trade durability for speed; ``benchmarks/load_pg.py`` overrides these two
    INITDB_EXTRA: tuple[str, ...] = ("--no-sync",)
    SETTINGS: tuple[str, ...] = ("fsync=off", "synchronous_commit=off", "full_page_writes=off",
                                 "max_connections=50", "shared_buffers=16MB")

    def start(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "-A", "trust", "-E", "UTF8", "--locale=C", *self.INITDB_EXTRA)
        options = " ".join([
            "-c listen_addresses=127.0.0.1", f"-c unix_socket_directories={self.root}",
            *(f"-c {setting}" for setting in self.SETTINGS),
        ])
        for _attempt in range(3):  # another process may grab the port between probe and bind
            self.port = _free_port()
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-w", "-t", "30",
                          "-l", str(self.root / "log"), "-o", f"-p {self.port} {options}",
                          "start")
                return
            except subprocess.CalledProcessError:
                continue
        raise RuntimeError((self.root / "log").read_text(errors="replace")[-2000:])

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname={database}",
                             autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "stop")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = _pg_bindir()
    if bindir is None:
        _unavailable("no initdb under /usr/lib/postgresql/*/bin")
    assert bindir is not None
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root but there is no 'postgres' user to run the server")
    server = PostgresServer(bindir)
    try:
        server.start()
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, RuntimeError) as err:
        server.stop()
        detail = getattr(err, "stderr", b"") or str(err)
        _unavailable(f"could not start a server: {detail!r}"[:500])
    yield server
    server.stop()


# --- fresh databases, migrated or empty -------------------------------------------------------

_counter = itertools.count(1)


def _migrate(url: str) -> None:
    from dealer_assist.db import make_engine, upgrade

    engine = make_engine(url)
    try:
        upgrade(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    _migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_migrated(postgres_server: PostgresServer) -> str:
    """One migrated database per test process, emptied before each test that uses it."""
    postgres_server.admin("CREATE DATABASE dealer_test")
    _migrate(postgres_server.url("dealer_test"))
    return "dealer_test"


def _emptied(server: PostgresServer, name: str) -> str:
    """TRUNCATE every table (~20 ms; a new database from a template takes 50-250 ms)."""
    from sqlmodel import SQLModel

    import dealer_assist.models  # noqa: F401

    tables = ", ".join(t.name for t in SQLModel.metadata.sorted_tables)
    server.admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                 f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")
    server.admin(f"TRUNCATE {tables} RESTART IDENTITY CASCADE", database=name)
    return server.url(name)


def _fresh_database(request: pytest.FixtureRequest, tmp_path: Path,
                    migrated: bool) -> Iterator[str]:
    if request.param == "sqlite":
        path = tmp_path / "db.sqlite3"
        if migrated:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    if migrated:
        yield _emptied(server, request.getfixturevalue("postgres_migrated"))
        return
    name = f"test_{os.getpid()}_{next(_counter)}"
    server.admin(f"CREATE DATABASE {name} TEMPLATE template0")
    yield server.url(name)
    server.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


DATABASES: list[Any] = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database at the head migration, on SQLite and on PostgreSQL."""
    yield from _fresh_database(request, tmp_path, migrated=True)


@pytest.fixture(params=DATABASES)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database with no tables at all, on SQLite and on PostgreSQL."""
    yield from _fresh_database(request, tmp_path, migrated=False)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Every test has its own node id: the parallel run (pytest-xdist) reports results by it,
    so a second test with the same id would run unseen and uncounted."""
    ids = [item.nodeid for item in session.items]
    twice = sorted({i for i in ids if ids.count(i) > 1}) if len(set(ids)) != len(ids) else []
    if twice:
        raise pytest.UsageError("tests sharing a node id: " + ", ".join(twice))
