"""A throwaway PostgreSQL server for ``benchmarks/load.py``: the test suite's ``initdb``/``pg_ctl``
helper, but with PostgreSQL's default, durable settings (fsync and synchronous commit on; the
tests turn them off), listening on 127.0.0.1 only, removed afterwards."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import PostgresServer, _pg_bindir  # noqa: E402


class DurablePostgres(PostgresServer):
    """PostgreSQL's default, durable settings: fsync and synchronous commit on."""

    INITDB_EXTRA = ()
    SETTINGS = ("max_connections=100",)


def start_postgres() -> DurablePostgres:
    bindir = _pg_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL under /usr/lib/postgresql/*/bin (scripts/system-deps.sh)")
    server = DurablePostgres(bindir)
    server.start()
    server.admin("CREATE DATABASE dealer_load")
    return server
