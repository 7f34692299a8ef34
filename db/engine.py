"""The async engine and session factory, and start-up migration.

SQLite is the default: WAL so readers never block the writer, foreign keys on (off by default in
SQLite), and a busy timeout so a second connection waits instead of failing. Any other SQLAlchemy
async URL (postgresql+asyncpg://…) works unchanged because nothing below is SQLite-only.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

ROOT = Path(__file__).resolve().parent.parent
SQLITE_BUSY_TIMEOUT_MS = 5000


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    # WAL with synchronous=NORMAL can lose the last commits on power loss but never on a process
    # crash; FULL keeps "acknowledged means durable" true even for power loss.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    engine = create_async_engine(url)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file so the first start needs no manual step."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def migrate(url: str, revision: str = "head") -> None:
    """Upgrade the schema (synchronously; call it before the event loop or in a thread)."""
    from alembic import command

    ensure_sqlite_dir(url)
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)


class Database:
    """One engine and its session factory, owned by the bot and disposed on close."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine, expire_on_commit=False
        )
        # SQLite has one write lock per file. Writers that contend for it wait in its busy
        # handler, which sleeps and retries: under a burst of clicks most of a commit's time went
        # there. Taking turns here instead queues them in arrival order with no sleeping, and
        # readers still never wait (WAL). PostgreSQL locks rows, so its writers run side by side.
        self._write_turn: asyncio.Lock | None = asyncio.Lock() if is_sqlite(url) else None

    @contextlib.asynccontextmanager
    async def writer(self) -> AsyncIterator[None]:
        """Hold this for a whole write transaction (begin to commit)."""
        if self._write_turn is None:
            yield
            return
        async with self._write_turn:
            yield

    async def dispose(self) -> None:
        await self.engine.dispose()
