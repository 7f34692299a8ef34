"""Which process plays which tables: Discord shards, owned through the database.

A guild's tables belong to the process that runs the guild's shard (``shard_of``). Ownership is
claimed where every process can see it, so two processes never time and play the same table:

- PostgreSQL: a session advisory lock per shard, on a connection held for the process's life. A
  process that dies closes its connection and the server frees the lock at once.
- SQLite: a lease row per shard with an expiry, renewed by a heartbeat. A process that dies stops
  renewing, and after ``LEASE`` a replacement may take the shard over.

A second process for a shard already owned is refused with one sentence (``ShardTaken``), and so
is a process whose ``SHARD_COUNT`` differs from the count the live owners use
(``ShardCountDiffers``): a guild's shard number depends on the count, so under two counts the same
guild would have two owners (shard 1 of 2 and shard 0 of 1, say). Changing the count means stopping
every process first.

``ChangeFeed`` lets a process that changed another's table (a DM click, which Discord always
delivers to shard 0) tell the owner, which reloads and redraws it (PostgreSQL LISTEN/NOTIFY;
with SQLite there is one process and nothing to tell). Its connection is watched: when it drops
(a database restart), it is reopened with backoff, and the tables that moved while nobody was
listening are caught up as if each had been announced.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, delete, select, text, update
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

from db.engine import Database, is_sqlite
from db.models import Game, ShardLease

log = logging.getLogger(__name__)

LEASE = timedelta(seconds=30)
HEARTBEAT = LEASE / 3
# Advisory lock keys: ours are this base plus the shard id, so other applications' locks on the
# same server never collide with them.
ADVISORY_BASE = 0x5245_4600
# The shard count's locks use the two-key form (COUNT_LOCKS, count), held shared by every owner
# under that count; (COUNT_LOCKS, 0) is the gate that lets one process at a time claim.
COUNT_LOCKS = 0x5245_4601
CHANNEL = "referee_tables"
# The change feed: how often its connection is checked while all is well, and how a reopening
# that failed is tried again (1, 2, 4 … s, at most 15 s apart: a feed deaf for long means DM
# clicks the owner draws late, so it is retried more eagerly than ordinary jobs).
WATCH = timedelta(seconds=10)
PING_SECONDS = 5.0
REOPEN_FIRST = 1.0
REOPEN_MAX = 15.0
# Tables per catch-up query: far under PostgreSQL's limit on bound parameters.
CATCH_UP_BATCH = 1000
# The lock connections this process holds, by (database url, owner): a bot object that replaces
# another in the same process (a restart in tests) takes its locks over instead of waiting on
# itself.
_HELD: dict[tuple[str, str], Ownership] = {}


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: a guild lives on shard (guild_id >> 22) % shard_count."""
    return (guild_id >> 22) % shard_count


