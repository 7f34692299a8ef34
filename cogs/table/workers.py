"""A process pool that heals: what the computers' thinking (thinking.py) and the card art
(pictures.py) run in, so that neither shares the bot's GIL with the event loop.

The pool is created on first use (a bot may never need it), sized to leave one core to the event
loop, and shut down by its owner's ``shutdown`` (the referee's shutdown) or, for a pool nobody
shut down (a test's bot that is never closed), at interpreter exit. It heals: a pool whose worker
died (killed, out of memory) is replaced, and the job in hand is run once more in the fresh pool;
a pool that failed to start is tried again after a backoff (1 s doubling to a minute), and until
then ``run`` raises ``PoolUnavailable`` at once, so the owner does the job its own way (a legal
move, a drawing thread). Workers leave Ctrl-C to the bot, and exit on their own if the bot is
killed (``_worker_started``).

Nothing here imports discord: workers import this module, and what their jobs need, only.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import importlib
import logging
import multiprocessing
import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Any, TypeVar

log = logging.getLogger(__name__)

# After a failed start (out of processes, out of memory), the next start waits this long (real
# seconds), doubling to the cap while starts keep failing: a host in trouble is not asked for
# fresh processes at every job. Jobs meanwhile are done the owner's other way.
START_RETRY_SECONDS = 1.0
START_RETRY_CAP_SECONDS = 60.0
_clock = time.monotonic  # the backoff's clock (a test moves its own)

T = TypeVar("T")


def pool_size() -> int:
    """Worker processes: one core is left to the event loop, at least one worker."""
    return max(1, (os.cpu_count() or 2) - 1)


class PoolClosed(RuntimeError):
    """A job asked of a pool that was shut down (the referee is stopping)."""


class PoolUnavailable(Exception):
    """No worker can take this job: the pool failed to start, or broke again in it."""


class WorkerPool:
    """Worker processes that heal, for jobs the event loop must not run itself.

    ``name`` says in the log whose pool it is ("thinking", "pictures"); ``preload`` names modules
    each worker imports as it starts, so that the first job does not pay for them."""

    def __init__(self, name: str, workers: int | None = None, preload: Sequence[str] = ()) -> None:
        self.name = name
        self.workers = workers or pool_size()
        self.preload = tuple(preload)
        self._pool: ProcessPoolExecutor | None = None
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None
        self.closed = False
        # After failed starts: when the next start may be tried (``_clock``), and the wait
        # after the next failure.
        self._retry_at = 0.0
        self._retry_wait = START_RETRY_SECONDS

    @property
    def started(self) -> bool:
        return self._pool is not None

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)`` in a worker. A worker that dies with the job in hand (or a pool found
        broken) is replaced, and the job is run once more in the fresh pool; a job that kills
        that one too, or a pool that cannot start, raises ``PoolUnavailable``. An error of the
        job's own is raised as it is. Cancelling the caller cancels the job if it has not
        started; a job already running finishes in its worker and its answer is dropped."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            pool = await self._executor()
            try:
                # The submit itself raises if the pool already knows a worker died (an idle one).
                return await loop.run_in_executor(pool, job, *args)
            except BrokenProcessPool as error:
                self._discard(pool)
                if attempt == 0:
                    log.warning("a %s worker died (%s); trying again in a fresh pool", self.name, error)
        raise PoolUnavailable(f"the fresh {self.name} pool broke too")  # text: for the log

    async def _executor(self) -> ProcessPoolExecutor:
        """The pool, started if there is none. Raises ``PoolUnavailable`` if it cannot start."""
        while self._pool is None:
            if self.closed:
                raise PoolClosed(f"the {self.name} pool is shut down")  # text: for the log
            starting = self._starting
            if starting is None and (wait := self._retry_at - _clock()) > 0:
                why = f"the {self.name} pool failed to start; it is tried again in {wait:.0f} s"  # text: log
                raise PoolUnavailable(why)
            if starting is None:
                # Starting processes takes tens of milliseconds: do it in a thread, not on the
                # loop. In an empty context, so nothing of the caller's (a test harness's
                # virtual clock, say) is seen by multiprocessing while it starts them.
                loop = asyncio.get_running_loop()
                try:
                    starting = loop.run_in_executor(
                        None, contextvars.Context().run, _started_pool, self.workers, self.preload
                    )
                except RuntimeError as error:  # no thread to start it in
                    why = f"the {self.name} pool could not start ({error})"  # text: for the log
                    raise PoolUnavailable(why) from error
                self._starting = starting
                # Settles the start even if every job waiting for it gave up meanwhile.
                starting.add_done_callback(self._started)
            try:
                await asyncio.shield(starting)
            except Exception as error:
                why = f"the {self.name} pool could not start ({error!r})"  # text: for the log
                raise PoolUnavailable(why) from error
            # Adopted now, unless the pool was shut down meanwhile (the loop says so) or the new
            # one already broke in another job's hands (the loop starts another).
            self._started(starting)
        return self._pool

    def _started(self, starting: asyncio.Future[ProcessPoolExecutor]) -> None:
        """A start has ended: adopt its pool, or forget a failed start so that the next job
        tries again (a failed start kept here would fail every job after it)."""
        if self._starting is not starting:
            return  # already settled
        self._starting = None
        if starting.cancelled():
            return
        error = starting.exception()
        if error is not None:
            wait = self._retry_wait
            self._retry_at = _clock() + wait
            self._retry_wait = min(wait * 2, START_RETRY_CAP_SECONDS)
            log.warning(
                "the %s pool could not start; it is tried again in %.0f s", self.name, wait, exc_info=error
            )
            return
        self._retry_wait = START_RETRY_SECONDS
        pool = starting.result()
        if self.closed or self._pool is not None:
            _stop(pool)
            return
        self._pool = pool
        _open_pools.add(pool)

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Stop a broken pool. Only that one: several jobs see the same pool break, and the
        first of them may already have started its replacement."""
        if self._pool is pool:
            self._pool = None
        _stop(pool)

    def shutdown(self) -> None:
        """Stop the workers; jobs not yet started are cancelled. Safe to call twice. A pool
        still starting is stopped as soon as it has started."""
        self.closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)


