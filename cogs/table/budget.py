"""The bot's own global rate budget: every bot-token call takes a token before it is sent.

Discord allows a bot token 50 requests a second across every route (more if Discord granted it);
over that, each call draws a global 429, and 10,000 invalid answers (401/403/429) in 10 minutes
get the bot's IP address banned for about an hour. discord.py paces each route by its headers,
but keeps no global pace: it closes a gate only after a global 429 and then opens it for every
waiting call at once, so 429s come in herds. Here one token bucket, a little under the limit,
is taken before each bot-token call is sent, so the bot does not meet the global limit at all:

- What waits is chosen by value (``Priority``): a click's own calls first, then results, round
  posts, pings and DM panels, then table redraws, which take their token *before* they draw
  (``take_ahead``) and wait for it in the order they asked: when many tables change, each is
  redrawn in turn with its latest state (the latest-wins booking coalesces what changes meanwhile).
- Interaction callbacks and interaction-token webhook edits are outside Discord's global limit
  and take nothing (``exempt``).
- Processes that run shards of one token share the limit by their share of the shards
  (``GlobalBudget.for_shards``; README "Running at scale" says why not a shared counter).
- Every invalid answer is counted over 10 minutes; well before Discord's ban, optional work is
  shed (``shedding``: redraws spaced out further), and a global 429 (another user of the token,
  a limit lower than set) empties the bucket until its Retry-After, so discord.py's own retries
  then go out one token at a time instead of together.

The hook sits under discord.py's retries where it can (the HTTP session: each try takes a token
and each answer is seen), else around ``HTTPClient.request`` (SimCord's transport has no session).
"""

from __future__ import annotations

import asyncio
import bisect
import itertools
import logging
import re
import time
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

import discord

log = logging.getLogger(__name__)

# Discord's documented global limit per bot token (requests per second).
DEFAULT_LIMIT = 50.0
# What a global limit may be set to (DISCORD_GLOBAL_LIMIT, the bench's --global-limit): at least one
# call a second, at most far beyond any limit Discord grants (a typo of zeros is refused).
LIMIT_RANGE = (1.0, 100_000.0)
# The share of the limit the bucket refills at; the rest is its burst, so that no 1-second window
# ever holds more than the limit (rate + burst = limit), however calls fall.
PACE = 0.9
# Discord bans an IP address after this many invalid answers in INVALID_WINDOW seconds.
INVALID_BAN = 10_000
INVALID_WINDOW = 600.0
# Optional work is shed from this share of the ban's count on (a process sheds at its share of it).
SHED_FROM = 0.25

_EXEMPT = re.compile(r"/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)(/|$|\?)")


class Priority(IntEnum):
    """Who goes first when the bucket is empty (lower first)."""

    CLICK = 0  # a click's own bot-token calls, and anything not labelled
    POST = 1  # results, round posts, pings and turn lines, DM panels
    REDRAW = 2  # table message redraws: the latest wins, so waiting costs least here


PRIORITY: ContextVar[Priority] = ContextVar("budget_priority", default=Priority.CLICK)
# A token this task took ahead for its next bot-token call (``GlobalBudget.take_ahead``).
_PAID: ContextVar[bool] = ContextVar("budget_paid", default=False)


def priority_of(key: str) -> Priority:
    """An effect's priority from its key (cogs/table/effects.py names each by its target)."""
    return Priority.REDRAW if key.startswith("render") else Priority.POST


def exempt(url: str) -> bool:
    """Calls outside the bot's global limit: interaction callbacks and interaction-token
    (webhook) messages."""
    return _EXEMPT.search(url) is not None


