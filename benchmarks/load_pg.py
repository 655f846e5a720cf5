"""A throwaway PostgreSQL server for ``benchmarks/load.py``: the test suite's ``initdb``/``pg_ctl``
helper, but with PostgreSQL's default, durable settings (fsync and synchronous commit on; the
tests turn them off), listening on 127.0.0.1 only, removed afterwards."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import PostgresServer, _free_port, _pg_bindir  # noqa: E402


class DurablePostgres(PostgresServer):
    def start(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "-A", "trust", "-E", "UTF8", "--locale=C")
        options = (f"-c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
                   "-c max_connections=100")
        for _attempt in range(3):
            self.port = _free_port()
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-w", "-t", "30",
                          "-l", str(self.root / "log"), "-o", f"-p {self.port} {options}",
                          "start")
                return
            except subprocess.CalledProcessError:
                continue
        raise RuntimeError((self.root / "log").read_text(errors="replace")[-2000:])


def start_postgres() -> DurablePostgres:
    bindir = _pg_bindir()
    if bindir is None:
        raise SystemExit("no PostgreSQL under /usr/lib/postgresql/*/bin (scripts/system-deps.sh)")
    server = DurablePostgres(bindir)
    server.start()
    server.admin("CREATE DATABASE dealer_load")
    return server