def _ready() -> None:
    """A no-op job: sent once per worker at start, so every worker exists before the first job
    (a pool never starts a process later, from wherever a job is asked)."""


def _worker_started(preload: tuple[str, ...]) -> None:
    """Each worker's initializer: the bot starts and stops its workers, nothing else does.

    Ctrl-C in a terminal sends SIGINT to the whole foreground process group, workers included.
    The bot handles it by shutting down, and shuts the pool down itself (a worker finishes the
    job in hand, then exits); a worker that took the signal itself would die mid-job with a
    ``KeyboardInterrupt`` traceback on the terminal. (SIGTERM is left alone: it is sent to the
    bot alone, by systemd with ``KillMode=mixed`` as deploy/referee.service sets, or by Docker.)
    And a bot that is killed outright (SIGKILL, the OOM killer) cannot stop its workers, which
    would wait for work forever (keeping the forkserver alive with them): so each worker
    watches the bot and exits when it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    bot = multiprocessing.parent_process()
    if bot is not None:
        watcher = "watch-bot"  # text: a thread name
        threading.Thread(target=_exit_with, args=(bot.sentinel,), name=watcher, daemon=True).start()
    for module in preload:
        importlib.import_module(module)


def _exit_with(bot_sentinel: int) -> None:
    # The sentinel is a pipe the bot holds open for as long as it holds this worker: it reads
    # as ready only once the bot has ended (or let go of the worker after stopping it).
    wait([bot_sentinel])
    os._exit(0)


def _started_pool(workers: int, preload: tuple[str, ...] = ()) -> ProcessPoolExecutor:
    # forkserver, not fork: the bot process runs database threads, and forking a process with
    # threads can copy a lock that is held and never released in the child.
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("forkserver"),
        initializer=_worker_started,
        initargs=(preload,),
    )
    try:
        for job in [pool.submit(_ready) for _ in range(workers)]:
            job.result()
    except BaseException:
        # Some workers may have started: a half-started pool is never used, so stop them now.
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    return pool


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool without waiting: its thread joins the workers (at the latest at exit)."""
    _open_pools.discard(pool)
    pool.shutdown(wait=False, cancel_futures=True)


_open_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


@atexit.register
def _shutdown_open_pools() -> None:
    # A bot that was never closed (a test, a crash in start-up) must not leave workers behind.
    for pool in list(_open_pools):
        _stop(pool)
