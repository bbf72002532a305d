"""Batch work on a ``dask.distributed`` cluster, with a progress bar from tqdm.

Why Dask: a rules designer's point study or balance question outgrows one machine, and
Dask is what the Python world runs for that. With no scheduler named, a local cluster
starts on all cores (one process per core, one thread each: the engine is pure Python,
so threads would share one interpreter lock); with ``tcp://HOST:8786``, the work goes to
a cluster started as Dask documents it (``dask scheduler``, then ``dask worker
tcp://HOST:8786`` on each machine, in a copy of the project). ``workers=0`` plays in
this process, which is what a debugger or a quick test wants.

Results stream back as they finish (``as_completed``), so the caller writes each one at
once and an interrupted run keeps what it played. Only a window of tasks is in flight at
a time: a run of 100,000 games holds a few dozen futures, not 100,000, and Ctrl+C has
little to cancel.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any, TypeVar

from tqdm import tqdm

T = TypeVar("T")
R = TypeVar("R")

#: tasks kept in flight per worker: enough that no worker waits for the next one
IN_FLIGHT_PER_WORKER = 4


class ClusterError(Exception):
    """The cluster could not be reached or started; the message says which and why."""


def local_cores() -> int:
    """Cores this process may use (the affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


@contextmanager
def cluster(scheduler: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` for the run, closed (with its local cluster) on exit.

    ``scheduler``: an existing cluster's address; else a local cluster of ``workers``
    processes (default: every core). ``workers=0`` and no scheduler yields ``None``:
    the work is done in this process.
    """
    if scheduler is None and workers == 0:
        yield None
        return
    from distributed import Client, LocalCluster

    local = None
    try:
        if scheduler is not None:
            client = Client(scheduler, timeout="10s")
        else:
            with _sigint_ignored():
                local = LocalCluster(
                    n_workers=workers or local_cores(),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: 8787 may be taken
                    silence_logs=logging.ERROR,
                )
            client = Client(local)
    except (OSError, TimeoutError) as e:
        if local is not None:
            local.close()
        where = scheduler or "a local cluster"
        raise ClusterError(f"could not reach {where}: {e}") from None
    try:
        yield client
    finally:
        _quiet_close(client, local)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Start the local workers with Ctrl+C ignored (they inherit it): Ctrl+C reaches
    the whole terminal's process group, and only this process should answer it, by
    cancelling the work and closing the cluster, instead of every worker printing a
    traceback."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _quiet_close(client: Any, local: Any) -> None:
    """Close the client and the local cluster without the shutdown chatter Dask logs
    when tasks were cancelled (an interrupted run is an expected way to stop)."""
    level = logging.getLogger("distributed").level
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    try:
        client.close()
        if local is not None:
            local.close()
    finally:
        logging.getLogger("distributed").setLevel(level)


def worker_count(client: Any) -> int:
    """Workers the cluster has now (1 for in-process work)."""
    if client is None:
        return 1
    return max(1, len(client.scheduler_info().get("workers", {})))


def stream(client: Any, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
    """``fn(item)`` for every item, yielded in the order they finish.

    On the cluster, a window of tasks is in flight and each finished one is replaced by
    the next item; when the caller stops early (Ctrl+C, an error), every task still
    queued or running is cancelled, so no worker goes on playing for nobody.
    """
    if client is None:
        for item in items:
            yield fn(item)
        return
    from distributed import as_completed

    todo = iter(items)
    window = IN_FLIGHT_PER_WORKER * worker_count(client)
    pending = {client.submit(fn, item, pure=False) for item in islice(todo, window)}
    done = as_completed(list(pending))
    try:
        for fut in done:
            pending.discard(fut)
            try:
                result = fut.result()
            except Exception as e:  # the callers' tasks catch their own errors
                why = str(e).strip().splitlines()[0] if str(e).strip() else ""
                raise ClusterError(
                    f"a task failed on the cluster: {type(e).__name__}: {why}"
                ) from e
            for item in islice(todo, 1):
                nxt = client.submit(fn, item, pure=False)
                pending.add(nxt)
                done.add(nxt)
            yield result
    finally:
        if pending:
            client.cancel(list(pending))


def progress(
    total: int | None, unit: str, quiet: bool = False, initial: int = 0, delay: float = 0.0
) -> tqdm:
    """A tqdm bar on stderr (count, rate, elapsed, time left), silent with ``quiet`` or
    when stdout is not a terminal (a pipe or a file gets only the results). ``delay``:
    seconds before it shows, so a short job prints nothing."""
    return tqdm(
        total=total,
        initial=initial,
        unit=unit,
        delay=delay,
        disable=quiet or not sys.stdout.isatty(),
        dynamic_ncols=True,
        smoothing=0.1,
    )
