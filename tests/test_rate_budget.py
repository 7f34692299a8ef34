"""The bot's global budget (cogs/table/budget.py) and the bench's Discord-like layer under it
(bench/ratelimits.py), on the loop's real clock with small rates so each test takes a moment.

Seen to fail on broken versions: with waiters served in arrival order (the redraw before the
post), and with a global 429 not holding the bucket (the calls after it went at once, a herd)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bench.ratelimits import Discord, route_of
from cogs.table.budget import PRIORITY, BudgetedSession, GlobalBudget, Priority, exempt, priority_of


async def test_takes_go_out_at_the_budgets_pace() -> None:
    budget = GlobalBudget(rate=50.0, burst=1.0)
    started = time.monotonic()
    for _ in range(11):
        await budget.take()
    took = time.monotonic() - started
    # One from the burst, then ten at 50/s: 0.2 s, not at once.
    assert 0.18 <= took < 0.6
    assert budget.taken == 11 and budget.waited >= 9


async def test_what_waits_is_served_by_value() -> None:
    budget = GlobalBudget(rate=20.0, burst=1.0)
    await budget.take()  # the bucket is empty now
    served: list[str] = []

    async def call(name: str, priority: Priority) -> None:
        await budget.take(priority)
        served.append(name)

    redraw = asyncio.create_task(call("redraw", Priority.REDRAW))
    await asyncio.sleep(0)
    post = asyncio.create_task(call("post", Priority.POST))
    await asyncio.sleep(0)
    click = asyncio.create_task(call("click", Priority.CLICK))
    await asyncio.gather(redraw, post, click)
    assert served == ["click", "post", "redraw"]


async def test_a_global_429_holds_the_bucket_until_its_retry_after() -> None:
    """discord.py's own retries after a global 429 each take a token: after the wait they go out
    at the budget's pace, one at a time, not together (no herd)."""
    budget = GlobalBudget(rate=40.0, burst=4.0)
    budget.answered(429, {"Retry-After": "0.3", "X-RateLimit-Global": "true"})
    assert budget.global_429s == 1 and budget.invalid() == 1
    started = time.monotonic()
    stamps: list[float] = []

    async def retry() -> None:
        await budget.take()
        stamps.append(time.monotonic() - started)

    await asyncio.gather(*(retry() for _ in range(5)))
    assert min(stamps) >= 0.28, "nothing went before the Retry-After"
    gaps = [b - a for a, b in zip(sorted(stamps), sorted(stamps)[1:], strict=False)]
    assert all(g >= 0.015 for g in gaps), f"spaced at the budget's pace, not a herd: {gaps}"


async def test_the_session_hook_takes_a_token_per_try_and_sees_every_answer() -> None:
    class Answer:
        def __init__(self, status: int, headers: dict[str, str]) -> None:
            self.status, self.headers = status, headers

        async def __aenter__(self) -> Answer:
            return self

        async def __aexit__(self, *exc: Any) -> None:
            return None

    class Inner:
        def __init__(self) -> None:
            self.sent: list[str] = []

        def request(self, method: str, url: str, **kwargs: Any) -> Answer:
            self.sent.append(url)
            return Answer(403 if "forbidden" in url else 200, {})

    budget = GlobalBudget(rate=1000.0, burst=10.0)
    inner = Inner()
    session = BudgetedSession(inner, budget)
    api = "https://discord.com/api/v10"
    async with session.request("POST", f"{api}/channels/1/messages"):
        pass
    async with session.request("POST", f"{api}/interactions/123/tok/callback"):
        pass
    async with session.request("PATCH", f"{api}/webhooks/9/tok/messages/@original"):
        pass
    async with session.request("GET", f"{api}/guilds/1/members/2?forbidden"):
        pass
    assert len(inner.sent) == 4
    assert budget.taken == 2, "interaction callbacks and interaction-token edits take nothing"
    assert budget.invalid() == 1


def test_priorities_and_exemptions() -> None:
    assert priority_of("render12") is Priority.REDRAW
    assert priority_of("posts12") is Priority.POST and priority_of("line12") is Priority.POST
    assert PRIORITY.get() is Priority.CLICK
    assert exempt("/api/v10/interactions/1/abc/callback")
    assert exempt("/api/v10/webhooks/1/abc/messages/@original")
    assert not exempt("/api/v10/channels/1/messages")


