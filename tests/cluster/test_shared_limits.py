"""The public rate limit holds across app processes: with ``REDIS_URL`` every
process counts in one Redis (a real ``redis-server`` started for the test), so an address gets
its quota once, whichever process answers; a signed-in member of staff at the same address is
neither refused nor counted; in memory (no Redis) each process counts alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cluster.conftest import AppServer, bench

LIMIT = "4 per minute"
#: the counters do not depend on the database: one is enough
pytestmark = pytest.mark.parametrize("cluster_db", ["sqlite"], indirect=True)


def _post(port: int, path: str, client: Any = None) -> int:
    http = client or bench("load_tablet").Http(port)
    if client is not None:
        http = bench("load_tablet").Http(port, client.cookie, client.csrf)
    status, _answer, _ = http.send("POST", path, b"{}", http.headers())
    http.close()
    return int(status)


@pytest.fixture(scope="module")
def apps(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
         plan: list[dict[str, Any]], cluster_db: str) -> Iterator[list[AppServer]]:
    """Two processes with their counters on Redis, one more counting in its own memory."""
    redis_url = request.getfixturevalue("redis_url")
    import redis

    redis.Redis.from_url(redis_url).flushall()  # counters of an earlier module start at zero
    logs: Path = tmp_path_factory.mktemp("limits")
    servers = [AppServer(cluster_db, logs / f"redis{n}.log", PUBLIC_API_RATE_LIMIT=LIMIT,
                         REDIS_URL=redis_url) for n in (1, 2)]
    servers.append(AppServer(cluster_db, logs / "memory.log", PUBLIC_API_RATE_LIMIT=LIMIT))
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


def test_an_address_gets_its_quota_once_across_processes(apps: list[AppServer]) -> None:
    a, b, _memory = apps
    calc = "/api/v1/caribbean/settle"  # an empty body: 422, counted like any call
    assert [_post(server.port, calc) for server in (a, b, a, b)] == [422] * 4
    assert _post(a.port, calc) == 429
    assert _post(b.port, calc) == 429


def test_signed_in_staff_and_the_document_are_never_refused(
        apps: list[AppServer], plan: list[dict[str, Any]]) -> None:
    a, b, _memory = apps
    calc = "/api/v1/caribbean/settle"
    for _ in range(5):  # the address's quota is used up (or will be)
        _post(a.port, calc)
    assert _post(b.port, calc) == 429
    staff = bench("load_tablet").login(a.port, plan[1]["user"], bench("load").PASSWORD)
    assert [_post(server.port, calc, staff) for server in (a, b, a, b, a, b)] == [422] * 6
    http = bench("load_tablet").Http(b.port)
    status, document, _ = http.send("GET", "/api/v1/openapi.json", None, http.headers())
    assert status == 200 and "paths" in document
    assert _post(b.port, calc) == 429  # staff calls were not counted either way


def test_without_redis_each_process_counts_alone(apps: list[AppServer]) -> None:
    """The default (``memory://``) for one process: a second process would double the quota,
    which is why ``make run WORKERS=N`` and several machines need ``REDIS_URL``."""
    a, _b, memory = apps
    calc = "/api/v1/split/suggest"
    for _ in range(5):
        _post(a.port, calc)
    assert _post(a.port, calc) == 429
    assert [_post(memory.port, calc) for _ in range(4)] == [422] * 4
    assert _post(memory.port, calc) == 429
