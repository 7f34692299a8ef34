"""The async engine and session factory, start-up migration, and the health check.

SQLite is the default: WAL so readers never block the writer, foreign keys on (off by default in
SQLite), and a busy timeout so a second connection waits instead of failing. PostgreSQL
(postgresql+asyncpg://…, the ``postgres`` extra) is first-class: the schema is portable, and
connections are pinged before use so the first query after a database restart does not fail.

Start-up failures (a corrupt, locked or unwritable file, an unreachable server) become
``DatabaseUnavailable`` with one paragraph naming the database and what to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

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


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    if is_sqlite(url):
        engine = create_async_engine(url, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    # A server can restart or drop idle connections; a ping on checkout replaces a dead connection
    # instead of failing the next click. (A SQLite file cannot go away under a connection.)
    return create_async_engine(url, pool_pre_ping=True, **kwargs)


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL; None for another database or an in-memory one."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database).expanduser().resolve()


def describe(url: str) -> str:
    """How to name the database to a person: the file, or the server and database (no password)."""
    path = sqlite_path(url)
    if path is not None:
        # text: for the operator (start-up and --check), like the log
        return f"the database file {path}"
    parsed: URL = make_url(url)
    where = parsed.host or "localhost"
    if parsed.port is not None:
        where += f":{parsed.port}"
    # text: for the operator (start-up and --check), like the log
    return f"the {parsed.get_backend_name()} database {parsed.database or '(default)'} on {where}"


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite file so the first start needs no manual step."""
    path = sqlite_path(url)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)


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


class DatabaseUnavailable(Exception):
    """The database cannot be used; the message is a paragraph for the person running the bot."""


def prepare(url: str) -> None:
    """Start-up: create the folder, migrate to head and make sure the bot can write.

    A SQLite file another program holds a write lock on still lets Alembic read the schema version,
    so the write probe is what turns a locked file into a clear message now instead of failed
    clicks later. Call before the event loop starts (Alembic runs its own).
    """
    try:
        migrate(url)
        path = sqlite_path(url)
        if path is not None:
            probe = sqlite3.connect(path, timeout=SQLITE_BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            try:
                probe.execute("BEGIN IMMEDIATE")
                probe.execute("ROLLBACK")
            finally:
                probe.close()
    except Exception as error:
        raise DatabaseUnavailable(explain(url, error)) from error


def head_revision(url: str) -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(url)).get_current_head() or "base"


async def current_revision(url: str, timeout: float = 5.0) -> str:
    """The schema version the database is at ("base" when empty); raises when it is unreachable."""
    from alembic.runtime.migration import MigrationContext

    connect_args = {} if is_sqlite(url) else {"timeout": timeout}
    engine = make_engine(url, connect_args=connect_args)
    try:
        async with engine.connect() as conn:
            heads = await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_heads())
    finally:
        await engine.dispose()
    return ",".join(heads) or "base"


def check(url: str) -> str:
    """The health check's database part: reachable and at the schema head. Returns one line, or
    raises DatabaseUnavailable with one sentence. Never creates or migrates anything."""
    path = sqlite_path(url)
    if path is not None and not path.exists():
        raise DatabaseUnavailable(
            # text: for the operator (start-up and --check), like the log
            f"The database file {path} does not exist yet: start the bot once, or run "
            "python bot.py --migrate, to create it."
        )
    try:
        current = asyncio.run(current_revision(url))
    except Exception as error:
        raise DatabaseUnavailable(" ".join(explain(url, error).split("\n")[:1])) from error
    head = head_revision(url)
    if current != head:
        raise DatabaseUnavailable(
            # text: for the operator (start-up and --check), like the log
            f"The schema of {describe(url)} is at revision {current} but this version of the bot needs "
            f"{head}: run python bot.py --migrate (the bot also migrates when it starts)."
        )
    # text: for the operator (start-up and --check), like the log
    return f"ok: {describe(url)} is reachable and its schema is at head ({head})"