def test_processes_share_the_limit_by_their_shards() -> None:
    whole = GlobalBudget.for_shards(50, (0, 1, 2, 3), 4)
    half = GlobalBudget.for_shards(50, (0, 1), 4)
    assert whole.rate + whole.burst == pytest.approx(50)
    assert half.rate + half.burst == pytest.approx(25)
    granted = GlobalBudget.for_shards(500, (0,), 1)
    assert granted.rate == pytest.approx(450)
    half.rebalance((0, 1, 2), 4)
    assert half.rate + half.burst == pytest.approx(37.5)


def test_shedding_starts_well_before_the_ban() -> None:
    budget = GlobalBudget.for_shards(50, (0,), 2)
    assert budget.shed_at() <= 10_000 * 0.25 / 2
    for _ in range(int(budget.shed_at())):
        budget.answered(403, {})
    assert budget.shedding()
    assert budget.redraw_spacing(1.5) == pytest.approx(6.0), "redraws spaced four times wider"


def test_two_processes_with_their_shares_stay_under_one_global_window() -> None:
    """Two processes, each with half the shards, each at full demand: Discord's one window for
    the token never holds more than 50 calls in a second. Driven on a stepped clock."""
    now = [0.0]
    side = Discord(lambda: now[0])
    budgets = [GlobalBudget.for_shards(50, (i,), 2) for i in range(2)]
    for b in budgets:
        b.clock = lambda: now[0]  # type: ignore[method-assign]
    statuses: list[int] = []
    while now[0] < 10.0:
        for b in budgets:
            b._refill(now[0])
            while b._tokens >= 1:  # every call it may send now, it sends
                b._tokens -= 1
                statuses.append(side.ask("POST", f"/channels/{len(statuses)}/messages")[0])
        now[0] += 0.01
    assert 429 not in statuses
    assert len(statuses) >= 440, "and the budget is used, not wasted"


def test_the_layer_keeps_discords_limits() -> None:
    now = [100.0]
    side = Discord(lambda: now[0])
    answers = [side.ask("PATCH", "/channels/7000001/messages/8000001") for _ in range(6)]
    assert [a[0] for a in answers] == [200] * 5 + [429]
    status, headers, body = answers[-1]
    assert body is not None and body["global"] is False and headers["X-RateLimit-Remaining"] == "0"
    assert float(headers["X-RateLimit-Reset-After"]) == pytest.approx(5.0)
    for i in range(45):
        assert side.ask("POST", f"/channels/{1000000 + i}/messages")[0] == 200
    status, headers, body = side.ask("POST", "/channels/99999/messages")
    assert status == 429 and body is not None and body["global"] is True
    assert headers["X-RateLimit-Global"] == "true" and headers["Via"]
    now[0] += 1.01
    assert side.ask("POST", "/channels/99999/messages")[0] == 200
    assert side.limited == {"route": 1, "global": 1}
    assert route_of("PATCH", "/channels/123456/messages/987654") == (
        "/channels/{id}/messages/{id}",
        "123456",
    )


def test_the_setting_for_a_higher_grant(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import Settings, create_bot

    monkeypatch.setenv("DISCORD_GLOBAL_LIMIT", "200")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0,1")
    settings = Settings.from_env()
    assert settings.global_limit == 200
    bot = create_bot(settings)
    assert bot.global_budget.rate == pytest.approx(200 * 0.5 * 0.9)
    monkeypatch.setenv("DISCORD_GLOBAL_LIMIT", "lots")
    with pytest.raises(SystemExit, match="DISCORD_GLOBAL_LIMIT"):
        Settings.from_env()


async def test_a_token_taken_ahead_pays_for_the_next_call_once() -> None:
    """A redraw takes its token before it draws (``take_ahead``); the edit it then sends takes
    nothing more, the call after it takes its own, and a token taken ahead and not used goes
    back to the bucket (``refund``). Seen to fail with ``take`` not honouring the mark: every
    redraw spent two tokens, halving what tables could be redrawn."""
    budget = GlobalBudget(rate=1.0, burst=3.0)
    await budget.take_ahead(Priority.REDRAW)
    assert budget.taken == 1 and budget._tokens == pytest.approx(2.0, abs=0.01)
    await budget.take()  # the edit itself: paid already
    assert budget.taken == 1 and budget._tokens == pytest.approx(2.0, abs=0.01)
    await budget.take()  # the next call pays
    assert budget.taken == 2 and budget._tokens == pytest.approx(1.0, abs=0.01)
    budget.refund()  # nothing taken ahead: nothing to give back
    assert budget._tokens == pytest.approx(1.0, abs=0.01)
    await budget.take_ahead(Priority.REDRAW)
    budget.refund()  # the drawing showed nothing new
    assert budget._tokens == pytest.approx(1.0, abs=0.01)
    await budget.take()
    assert budget.taken == 4, "the refunded mark is gone: this call paid"
