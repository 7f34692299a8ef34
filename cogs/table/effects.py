"""Every outbound effect of a table is tried until it lands, is superseded, or its target is gone.

discord.py retries a 429 or a 5xx a few times by itself and then raises; during a Discord incident
or on a hot rate-limit bucket it does give up. From there, this is the one policy every effect
follows (the table message, panels, posts, the announcement and thread lines, DMs):

- An effect is *booked* under a key that names its target (``render12``, ``panel12:3``,
  ``posts12``, ``line12``). Booking again under the same key replaces what was booked: the latest
  state wins, and a superseded effect is never sent. The job draws what is current when it runs.
- A transient failure (``Failure.TRANSIENT``: a 429, a 5xx, a timeout, a dropped connection) is
  tried again later with backoff: 1, 2, 4 … seconds, at most ``RETRY_MAX`` apart, or after what a
  429's Retry-After asked for, in full (up to ``RETRY_AFTER_MAX``), for as long as it takes:
  retries are bounded in rate, not in number.
- A global 429 (Discord's limit on every bot-token call, not one route's) pauses every effect
  until its Retry-After has passed, not only the one that met it; the effects held back then go
  out spread over a second, so no herd of them meets the limit again.
- Any other failure is the job's own business: it has already been classified where it happened
  and sent where it goes (a deleted message is posted again, an unreachable channel holds the
  table, a dismissed panel is forgotten).

Jobs run on the scheduler, outside every table's lock, so no click ever waits on Discord.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial

import discord

from cogs.table.budget import PRIORITY, priority_of
from cogs.table.failures import Failure, classify
from cogs.table.scheduler import Scheduler

log = logging.getLogger(__name__)

Attempt = Callable[[], Awaitable[None]]
RETRY_FIRST = 1.0
# Long enough not to hammer Discord while it is down, short enough that a person sees the table
# again within seconds of Discord's recovery.
RETRY_MAX = 8.0
# A 429's Retry-After is honoured whatever it says, up to this: a wait asked for longer than ten
# minutes is a broken header, not Discord's word (its longest real waits are a few minutes).
RETRY_AFTER_MAX = 600.0


class TryLater(Exception):
    """Raised by an effect's job for a transient failure it caught itself (it may have done part of
    its work, e.g. posted one message of several): try the same job again later."""

    def __init__(self, error: BaseException | None = None) -> None:
        super().__init__(str(error) if error is not None else "try later")  # text: for the log
        self.retry_after = retry_after(error) if error is not None else None
        self.global_limit = is_global(error) if error is not None else False


def retry_after(error: BaseException) -> float | None:
    """What a 429 asked us to wait, if it said (Discord sends Retry-After in seconds)."""
    if not isinstance(error, discord.HTTPException) or error.status != 429:
        return None
    headers = getattr(getattr(error, "response", None), "headers", None)
    value = headers.get("Retry-After") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def is_global(error: BaseException) -> bool:
    """Whether a 429 is Discord's global limit (every bot-token call of the bot, not one route):
    it says so in ``X-RateLimit-Global: true`` (and ``X-RateLimit-Scope: global``)."""
    if isinstance(error, TryLater):
        return error.global_limit
    if not isinstance(error, discord.HTTPException) or error.status != 429:
        return False
    headers = getattr(getattr(error, "response", None), "headers", None)
    if headers is None:
        return False
    return str(headers.get("X-RateLimit-Global", "")).lower() == "true" or (
        str(headers.get("X-RateLimit-Scope", "")).lower() == "global"
    )


def transient(error: BaseException) -> bool:
    return isinstance(error, TryLater) or (
        isinstance(error, discord.HTTPException | OSError) and classify(error) is Failure.TRANSIENT
    )


class Effects:
    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self._tries: dict[str, int] = {}  # consecutive transient failures per key
        # Until when Discord's global rate limit holds every bot-token effect back: set by a
        # global 429 (it is about the bot, not one route), so the other effects wait with the one
        # that met it instead of each meeting its own 429 (a herd, which Discord counts towards
        # an IP ban). Effects booked meanwhile run when it lifts, spread over a moment.
        self.paused_until: datetime | None = None
        self.global_pauses = 0  # how many global 429s paused everything (the bench, the log)

    def book(self, key: str, job: Attempt, delay: float = 0.0) -> None:
        """Run ``job`` after ``delay`` seconds, replacing whatever was booked under ``key``."""
        self.scheduler.after(key, max(0.0, delay), partial(self._attempt, key, job))

    def booked(self, key: str) -> bool:
        return self.scheduler.when(key) is not None

    def retrying(self, key: str) -> bool:
        return key in self._tries

    def forget(self, key: str) -> None:
        """The target is gone: drop what was booked and its backoff."""
        self.scheduler.cancel(key)
        self._tries.pop(key, None)

    async def run(self, key: str, job: Attempt) -> None:
        """Run ``job`` now, in the caller's task; a transient failure books its retry."""
        await self._attempt(key, job)

    def paused(self) -> float:
        """Seconds left of a global rate-limit pause (0: none)."""
        if self.paused_until is None:
            return 0.0
        left = (self.paused_until - self.scheduler.now()).total_seconds()
        if left <= 0:
            self.paused_until = None
            return 0.0
        return left

    def _pause(self, seconds: float) -> None:
        until = self.scheduler.now() + timedelta(seconds=seconds)
        if self.paused_until is None or until > self.paused_until:
            if self.paused_until is None:
                log.warning("Discord's global rate limit: every effect waits %.1f s", seconds)
            self.paused_until = until
            self.global_pauses += 1

    async def _attempt(self, key: str, job: Attempt) -> None:
        if (left := self.paused()) > 0:
            # Not tried now: it would only draw another global 429. Spread over a second after
            # the pause, so the effects held back don't all go at its first instant.
            self.scheduler.after(key, left + random.uniform(0.0, 1.0), partial(self._attempt, key, job))
            return
        # The bot's global budget (cogs/table/budget.py) serves what waits by this: results,
        # posts and pings before table redraws.
        priority = PRIORITY.set(priority_of(key))
        try:
            await job()
        except Exception as error:
            if not transient(error):
                self._tries.pop(key, None)
                raise  # a bug or a database failure: the scheduler's own backoff and log
            if self.booked(key):
                return  # superseded while it was in flight: the newer booking draws what is current
            tries = self._tries[key] = self._tries.get(key, 0) + 1
            wait = min(RETRY_FIRST * 2 ** (tries - 1), RETRY_MAX)
            asked = error.retry_after if isinstance(error, TryLater) else retry_after(error)
            if asked is not None and is_global(error):
                # Every effect waits for the pause; this one goes with them, spread over the
                # second after it like the rest (not up to a quarter of the wait later).
                self._pause(min(asked, RETRY_AFTER_MAX))
                wait = self.paused() + random.uniform(0.0, 1.0)
            else:
                if asked is not None:
                    wait = max(wait, min(asked, RETRY_AFTER_MAX))
                wait *= random.uniform(1.0, 1.25)  # tables that failed together don't retry in step
            if tries == 1:
                log.info("%s: Discord said try later (%s); retrying with backoff", key, error)
            self.scheduler.after(key, wait, partial(self._attempt, key, job))
        else:
            if self._tries.pop(key, None) is not None:
                log.info("%s: landed after Discord's trouble", key)
        finally:
            PRIORITY.reset(priority)
