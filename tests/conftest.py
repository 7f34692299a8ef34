"""Shared fixtures: a real, migrated database per test, and the real bot built on it.

By default each test gets its own SQLite file. With ``TEST_DATABASE_URL=postgresql+asyncpg://…`` each
test instead gets a fresh PostgreSQL database on that server (copied from a template migrated once per
run, dropped after the test), and tests marked ``sqlite_only`` skip with their reason.

SimCord (simcord[pytest]) provides ``simcord_env`` and calls our ``simcord_bot``. It never calls
``bot.close()``, so every bot's database engine is disposed here, or leaked aiosqlite threads
would make later tests flaky.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import make_url

from bot import RefereeBot, Settings, create_bot
from db.engine import migrate

BotFactory = Callable[[], RefereeBot]

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "").strip()
ON_POSTGRES = TEST_DATABASE_URL.startswith("postgresql+asyncpg://")
if TEST_DATABASE_URL and not ON_POSTGRES:
    raise pytest.UsageError(
        "TEST_DATABASE_URL must be a postgresql+asyncpg:// URL (or unset for SQLite), "
        f"not {TEST_DATABASE_URL!r}"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not ON_POSTGRES:
        return
    for item in items:
        marker = item.get_closest_marker("sqlite_only")
        if marker is not None:
            reason = marker.args[0] if marker.args else "needs a SQLite file"
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {reason}"))


# --- PostgreSQL: one server, a fresh database per test ----------------------------------------


def _pg_url(database: str) -> str:
    return make_url(TEST_DATABASE_URL).set(database=database).render_as_string(hide_password=False)


def _admin(*statements: str) -> None:
    """Run statements on the server's own database outside a transaction (CREATE/DROP DATABASE)."""
    import asyncpg

    url = make_url(TEST_DATABASE_URL)

    async def run() -> None:
        conn = await asyncpg.connect(
            host=url.host or "127.0.0.1",
            port=url.port or 5432,
            user=url.username,
            password=url.password,
            database=url.database or "postgres",
        )
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture(scope="session")
def _pg_template() -> Iterator[str]:
    """A database migrated once per run; CREATE DATABASE … TEMPLATE copies it in milliseconds."""
    name = f"test_template_{secrets.token_hex(4)}"
    _admin(f'CREATE DATABASE "{name}"')
    try:
        migrate(_pg_url(name))
        yield name
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def fresh_database_url(tmp_path: Path) -> Iterator[str]:
    """An empty database (not migrated): a file path not yet created, or a new PostgreSQL database."""
    if not ON_POSTGRES:
        yield f"sqlite+aiosqlite:///{tmp_path / 'nested' / 'folder' / 'referee.sqlite3'}"
        return
    name = f"test_{secrets.token_hex(6)}"
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield _pg_url(name)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if not ON_POSTGRES:
        url = f"sqlite+aiosqlite:///{tmp_path / 'referee.sqlite3'}"
        migrate(url)
        yield url
        return
    template = request.getfixturevalue("_pg_template")
    name = f"test_{secrets.token_hex(6)}"
    _admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    try:
        yield _pg_url(name)
    finally:
        # FORCE ends connections a test leaked, so one sloppy test cannot block the next.
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
        # The worker processes of its pictures and its computers' thinking, so that no test
        # leaves them running for the rest of the session (at exit they would go anyway).
        bot.referee.drawing.shutdown()
        bot.referee.thinker.shutdown()
        bot.scheduler.stop()
        await bot.release()  # shard locks and the change feed hold connections of their own
        await bot.database.dispose()
