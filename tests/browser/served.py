"""The app served in a process of its own, for the browser test that kills the server with
``kill -9`` mid-round and starts it again on the same port:
``python -m tests.browser.served <database url> <port>``. The test's own app object arranges and
reads the same SQLite file (migrated before this starts)."""

from __future__ import annotations

import sys

from werkzeug.serving import make_server

from dealer_assist import create_app
from tests.conftest import FAST_ARGON2


def main(database_url: str, port: int) -> None:
    app = create_app({"SECRET_KEY": "browser-test", "DATABASE_URL": database_url,
                      **FAST_ARGON2})
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
