"""The floor under one step: a bare Flask app on the same server, no dealer_assist.

``POST /step`` parses the JSON body, appends one row durably and answers a JSON document of the
size the caller asks for (``answer_bytes``: the size of a round as our server answers it). The
row goes to a SQLite file with the production pragmas (WAL, ``synchronous=FULL``) through the
standard library's ``sqlite3``, or, when ``BARE_DB`` is a PostgreSQL URL, to that server
through psycopg (its durable defaults): no ORM, no audit, no rules. What the server spends on
it is what any Flask app served by waitress must spend to take one durable write from a tablet
and answer it: the load benchmarks (``benchmarks/bare_run.py``) run it after our own server and
print our figure as a multiple of it.

    waitress-serve --threads=8 --call bare_app:create   (BARE_DB=/path/to/file.sqlite3
                                                         or postgresql://user@host/db)
"""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Any

from flask import Flask, jsonify, request

_local = threading.local()
TABLE = "CREATE TABLE IF NOT EXISTS bare_step (id {key}, body TEXT)"


def _postgres() -> bool:
    return os.environ["BARE_DB"].startswith("postgresql")


def _connect() -> Any:
    """A connection of this thread (made once): sqlite3 in autocommit mode, or psycopg."""
    target = os.environ["BARE_DB"]
    if _postgres():
        import psycopg

        return psycopg.connect(target.replace("postgresql+psycopg://", "postgresql://"))
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA busy_timeout=5000")
    return conn


def _db() -> Any:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = _local.conn = _connect()
    return conn


def _append(body: str) -> None:
    """One row, one durable commit."""
    conn = _db()
    if _postgres():
        conn.execute("INSERT INTO bare_step (body) VALUES (%s)", (body,))
        conn.commit()
        return
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO bare_step (body) VALUES (?)", (body,))
    conn.execute("COMMIT")


def create() -> Flask:
    app = Flask(__name__)
    first = _connect()  # the table, once, before any thread writes
    first.execute(TABLE.format(key="SERIAL PRIMARY KEY" if _postgres() else "INTEGER PRIMARY KEY"))
    first.commit()
    first.close()

    @app.post("/step")
    def step() -> Any:
        body = request.get_json()
        _append(request.get_data(as_text=True))
        size = int(body.get("answer_bytes", 2000))
        return jsonify({"ok": True, "padding": "x" * max(0, size - 30)}), 201

    return app
