"""gunicorn's settings for ``make run WORKERS=N``: N app processes on one database.

``gunicorn -c python:dealer_assist.gunicorn_conf --workers N --threads T --bind HOST:PORT
'dealer_assist.wsgi:production_app'``. Why gunicorn: a pre-forking master on Linux that
restarts a worker the moment it dies (a ``kill -9``, an out-of-memory kill) while the others
go on serving on the same port; with ``preload_app`` the app and the hand evaluator's tables
(``wsgi.warm_up``) are built once in the master and shared copy-on-write, so a replacement
worker answers within milliseconds. Each worker runs ``--threads`` threads (gthread).

Nothing a request needs lives only in one worker: sessions and every record are in the
database, the public rate limits on Redis (``REDIS_URL``), the lab's figures in the database;
what a worker keeps in memory (the replay memo, the round rules of a table setting) are caches
that are correct without it.
"""

from __future__ import annotations

from typing import Any

from dealer_assist import db

preload_app = True
#: a worker that has not answered for this long is replaced (a hung request, not a slow one)
timeout = 60
graceful_timeout = 20
#: a tablet keeps its connection between steps
keepalive = 30


def post_fork(server: Any, worker: Any) -> None:
    """A forked worker opens its own database connections (never the master's)."""
    db.get_engine(worker.app.wsgi()).dispose(close=False)  # SQLAlchemy's fork recipe
