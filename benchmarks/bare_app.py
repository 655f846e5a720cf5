"""The floor under one step (issue 25): a bare Flask app on the same server, no dealer_assist.

``POST /step`` parses the JSON body, appends one row to a SQLite file with the production
pragmas (WAL, ``synchronous=FULL``) and commits it durably through the standard library's
``sqlite3`` (no ORM, no audit, no rules), and answers a JSON document of the size the caller
asks for (``answer_bytes``: the size of a round as the rounds API answers it). What the server
spends on it is what any Flask app served by waitress must spend to take one durable write
from a tablet and answer it: ``profile_step.py --server`` runs it after our own server and
prints our CPU per write as a multiple of it.

    waitress-serve --threads=8 --call bare_app:create   (BARE_DB=/path/to/file.sqlite3)
"""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Any

from flask import Flask, jsonify, request

_local = threading.local()


def _db() -> sqlite3.Connection:
    conn: sqlite3.Connection | None = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(os.environ["BARE_DB"], isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("CREATE TABLE IF NOT EXISTS step (id INTEGER PRIMARY KEY, body TEXT)")
        _local.conn = conn
    return conn


def create() -> Flask:
    app = Flask(__name__)

    @app.post("/step")
    def step() -> Any:
        body = request.get_json()
        conn = _db()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO step (body) VALUES (?)", (request.get_data(as_text=True),))
        conn.execute("COMMIT")
        size = int(body.get("answer_bytes", 2000))
        return jsonify({"ok": True, "padding": "x" * max(0, size - 30)}), 201

    return app
