"""A Discord-like rate-limit layer under SimCord: per-route buckets with ``X-RateLimit-*`` headers,
one global bucket per bot token, and 429s the way Discord sends them.

SimCord answers every REST call at once and replaces discord.py's ``HTTPClient.request`` with its
own, so neither Discord's limits nor discord.py's handling of them are ever met. Here discord.py's
own ``request`` runs again (its per-route buckets, its global gate, its five tries) over a fake
aiohttp session whose answers come from SimCord's router, after a ``Discord`` that keeps:

- a global bucket for every bot-token call of the token: ``global_limit`` calls in any 1-second
  window (Discord's documented 50/s; interaction callbacks and interaction-token webhook calls
  never come here: SimCord sends them through its webhook adapter, and Discord exempts them);
- per-route buckets, fixed windows per route and major parameter (channel, guild), with the
  sizes in ``BUCKETS`` (Discord publishes none of them; see bench/README.md for where each
  comes from), answered with ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket`` so that
  discord.py paces itself as it does against Discord;
- a 429 over either: ``retry_after`` and ``global`` in the body, ``Retry-After``,
  ``X-RateLimit-Global``/``X-RateLimit-Scope`` and ``Via`` in the headers.

Time is SimCord's virtual clock. Several processes of one token share one global window by
``SharedWindow`` (a file of stamps, bench/e2e_limits.py's two-process run).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

# (method, path pattern) -> (limit, window s); the first that matches. Path ids are replaced by
# {id}, the major parameter (channel, guild, webhook) is kept in the bucket's key.
BUCKETS: list[tuple[str, str, int, float]] = [
    ("POST", "/channels/{id}/messages", 5, 5.0),  # observed: limit 5, reset-after 5 per channel
    ("PATCH", "/channels/{id}/messages/{id}", 5, 5.0),  # observed: the same for edits
    ("DELETE", "/channels/{id}/messages/{id}", 5, 1.0),
    ("POST", "/users/@me/channels", 5, 5.0),  # opening a DM: no published figure; conservative
    ("GET", "/guilds/{id}/members/{id}", 5, 1.0),  # observed: limit 5 per guild per second
]
DEFAULT_BUCKET = (50, 1.0)
# The "small member and DM buckets": every DM click's route limited hard.
SMALL_BUCKETS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", "/users/@me/channels"): (1, 2.0),
    ("GET", "/guilds/{id}/members/{id}"): (1, 1.0),
    ("POST", "/channels/{id}/messages"): (5, 5.0),
}
GLOBAL_LIMIT = 50
_ID = re.compile(r"/(\d{5,})")
_API = "/api/v"


def route_of(method: str, path: str) -> tuple[str, str]:
    """(route template, major parameter) of a concrete path."""
    ids = _ID.findall(path)
    template = _ID.sub("/{id}", path)
    major = ids[0] if ids and re.match(r"^/(channels|guilds|webhooks)/", path) else ""
    return template, major


@dataclass
class Bucket:
    limit: int
    window: float
    used: int = 0
    resets: float = 0.0


class SharedWindow:
    """The global window of one token, shared by processes through a file of stamps (each
    process appends its calls' virtual instants and counts the others'). Virtual clocks of
    the processes start together (bench/e2e_limits.py lines them up)."""

    def __init__(self, path: Any) -> None:
        self.path = path

    def count_since(self, since: float) -> int:
        try:
            with open(self.path) as f:
                return sum(1 for line in f if line.strip() and float(line) > since)
        except FileNotFoundError:
            return 0

    def add(self, when: float) -> None:
        with open(self.path, "a") as f:
            f.write(f"{when:.6f}\n")


@dataclass
class Discord:
    """The limits Discord keeps for one bot token, and what the bench reads off them."""

    clock: Callable[[], float]
    global_limit: int = GLOBAL_LIMIT
    small: bool = False  # SMALL_BUCKETS for the DM routes
    shared: SharedWindow | None = None
    recent: deque[float] = field(default_factory=deque)  # this process's bot-token calls, last 1 s
    buckets: dict[tuple[str, str, str], Bucket] = field(default_factory=dict)
    served: list[float] = field(default_factory=list)  # instants of calls let through
    limited: Counter[str] = field(default_factory=Counter)  # 429s by "global" / "route"
    limited_at: list[float] = field(default_factory=list)
    invalid: int = 0  # 401/403/429 answers, as Discord counts towards its ban

    def _bucket(self, method: str, path: str) -> tuple[tuple[str, str, str], Bucket]:
        template, major = route_of(method, path)
        limit, window = DEFAULT_BUCKET
        if self.small and (method, template) in SMALL_BUCKETS:
            limit, window = SMALL_BUCKETS[(method, template)]
        else:
            for m, pattern, n, w in BUCKETS:
                if m == method and pattern == template:
                    limit, window = n, w
                    break
        key = (method, template, major)
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(limit, window)
        return key, bucket

    def ask(self, method: str, path: str) -> tuple[int, dict[str, str], dict[str, Any] | None]:
        """(status, headers, 429 body or None) for a bot-token call arriving now."""
        now = self.clock()
        key, bucket = self._bucket(method, path)
        if now >= bucket.resets:
            bucket.used, bucket.resets = 0, now + bucket.window
        # The global window: any 1 s holds at most global_limit calls of the token.
        while self.recent and self.recent[0] <= now - 1.0:
            self.recent.popleft()
        in_window = self.shared.count_since(now - 1.0) if self.shared is not None else len(self.recent)
        headers = {"Via": "1.1 google", "content-type": "application/json"}
        if in_window >= self.global_limit:
            oldest = self.recent[0] if self.recent else now
            retry = max(0.05, round(oldest + 1.0 - now, 3))
            self.limited["global"] += 1
            self.limited_at.append(now)
            self.invalid += 1
            headers |= {
                "Retry-After": f"{retry:.3f}",
                "X-RateLimit-Global": "true",
                "X-RateLimit-Scope": "global",
            }
            return (
                429,
                headers,
                {"message": "You are being rate limited.", "retry_after": retry, "global": True},
            )
        bucket_id = f"{key[0]}:{key[1]}"
        if bucket.used >= bucket.limit:
            retry = max(0.05, round(bucket.resets - now, 3))
            self.limited["route"] += 1
            self.limited_at.append(now)
            self.invalid += 1
            headers |= self._route_headers(bucket, bucket_id, now) | {
                "Retry-After": f"{retry:.3f}",
                "X-RateLimit-Scope": "user",
            }
            return (
                429,
                headers,
                {"message": "You are being rate limited.", "retry_after": retry, "global": False},
            )
        bucket.used += 1
        self.recent.append(now)
        if self.shared is not None:
            self.shared.add(now)
        self.served.append(now)
        return 200, headers | self._route_headers(bucket, bucket_id, now), None

    @staticmethod
    def _route_headers(bucket: Bucket, bucket_id: str, now: float) -> dict[str, str]:
        left = max(0.0, bucket.resets - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset-After": f"{left:.3f}",
            "X-RateLimit-Reset": f"{now + left:.3f}",
            "X-RateLimit-Bucket": bucket_id,
        }


# What discord.py's request was given (before it turned the JSON into bytes and the form into
# aiohttp's FormData): SimCord's router wants them as they were.
_CALL: ContextVar[tuple[Any, Any, Any, Any, Any] | None] = ContextVar("bench_call", default=None)


class _Response:
    """Enough of an aiohttp response for discord.py's request and its exceptions."""

    def __init__(self, status: int, headers: dict[str, str], text: str) -> None:
        from multidict import CIMultiDict

        self.status = status
        self.reason = {200: "OK", 204: "No Content", 429: "Too Many Requests"}.get(status, "Error")
        self.headers = CIMultiDict(headers)
        self._text = text

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text