def _gone(owner: str) -> bool:
    """Whether ``owner`` ("host:pid", the default instance name) is a process of this machine that
    is no longer running. Anything else (another machine, a name we cannot read) is presumed
    alive: its lease decides."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, under another user
    return False


def _nothing() -> None:
    pass


def _ignore(_table_id: int) -> None:
    pass


class ShardsRefused(Exception):
    """This process may not run the shards it was given (the message says why, in one sentence)."""


class ShardTaken(ShardsRefused):
    """Another process already owns one of the shards asked for."""

    def __init__(self, shard: int, shard_count: int, holder: str) -> None:
        super().__init__(
            # text: for the operator (start-up), like the log
            f"Shard {shard} of {shard_count} is already run by another process ({holder}) on this "
            "database: stop that one first, or give this one other shards with SHARD_IDS."
        )
        self.shard = shard


class ShardCountDiffers(ShardsRefused):
    """Live owners on this database run under another SHARD_COUNT."""

    def __init__(self, shard_count: int, others: Sequence[tuple[int, str]]) -> None:
        counts = sorted({count for count, _ in others})
        if len(counts) == 1:
            names = " and ".join(sorted({holder for _, holder in others}))
            # text: for the operator (start-up), like the log
            where = f"with SHARD_COUNT={counts[0]}"
            # text: for the operator (start-up), like the log
            advice = f"or start this one with SHARD_COUNT={counts[0]}"
        else:  # only if owners disagreed among themselves before counts were checked
            names = " and ".join(f"{holder} (SHARD_COUNT={count})" for count, holder in sorted(set(others)))
            # text: for the operator (start-up), like the log
            where = "with other counts"
            # text: for the operator (start-up), like the log
            advice = "and start them all with one count"
        verb = "runs" if len(set(others)) == 1 else "run"
        super().__init__(
            # text: for the operator (start-up), like the log
            f"SHARD_COUNT is {shard_count} here, but {names} already {verb} on this database {where}: "
            "a guild's shard depends on the count, so stop every process before changing "
            f"SHARD_COUNT, {advice}."
        )
        self.shard_count = shard_count
        self.others = tuple(others)


class ShardLost(Exception):
    """This process no longer owns a shard it had (its lease ran out and was taken over, or the
    database now has owners under another shard count)."""


class Ownership:
    def __init__(
        self,
        database: Database,
        shard_ids: Sequence[int],
        shard_count: int,
        owner: str,
        now: Callable[[], datetime],
    ) -> None:
        self.database = database
        self.shard_ids = tuple(shard_ids)
        self.shard_count = shard_count
        self.owner = owner
        self.now = now
        self.sqlite = is_sqlite(database.url)
        self._engine: AsyncEngine | None = None
        self._conn: AsyncConnection | None = None
        self._raw: Any = None  # the asyncpg connection under _conn
        # Set once the shards were given up on purpose (released, or handed over to a newer bot
        # of this process): only then does a missing lock connection mean nothing is to be held.
        self._given_up = False
        # Called when the PostgreSQL lock connection closes without being asked to (a database
        # restart): the bot runs its heartbeat at once, which claims the shards again, instead
        # of leaving them unowned until the next beat.
        self.on_lost: Callable[[], None] = _nothing

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    async def claim(self) -> None:
        self._given_up = False
        if self.sqlite:
            await self._claim_leases()
        else:
            key = (self.database.url, self.owner)
            previous = _HELD.get(key)
            if (
                previous is not None
                and previous._conn is not None
                and previous.shard_ids == self.shard_ids
                and previous.shard_count == self.shard_count
            ):
                raw: Any = previous._raw
                self._engine, self._conn, self._raw = previous._engine, previous._conn, raw
                previous._engine = previous._conn = previous._raw = None
                previous._given_up = True
                # The lost-connection callback follows the connection to its new holder.
                raw.remove_termination_listener(previous._lock_connection_closed)
                raw.add_termination_listener(self._lock_connection_closed)
            else:
                await self._claim_locks()
            _HELD[key] = self
        log.info("owning shards %s of %d as %s", list(self.shard_ids), self.shard_count, self.owner)

    async def renew(self) -> None:
        """The heartbeat: keep the shards. Raises ShardLost if one was taken over meanwhile, or if
        processes under another shard count started while this one's claim had lapsed."""
        if self.sqlite:
            now = self.now()
            async with self.database.sessions() as session, session.begin():
                kept = await session.execute(
                    update(ShardLease)
                    .where(ShardLease.shard_id.in_(self.shard_ids), ShardLease.owner == self.owner)
                    .values(expires_at=now + LEASE, shard_count=self.shard_count)
                )
                # An UPDATE's result is a CursorResult; AsyncSession.execute is typed as the
                # general Result, which has no rowcount.
                if cast(CursorResult[Any], kept).rowcount != len(self.shard_ids):
                    # text: for the operator (start-up), like the log
                    raise ShardLost(f"{self.owner} lost a shard lease to another process")
                # A pause longer than the lease lets a process under another count start; this
                # one must then stop, or a guild would have two owners.
                others = await self._lease_counts(session, now)
                if others:
                    raise ShardLost(str(ShardCountDiffers(self.shard_count, others)))
            return
        if self._given_up:
            return  # released, or handed over to this process's newer bot
        if self._conn is not None:
            try:
                await self._conn.execute(text("SELECT 1"))
                await self._conn.commit()
                return
            except Exception:
                # The lock connection died (a database restart): the locks died with it.
                log.warning("the shard lock connection was lost; claiming the shards again")
                await self._close_locks()
        # Take them again, unless another process was quicker. While the server is still down
        # this raises, and the next beat (the scheduler retries it) tries again.
        try:
            await self._claim_locks()
        except ShardsRefused as refused:
            raise ShardLost(str(refused)) from refused
        _HELD[(self.database.url, self.owner)] = self
        log.info("owning shards %s of %d again", list(self.shard_ids), self.shard_count)

    async def release(self) -> None:
        """Give the shards up (a clean stop): a replacement need not wait for the lease."""
        if self.sqlite:
            async with self.database.sessions() as session, session.begin():
                await session.execute(delete(ShardLease).where(ShardLease.owner == self.owner))
            return
        self._given_up = True
        await self._close_locks()

    # --- SQLite: lease rows ------------------------------------------------------------------

    async def _claim_leases(self) -> None:
        now = self.now()
        expires = now + LEASE
        async with self.database.sessions() as session, session.begin():
            holders: dict[int, str] = {}
            for shard in self.shard_ids:
                # One statement, under SQLite's write lock: take the row if it is free, ours, or
                # its lease ran out; then read who holds it.
                claim = sqlite_insert(ShardLease).values(
                    shard_id=shard, owner=self.owner, shard_count=self.shard_count, expires_at=expires
                )
                await session.execute(
                    claim.on_conflict_do_update(
                        index_elements=[ShardLease.shard_id],
                        set_={
                            "owner": claim.excluded.owner,
                            "shard_count": claim.excluded.shard_count,
                            "expires_at": claim.excluded.expires_at,
                        },
                        where=(ShardLease.owner == self.owner) | (ShardLease.expires_at < now),
                    )
                )
                holders[shard] = str(
                    await session.scalar(select(ShardLease.owner).where(ShardLease.shard_id == shard))
                )
            # Still under the write lock the first upsert took, so a process with another count
            # cannot slip in between this look and the commit.
            others = await self._lease_counts(session, now)
            if others:
                raise ShardCountDiffers(self.shard_count, others)
            for shard, holder in holders.items():
                if holder != self.owner and _gone(holder):
                    # A crashed process on this machine (a SQLite file is local): its lease
                    # would run out anyway; a restart need not wait for it.
                    log.warning(
                        "shard %s was held by %s, which is no longer running; taking it", shard, holder
                    )
                    await session.execute(
                        update(ShardLease)
                        .where(ShardLease.shard_id == shard, ShardLease.owner == holder)
                        .values(owner=self.owner, shard_count=self.shard_count, expires_at=expires)
                    )
                    holder = self.owner
                if holder != self.owner:
                    raise ShardTaken(shard, self.shard_count, holder)

    async def _lease_counts(self, session: Any, now: datetime) -> list[tuple[int, str]]:
        """Live leases of other processes under another shard count, as (count, owner). A
        crashed process of this machine holds nothing; a lease without a count (written before
        counts were recorded) says nothing either way."""
        rows = await session.execute(
            select(ShardLease.shard_count, ShardLease.owner)
            .where(
                ShardLease.owner != self.owner,
                ShardLease.expires_at >= now,
                ShardLease.shard_count.is_not(None),
                ShardLease.shard_count != self.shard_count,
            )
            .distinct()
        )
        return sorted((int(count), str(owner)) for count, owner in rows if not _gone(str(owner)))

    # --- PostgreSQL: advisory locks ----------------------------------------------------------

    async def _claim_locks(self) -> None:
        engine = create_async_engine(
            self.database.url,
            poolclass=NullPool,
            connect_args={"server_settings": {"application_name": f"referee {self.owner}"[:63]}},
        )
        conn = await engine.connect()
        try:
            # One claim at a time on this database: the gate is a transaction lock, freed at the
            # commit below, so two processes under different counts starting together cannot
            # each miss the other.
            await conn.execute(text("SELECT pg_advisory_xact_lock(:ns, 0)"), {"ns": COUNT_LOCKS})
            others = await conn.execute(
                text(
                    "SELECT l.objid::bigint, a.application_name || ' pid ' || a.pid FROM pg_locks l "
                    "JOIN pg_stat_activity a ON a.pid = l.pid "
                    "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = :ns "
                    "AND l.objsubid = 2 AND l.objid::bigint NOT IN (0, :count) "
                    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                ),
                {"ns": COUNT_LOCKS, "count": self.shard_count},
            )
            found = sorted((int(count), str(holder)) for count, holder in others)
            if found:
                raise ShardCountDiffers(self.shard_count, found)
            # Held shared for the life of the connection: every owner under this count holds it,
            # and the look above finds it for a process under another count.
            await conn.execute(
                text("SELECT pg_advisory_lock_shared(:ns, :count)"),
                {"ns": COUNT_LOCKS, "count": self.shard_count},
            )
            for shard in self.shard_ids:
                got = await conn.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": ADVISORY_BASE + shard})
                if not got:
                    holder = await conn.scalar(
                        text(
                            "SELECT a.application_name || ' pid ' || a.pid FROM pg_locks l "
                            "JOIN pg_stat_activity a ON a.pid = l.pid "
                            "WHERE l.locktype = 'advisory' AND l.objid = :k AND l.objsubid = 1 "
                            "AND l.granted AND l.database = "
                            "(SELECT oid FROM pg_database WHERE datname = current_database())"
                        ),
                        {"k": ADVISORY_BASE + shard},
                    )
                    raise ShardTaken(shard, self.shard_count, str(holder or "unknown"))
            await conn.commit()  # session locks outlive the transaction; don't hold one open
            raw: Any = (await conn.get_raw_connection()).driver_connection
            raw.add_termination_listener(self._lock_connection_closed)
        except BaseException:
            await conn.close()
            await engine.dispose()
            raise
        self._engine, self._conn, self._raw = engine, conn, raw

    def _lock_connection_closed(self, raw: Any) -> None:
        """asyncpg: the lock connection closed. Closing it ourselves clears ``_raw`` first, so
        this only acts on a connection that was lost."""
        if raw is self._raw:
            log.warning("the shard lock connection closed; claiming the shards again")
            self.on_lost()

    async def _close_locks(self) -> None:
        conn, engine = self._conn, self._engine
        self._conn = self._engine = self._raw = None
        if _HELD.get((self.database.url, self.owner)) is self:
            del _HELD[(self.database.url, self.owner)]
        if conn is not None:
            try:
                await conn.close()  # closing the session frees its advisory locks
            except Exception:
                log.debug("closing the shard lock connection failed", exc_info=True)
        if engine is not None:
            await engine.dispose()


