"""Shared fixtures: a real SQLite file per test, migrated, and the real bot built on it.

SimCord (simcord[pytest]) provides ``simcord_env`` and calls our ``simcord_bot``. It never calls
``bot.close()``, so every bot's database engine is disposed here, or leaked aiosqlite threads
would make later tests flaky.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot import RefereeBot, Settings, create_bot
from db.engine import migrate

BotFactory = Callable[[], RefereeBot]


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'referee.sqlite3'}"
    migrate(url)
    return url


@pytest.fixture
def built_bots() -> Iterator[list[RefereeBot]]:
    bots: list[RefereeBot] = []
    yield bots


@pytest.fixture
def make_bot(database_url: str, built_bots: list[RefereeBot]) -> BotFactory:
    """Build a fresh, unstarted bot on the test's database (build another to 'restart')."""

    def build() -> RefereeBot:
        bot = create_bot(Settings(token=None, database_url=database_url))
        built_bots.append(bot)
        return bot

    return build


@pytest_asyncio.fixture
async def simcord_bot(make_bot: BotFactory, built_bots: list[RefereeBot]) -> AsyncIterator[RefereeBot]:
    yield make_bot()
    for bot in built_bots:
        bot.scheduler.stop()
        await bot.database.dispose()