def explain(url: str, error: BaseException) -> str:
    """One paragraph for a start-up failure: what is wrong with which database, and what to do.
    The first line alone is a complete sentence (the health check prints only that)."""
    chain: list[BaseException] = []
    seen: BaseException | None = error
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    root = chain[-1]
    reason = str(root) or type(root).__name__
    text = " ".join(str(e) for e in chain).lower()
    name = describe(url)
    path = sqlite_path(url)
    codes = {getattr(e, "errno", None) for e in chain}
    if "file is not a database" in text or "malformed" in text:
        return (
            # text: for the operator (start-up and --check), like the log
            f"Could not open {name}: it is not a SQLite database or it is damaged ({reason}).\n"
            "Stop the bot and restore a backup in its place, or move the file aside (keep it: "
            "`sqlite3 FILE .recover` can often rescue its rows) and start the bot again to begin with "
            "an empty database. DATABASE_URL chooses another file."
        )
    if "database is locked" in text or "database table is locked" in text:
        return (
            # text: for the operator (start-up and --check), like the log
            f"Could not write to {name}: another program holds a lock on it ({reason}).\n"
            "Usually that is a second copy of the bot, or a sqlite3 shell or backup tool with a "
            f"transaction open. Stop it (`fuser {path}` names the process) and start the bot again."
        )
    if path is not None and (
        codes & {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOTDIR, errno.EEXIST, errno.EISDIR}
        or "unable to open database file" in text
        or "readonly database" in text
    ):
        return (
            # text: for the operator (start-up and --check), like the log
            f"Could not create or write {name} ({reason}).\n"
            f"Check that {path.parent} is a folder the user running the bot can write to (and that "
            f"{path.name} is a file, not a folder), or set DATABASE_URL to a writable place."
        )
    if "can't locate revision" in text:
        return (
            # text: for the operator (start-up and --check), like the log
            f"{name[0].upper()}{name[1:]} was migrated by a newer version of the bot ({reason}).\n"
            "Run the newer version, or restore a backup taken before the upgrade."
        )
    if path is None and (
        isinstance(root, OSError)
        or "does not exist" in text
        or "password" in text
        or "timeout" in text.replace("_", "")
    ):
        return (
            # text: for the operator (start-up and --check), like the log
            f"Could not connect to {name} ({reason}).\n"
            "Check that the server is running and reachable from here, and that DATABASE_URL "
            "(postgresql+asyncpg://user:password@host/database) names an existing database and a "
            "user allowed to use it."
        )
    return (
        # text: for the operator (start-up and --check), like the log
        f"Could not open {name} ({type(root).__name__}: {reason}).\n"
        "Check DATABASE_URL; run with LOG_LEVEL=DEBUG to see the details."
    )


Work = Callable[[AsyncConnection], Awaitable[None]]


class Refused(Exception):
    """A write that ``CommitLine`` should leave out of its transaction, the others going on (a
    version conflict: it wrote nothing). Raised by the write itself, re-raised to its caller."""


@dataclass
class _Write:
    work: Work
    done: asyncio.Future[None]


class CommitLine:
    """SQLite group commit: the table writes waiting at one moment share one transaction and one
    commit (one fsync), in arrival order.

    Under a burst of clicks, commits that each wait for the file's one write lock (and each pay
    their own fsync with synchronous=FULL) queue up: the tenth click of a burst waited for nine
    commits. Here, whatever arrived while the previous commit was on disk goes in the next one
    together. A caller's write counts only once its commit has returned, so nothing is
    acknowledged before it is on disk. A write that raises ``Refused`` is left out and the rest
    go on; any other failure rolls the shared transaction back and every write of it is tried
    again alone, so one bad write never takes the others' down with it."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._waiting: list[_Write] = []
        self._draining: asyncio.Task[None] | None = None

    async def write(self, work: Work) -> None:
        write = _Write(work, asyncio.get_running_loop().create_future())
        self._waiting.append(write)
        if self._draining is None or self._draining.done():
            self._draining = asyncio.ensure_future(self._drain())
        await asyncio.shield(write.done)  # a cancelled caller's write still lands, or fails alone

    async def _drain(self) -> None:
        while self._waiting:
            async with self._database.writer():  # the same turn as every other write
                batch, self._waiting = self._waiting, []
                await self._commit(batch)

    async def _commit(self, batch: list[_Write]) -> None:
        refusals: list[Refused | None] = []
        try:
            async with self._database.engine.begin() as connection:
                for write in batch:
                    try:
                        await write.work(connection)
                        refusals.append(None)
                    except Refused as refused:
                        refusals.append(refused)
        except BaseException as error:
            if len(batch) == 1 or not isinstance(error, Exception):
                for write in batch:
                    if not write.done.done():
                        write.done.set_exception(error)
                if not isinstance(error, Exception):
                    raise
                return
            for write in batch:  # find the one that failed: each alone, in its own transaction
                await self._commit([write])
            return
        for write, refusal in zip(batch, refusals, strict=True):
            if not write.done.done():
                if refusal is None:
                    write.done.set_result(None)
                else:
                    write.done.set_exception(refusal)


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
        # SQLite: the plain table writes of one moment share a commit (see CommitLine).
        self.line: CommitLine | None = CommitLine(self) if is_sqlite(url) else None

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
