"""The offline mode's simulated clock rate (OFFLINE_CLOCK_RATE): 1 for a person; a whole-game
browser test (tests/browser/test_phone_panels*.py) runs computers' turns and timers faster."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cogs import offline
from cogs.offline import OfflineWorld, clock_rate, pump


@pytest.mark.parametrize(("value", "rate"), [(None, 1.0), ("4", 4.0), ("0.5", 1.0), ("fast", 1.0)])
def test_the_rate_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str | None, rate: float
) -> None:
    if value is None:
        monkeypatch.delenv("OFFLINE_CLOCK_RATE", raising=False)
    else:
        monkeypatch.setenv("OFFLINE_CLOCK_RATE", value)
    assert clock_rate() == rate


class Env:
    def __init__(self) -> None:
        self.advanced = 0.0

    async def advance_time(self, seconds: float) -> None:
        self.advanced += seconds


async def test_the_pump_advances_the_simulated_clock_at_the_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OFFLINE_CLOCK_RATE", "4")
    monkeypatch.setattr(offline, "PUMP_SECONDS", 0.05)
    env: Any = Env()
    world = OfflineWorld(env, None, {}, [])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    started = loop.time()
    task = asyncio.create_task(pump(world, stop))
    await asyncio.sleep(0.5)
    stop.set()
    await task
    elapsed = loop.time() - started
    assert 3.0 * elapsed <= env.advanced <= 4.0 * elapsed + 0.01