class _Answer:
    def __init__(self, session: FakeSession, method: str, url: str) -> None:
        self.session, self.method, self.url = session, method, url

    async def __aenter__(self) -> _Response:
        return self.session.answer(self.method, self.url)

    async def __aexit__(self, *exc: Any) -> None:
        return None


class FakeSession:
    """discord.py's aiohttp session, answered by ``Discord`` and then SimCord's router."""

    def __init__(self, http: Any, discord_side: Discord) -> None:
        self.http = http
        self.discord = discord_side

    def request(self, method: str, url: Any, **_kwargs: Any) -> _Answer:
        return _Answer(self, method, str(url))

    def answer(self, method: str, url: str) -> _Response:
        from simcord.backend.errors import BackendError
        from simcord.http import router
        from simcord.http.client import _path_of

        path = _path_of(url)
        status, headers, limited = self.discord.ask(method, path)
        if limited is not None:
            return _Response(status, headers, json.dumps(limited))
        call = _CALL.get()
        payload, files, form, params, reason = call if call is not None else (None, None, None, None, None)
        file_list = list(files or [])
        if form is not None:
            parsed, file_list = router.parse_form(list(form), file_list)
            if parsed is not None:
                payload = parsed
        try:
            result = router.dispatch(
                self.http.backend,
                method,
                path,
                json=payload,
                params=params,
                files=file_list,
                reason=reason,
                message_content_access=self.http.message_content_access,
            )
        except BackendError as error:
            if error.status in (401, 403):
                self.discord.invalid += 1
            return _Response(error.status, headers, json.dumps(error.to_json()))
        if result is None:
            return _Response(204, headers, "")
        return _Response(200, headers, json.dumps(result, default=str))

    async def close(self) -> None:
        return None


