"""Where the lab's big computations run: a Dask cluster (``dask.distributed``).

By default a local cluster of one single-threaded worker process per core (numpy releases the
GIL only in parts, so processes, not threads, use the cores); given a scheduler address
(``tcp://host:8786``) the very same tasks go to that cluster instead. Tasks are module-level
functions with plain arguments (a profile travels as its JSON data, ``profile_data``), so any
worker that has ``dealer_assist`` installed can run them; each worker keeps its look-up tables
(hand classes, pay tables) between tasks.

Shared data is scattered with ``hash=False``: a content-hashed key is the same for the same
table scattered twice (the pilot run, then the measured run), and the release of the first
scatter's future could then delete the second's data on the workers ("Could not find data",
"lost dependencies": the Big/Small run failed so before this).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from distributed import Client, LocalCluster


def local_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def connect(scheduler: str | None = None, workers: int | None = None) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a local cluster of ``workers``
    processes (default: one per core) started here and stopped on exit."""
    if scheduler:
        with Client(scheduler) as client:  # type: ignore[no-untyped-call]
            yield client
        return
    n = workers or local_workers()
    local = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=40)
    with local as started, Client(started) as client:  # type: ignore[no-untyped-call]
        yield client


def run(client: Client, fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> list[Any]:
    """``fn(*args)`` for every ``args`` of ``calls`` on the cluster, results in call order."""
    futures = [client.submit(fn, *args, pure=False) for args in calls]
    return list(client.gather(futures))  # type: ignore[no-untyped-call]


def workers_of(client: Client) -> int:
    """How many workers the cluster has now."""
    return len(client.scheduler_info().get("workers", {}))