class GlobalBudget:
    def __init__(
        self, rate: float, burst: float, *, share: float = 1.0, limit: float = DEFAULT_LIMIT
    ) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.share = share  # this process's share of the token's limit
        self.limit = limit
        self._tokens = self.burst
        # Set by the first call: the clock may differ between building the bot and running it
        # (SimCord's virtual clock only runs inside the bot).
        self._stamp: float | None = None
        self._waiting: list[tuple[int, int]] = []  # (priority, arrival), in the order served
        self._seq = itertools.count()
        self._offset = 0.0  # see ``clock``
        self._paused_until = 0.0
        # Figures for the log line, the bench and redraw spacing.
        self.taken = 0
        self.waited = 0  # takes that had to wait
        self.global_429s = 0
        self._invalid: deque[float] = deque()

    @classmethod
    def for_shards(cls, limit: float, shard_ids: tuple[int, ...], shard_count: int) -> GlobalBudget:
        """This process's share of the token's limit: its share of the shards. Each process
        counts only itself (no shared counter on the hot path); together they stay under the
        limit whatever each does, and a change of shards (a restart with new SHARD_IDS or
        SHARD_COUNT) re-balances them."""
        share = len(shard_ids) / shard_count
        return cls(limit * share * PACE, limit * share * (1 - PACE), share=share, limit=limit)

    def rebalance(self, shard_ids: tuple[int, ...], shard_count: int) -> None:
        share = len(shard_ids) / shard_count
        self.share = share
        self.rate = self.limit * share * PACE
        self.burst = max(1.0, self.limit * share * (1 - PACE))

    # --- taking --------------------------------------------------------------------------

    async def take(self, priority: Priority | None = None) -> None:
        """Wait for a token; ``priority`` defaults to the task's (``PRIORITY``)."""
        if _PAID.get():
            _PAID.set(False)  # taken ahead by this task for this call
            return
        rank = int(PRIORITY.get() if priority is None else priority)
        self.taken += 1
        now = self.clock()
        self._refill(now)
        if not self._waiting and now >= self._paused_until and self._tokens >= 1:
            self._tokens -= 1
            return
        self.waited += 1
        place = (rank, next(self._seq))
        bisect.insort(self._waiting, place)
        try:
            while True:
                now = self.clock()
                self._refill(now)
                ahead = bisect.bisect_left(self._waiting, place)
                if ahead == 0 and now >= self._paused_until and self._tokens >= 1:
                    self._tokens -= 1
                    return
                # Each waiter sleeps until about its turn (those ahead of it take a token each
                # first): a plain sleep, which SimCord's virtual clock drives as it does
                # discord.py's own waits.
                wait = max(0.0, self._paused_until - now) + max(0.0, (ahead + 1 - self._tokens) / self.rate)
                due = now + max(wait, 0.001)
                await asyncio.sleep(due - now)
                if ahead == 0 and (now := self.clock()) < due:
                    self._offset += due - now  # see ``clock``: only the first in line moves it
        finally:
            index = bisect.bisect_left(self._waiting, place)
            if index < len(self._waiting) and self._waiting[index] == place:
                del self._waiting[index]

    async def take_ahead(self, priority: Priority) -> None:
        """Take the token for this task's next bot-token call now. A table redraw waits its turn
        here *before* it draws, so that what it sends is the latest state when the budget lets it
        go, not the state of when it joined the queue (drawn first, it went out a queue's wait old,
        and the changes made meanwhile waited for another turn: p99 staleness 7.3 s at 200
        tables). ``refund`` if no call follows."""
        await self.take(priority)
        _PAID.set(True)

    def refund(self) -> None:
        """The token taken ahead is not used (the drawing showed nothing new): back to the bucket."""
        if _PAID.get():
            _PAID.set(False)
            self._tokens = min(self.burst, self._tokens + 1)

    def clock(self) -> float:
        """The loop's clock, moved on to wherever the first waiter's sleep was meant to end if
        it ended earlier by that clock. In a process they agree; a simulated clock may stand
        still while a sleep ends, and without this the bucket would never refill there."""
        return time.monotonic() + self._offset

    def _refill(self, now: float) -> None:
        if self._stamp is None or now < self._stamp:  # first call, or another clock
            self._stamp = now
        start = max(self._stamp, self._paused_until)
        if now > start:
            self._tokens = min(self.burst, self._tokens + (now - start) * self.rate)
        self._stamp = now

    def backlog(self) -> int:
        return len(self._waiting)

    # --- what Discord answered -----------------------------------------------------------

    def answered(self, status: int, headers: Any, body_global: bool = False) -> None:
        """Every answer to a bot-token call: count the invalid ones, and let a global 429 hold
        the bucket until its Retry-After."""
        if status not in (401, 403, 429):
            return
        if status == 429 and str(headers.get("X-RateLimit-Scope", "")).lower() == "shared":
            return  # a resource's shared limit: Discord does not count it as invalid
        now = self.clock()
        self._invalid.append(now)
        if self.invalid() == int(self.shed_at()):
            log.warning("%d invalid answers from Discord in 10 minutes: shedding redraws", self.invalid())
        glob = body_global or str(headers.get("X-RateLimit-Global", "")).lower() == "true"
        if status == 429 and glob:
            self.global_429s += 1
            try:
                wait = float(headers.get("Retry-After", 1.0))
            except (TypeError, ValueError):
                wait = 1.0
            self._paused_until = max(self._paused_until, now + min(wait, 600.0))
            self._tokens = 0.0

    def invalid(self) -> int:
        """Invalid answers (401/403/429) in the last 10 minutes, this process's."""
        cutoff = self.clock() - INVALID_WINDOW
        while self._invalid and self._invalid[0] < cutoff:
            self._invalid.popleft()
        return len(self._invalid)

    def shed_at(self) -> float:
        return INVALID_BAN * SHED_FROM * self.share

    def shedding(self) -> bool:
        return self.invalid() >= self.shed_at()

    # --- redraw spacing ------------------------------------------------------------------

    def redraw_spacing(self, least: float) -> float:
        """Seconds between one table's redraws: ``least``, four times that while shedding. Demand
        needs no figure here: a redraw takes its token before it draws (``take_ahead``), after
        everything of higher priority and after the redraws that asked before it, so when many
        tables change, each waits its turn once and then shows its latest state."""
        return least * 4 if self.shedding() else least

    def line(self) -> str:
        """The metrics line (logged every minute)."""
        return (
            # text: for the operator (the log)
            f"global budget: {self.rate:.1f}/s (share {self.share:.2f} of {self.limit:g}/s);"
            f" {self.taken} calls, {self.waited} waited, {self.backlog()} waiting now;"
            f" {self.global_429s} global 429s; {self.invalid()} invalid answers in 10 min"
            f" (shedding from {self.shed_at():.0f})"
        )


