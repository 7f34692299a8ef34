"""One scheduler for every timer in the bot: engine timers, computer players, coalesced edits.

A single ``discord.ext.tasks`` heartbeat checks a heap of deadlines, instead of one sleeping task
per table, player or panel. That keeps the event loop small at hundreds of tables, and it is the
shape SimCord drives deterministically with ``env.advance_time``. Deadlines are wall-clock
datetimes (``discord.utils.utcnow``) so the ones stored in the database survive a restart.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import discord
from discord.ext import tasks

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
# Timer resolution: a quarter second is below what a person notices at a card table.
TICK_SECONDS = 0.25
# A job that raised is run again after 1, 2, 4 … seconds, at most a minute apart: nothing that
# was scheduled is dropped because the database said "locked" once.
RETRY_FIRST = 1.0
RETRY_MAX = 60.0


class Scheduler:
    def __init__(self) -> None:
        self._heap: list[tuple[datetime, int, str]] = []
        self._jobs: dict[str, tuple[datetime, int, Job]] = {}
        self._seq = itertools.count()
        self._running: set[asyncio.Task[None]] = set()
        # Consecutive failures per key, to back off and to log a failing job once, not every try.
        self._failures: dict[str, int] = {}
        self._loop = tasks.loop(seconds=TICK_SECONDS)(self._tick)
        # Called at every tick before the jobs now due start (cogs/table/heap.py: the collector's
        # quiet moments), so whatever it does never lands inside a job.
        self.before_tick: Callable[[], None] | None = None

    @staticmethod
    def now() -> datetime:
        return discord.utils.utcnow()

    def start(self) -> None:
        if not self._loop.is_running():
            self._loop.start()

    def pause(self) -> None:
        """Start nothing new; jobs already running go on (a clean shutdown waits for them)."""
        self._loop.cancel()

    def stop(self) -> None:
        self._loop.cancel()
        for task in self._running:
            task.cancel()

    def at(self, key: str, when: datetime, job: Job) -> None:
        """Run ``job`` at ``when``, replacing any job already under ``key``."""
        seq = next(self._seq)
        self._jobs[key] = (when, seq, job)
        heapq.heappush(self._heap, (when, seq, key))

    def after(self, key: str, seconds: float, job: Job) -> datetime:
        when = self.now() + timedelta(seconds=seconds)
        self.at(key, when, job)
        return when

    def when(self, key: str) -> datetime | None:
        entry = self._jobs.get(key)
        return entry[0] if entry else None

    def cancel(self, key: str) -> None:
        self._jobs.pop(key, None)
        self._failures.pop(key, None)

    def cancel_prefix(self, prefix: str) -> None:
        for key in [k for k in self._jobs if k.startswith(prefix)]:
            del self._jobs[key]
        for key in [k for k in self._failures if k.startswith(prefix)]:
            del self._failures[key]

    def booked(self, prefix: str = "") -> list[str]:
        return [key for key in self._jobs if key.startswith(prefix)]

    def running(self) -> list[asyncio.Task[None]]:
        return list(self._running)

    def pending(self) -> int:
        return len(self._jobs)

    def run_due(self) -> None:
        now = self.now()
        while self._heap and self._heap[0][0] <= now:
            _when, seq, key = heapq.heappop(self._heap)
            entry = self._jobs.get(key)
            if entry is None or entry[1] != seq:
                continue  # replaced or cancelled since it was pushed
            del self._jobs[key]
            task = asyncio.create_task(self._run(key, entry[2]), name=f"scheduled:{key}")  # text: a task name
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _tick(self) -> None:
        if self.before_tick is not None:
            try:
                self.before_tick()
            except Exception:
                log.exception("the scheduler's before-tick hook failed")
        self.run_due()

    async def _run(self, key: str, job: Job) -> None:
        try:
            await job()
        except Exception:
            failures = self._failures.get(key, 0) + 1
            if key in self._jobs:
                return  # the job booked its own successor; that one decides what happens next
            self._failures[key] = failures
            delay = min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MAX)
            if failures == 1:
                log.exception("scheduled job %s failed; retrying with backoff", key)
            else:
                log.debug(
                    "scheduled job %s failed again (%d times); next try in %.0f s", key, failures, delay
                )
            self.after(key, delay, job)
        else:
            if self._failures.pop(key, None) is not None:
                log.info("scheduled job %s succeeded after retrying", key)