class ChangeFeed:
    """Tell the owner of a table that another process changed it (PostgreSQL LISTEN/NOTIFY).

    A notification sent while the owner's LISTEN connection is down is lost for good (PostgreSQL
    keeps none for a session that is gone), so the connection is watched: ``watch`` (run by the
    bot's scheduler, and at once when asyncpg reports the connection closed) reopens it with
    backoff, and then compares the versions of the owner's tables with the database and calls
    ``on_change`` for each that moved, exactly as a notification would have.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.enabled = not is_sqlite(database.url)
        self._engine: AsyncEngine | None = None
        self._conn: AsyncConnection | None = None
        self._raw: Any = None  # the asyncpg connection that LISTENs
        self._on_change: Callable[[int], None] = _ignore
        self._versions: Callable[[], Mapping[int, int]] = dict
        # Set by the bot: run ``watch`` soon (the connection was just reported closed).
        self.wake: Callable[[], None] = _nothing
        self._watching = asyncio.Lock()
        self._failures = 0
        self._deaf_at: float | None = None
        self._stopped = False

    @property
    def listening(self) -> bool:
        return self._raw is not None and not self._raw.is_closed()

    async def start(
        self, on_change: Callable[[int], None], versions: Callable[[], Mapping[int, int]]
    ) -> None:
        """Listen for changes to this process's tables. ``versions`` gives the tables it owns and
        the version each has in memory, for the catch-up after a reconnect."""
        if not self.enabled:
            return
        self._on_change, self._versions = on_change, versions
        self._stopped = False
        await self._open()

    async def watch(self) -> float:
        """Check the LISTEN connection; reopen it and catch up if it was lost. Returns the seconds
        until the next check: ``WATCH`` while it listens, a growing backoff while it cannot be
        reopened. Never raises: a feed that cannot reopen is retried, and logged once."""
        if not self.enabled or self._stopped:
            return WATCH.total_seconds()
        async with self._watching:
            if self.listening:
                try:
                    await self._raw.fetchval("SELECT 1", timeout=PING_SECONDS)
                    return WATCH.total_seconds()
                except Exception:  # a silent network cut: no close was ever reported
                    log.warning("the change feed's connection stopped answering; reopening it")
            if self._deaf_at is None:
                self._deaf_at = time.monotonic()
            await self._close()
            try:
                await self._open()
                moved = await self._catch_up()
            except Exception as error:
                await self._close()  # opened but not caught up: the next try does both again
                self._failures += 1
                delay = min(REOPEN_FIRST * 2 ** (self._failures - 1), REOPEN_MAX)
                if self._failures == 1:
                    reason = getattr(error, "orig", None) or error  # the driver's words, not SQLAlchemy's
                    log.warning("could not reopen the change feed (%s); trying again with backoff", reason)
                else:
                    log.debug(
                        "the change feed is still closed (%d tries); next in %.0f s", self._failures, delay
                    )
                return float(delay)
            deaf = time.monotonic() - self._deaf_at
            self._deaf_at, self._failures = None, 0
            log.info(
                "the change feed is listening again after %.1f s; caught up on %d moved tables",
                deaf,
                len(moved),
            )
            return WATCH.total_seconds()

    async def announce(self, table_id: int) -> None:
        if not self.enabled:
            return
        async with self.database.sessions() as session, session.begin():
            await session.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": str(table_id)})

    async def stop(self) -> None:
        self._stopped = True
        await self._close()

    async def _open(self) -> None:
        engine = create_async_engine(self.database.url, poolclass=NullPool)
        try:
            conn = await engine.connect()
            try:
                raw: Any = (await conn.get_raw_connection()).driver_connection
                await raw.add_listener(CHANNEL, self._heard)
                raw.add_termination_listener(self._closed)
            except BaseException:
                await conn.close()
                raise
        except BaseException:
            await engine.dispose()
            raise
        self._engine, self._conn, self._raw = engine, conn, raw

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload.isdigit():
            self._on_change(int(payload))

    def _closed(self, raw: Any) -> None:
        """asyncpg: the LISTEN connection closed. Closing it ourselves clears ``_raw`` first, so
        this only acts on a connection that was lost."""
        if raw is self._raw and not self._stopped:
            self._deaf_at = time.monotonic()
            log.warning("the change feed's connection closed; reopening it")
            self.wake()

    async def _catch_up(self) -> list[int]:
        """Call ``on_change`` for every owned table whose version in the database differs from
        the one in memory (moved, finished, or gone while nobody listened). Run after LISTEN is
        in place, so a change is either heard or seen here; seeing one twice is harmless (the
        owner compares versions before reloading)."""
        known = dict(self._versions())
        ids = list(known)
        stored: dict[int, int] = {}
        for start in range(0, len(ids), CATCH_UP_BATCH):
            batch = ids[start : start + CATCH_UP_BATCH]
            async with self.database.sessions() as session:
                rows = await session.execute(select(Game.id, Game.version).where(Game.id.in_(batch)))
                stored.update((int(tid), int(version)) for tid, version in rows)
        moved = [tid for tid, version in known.items() if stored.get(tid) != version]
        for tid in moved:
            self._on_change(tid)
        return moved

    async def _close(self) -> None:
        conn, engine = self._conn, self._engine
        self._conn = self._engine = self._raw = None
        if conn is not None:
            try:
                await conn.close()
            except Exception:
                log.debug("closing the change feed failed", exc_info=True)
        if engine is not None:
            await engine.dispose()