# --- the hook in discord.py's HTTP client -------------------------------------------------


class _Send:
    """``session.request(...)``'s context manager, with a token taken first."""

    def __init__(
        self, budget: GlobalBudget, inner: Any, method: str, url: str, kwargs: dict[str, Any]
    ) -> None:
        self.budget, self.inner, self.method, self.url, self.kwargs = budget, inner, method, url, kwargs
        self._cm: Any = None

    async def __aenter__(self) -> Any:
        free = exempt(str(self.url))
        if not free:
            await self.budget.take()
        self._cm = self.inner.request(self.method, self.url, **self.kwargs)
        response = await self._cm.__aenter__()
        if not free:
            self.budget.answered(response.status, response.headers)
        return response

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._cm.__aexit__(*exc)


class BudgetedSession:
    """discord.py's aiohttp session, each bot-token request taking a token first."""

    def __init__(self, inner: Any, budget: GlobalBudget) -> None:
        self._inner = inner
        self._budget = budget

    def request(self, method: str, url: Any, **kwargs: Any) -> _Send:
        return _Send(self._budget, self._inner, method, url, kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def install(http: discord.http.HTTPClient, budget: GlobalBudget) -> None:
    """Put ``budget`` in front of every bot-token call ``http`` makes (after login: discord.py
    makes its session then)."""
    session = getattr(http, "_HTTPClient__session", None)
    if isinstance(session, BudgetedSession):
        return
    if session is not None:
        http._HTTPClient__session = BudgetedSession(session, budget)  # type: ignore[attr-defined]
        return
    # A transport without a session (SimCord's) overrides request itself: take the token there.
    original: Callable[..., Any] = http.request

    async def request(route: discord.http.Route, **kwargs: Any) -> Any:
        if exempt(route.url):
            return await original(route, **kwargs)
        await budget.take()
        try:
            return await original(route, **kwargs)
        except discord.HTTPException as error:
            headers = getattr(getattr(error, "response", None), "headers", None) or {}
            budget.answered(error.status, headers)
            raise

    http.request = request  # type: ignore[method-assign]
