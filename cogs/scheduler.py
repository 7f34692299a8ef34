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


class Scheduler:
    def __init__(self) -> None:
        self._heap: list[tuple[datetime, int, str]] = []
        self._jobs: dict[str, tuple[datetime, int, Job]] = {}
        self._seq = itertools.count()
        self._running: set[asyncio.Task[None]] = set()
        self._loop = tasks.loop(seconds=TICK_SECONDS)(self._tick)

    @staticmethod
    def now() -> datetime:
        return discord.utils.utcnow()

    def start(self) -> None:
        if not self._loop.is_running():
            self._loop.start()

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

    def cancel_prefix(self, prefix: str) -> None:
        for key in [k for k in self._jobs if k.startswith(prefix)]:
            del self._jobs[key]

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
            task = asyncio.create_task(self._run(key, entry[2]), name=f"scheduled:{key}")
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _tick(self) -> None:
        self.run_due()

    async def _run(self, key: str, job: Job) -> None:
        try:
            await job()
        except Exception:
            log.exception("scheduled job %s failed", key)