def limited_http(env: Any, discord_side: Discord) -> Any:
    """An HTTP client for the bot in ``env``: SimCord's transport with discord.py's own
    ``request`` (rate limits and all) over ``discord_side``."""
    import asyncio

    from discord.http import HTTPClient
    from simcord.http import FakeHTTPClient

    class LimitedHTTP(FakeHTTPClient):
        async def request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
            call = (kwargs.get("json"), files, form, kwargs.get("params"), kwargs.get("reason"))
            token = _CALL.set(call)
            try:
                return await HTTPClient.request(self, route, files=files, form=form, **kwargs)
            finally:
                _CALL.reset(token)

    old = env.bot.http
    http = LimitedHTTP(
        env.backend, asyncio.get_running_loop(), message_content_access=old.message_content_access
    )
    http.token = old.token
    http._HTTPClient__session = FakeSession(http, discord_side)  # type: ignore[attr-defined]
    http._global_over = asyncio.Event()
    http._global_over.set()
    return http


async def _route_wait(self: Any) -> None:
    """discord.py's ``Ratelimit.acquire`` with its wait for an exhausted bucket made a plain sleep
    to the bucket's reset (the same instant discord.py waits for). discord.py waits with
    ``asyncio.wait(..., timeout=...)``, a wait SimCord does not recognise as a sleep it may drive
    while it advances time, so a bot task waiting there can keep ``advance_time`` from settling.
    The 20-table DM scenario on small buckets stopped with "bot did not settle while advancing
    time" without this (and without DM clicks deferred), and ran with both."""
    import asyncio

    self._last_request = self._loop.time()
    if self.is_expired():
        self.reset()
    while self.remaining <= 0:
        left = self.expires - self._loop.time() if self.expires is not None else 0.05
        await asyncio.sleep(max(left, 0.001))
        if self.is_expired() or self.expires is None:
            self.reset()
    self.remaining -= 1
    self.outgoing += 1


def install(env: Any, discord_side: Discord) -> Any:
    """Put the layer under the bot in ``env`` (after start-up) and its global budget over it."""
    from discord.http import Ratelimit
    from simcord import _dpy_internals

    from cogs.table.budget import install as budget_install

    Ratelimit.acquire = _route_wait  # type: ignore[method-assign]  # for this bench process
    bot = env.bot
    http = limited_http(env, discord_side)
    _dpy_internals.install_http(bot, http)
    budget = getattr(bot, "global_budget", None)
    if budget is not None:
        budget_install(http, budget)
    return http


def per_minute(instants: list[float], seconds: float) -> float:
    return round(len(instants) * 60.0 / seconds, 1) if seconds > 0 else math.nan
