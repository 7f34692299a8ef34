"""6. WAL per action: what each committed action costs the database's write-ahead log, per game.

For each game a real bot runs in SimCord on its own fresh database, with tables of one person (who
never clicks) and computers in every other seat at speed "fast", so every action is a computer's
move or a timer's, through the real commit path (Spine.save -> Store.write). After a warm-up the
window starts:
- PostgreSQL: ``CHECKPOINT``, then ``pg_current_wal_lsn()`` before and after about ``actions``
  actions; bytes = ``pg_wal_lsn_diff(after, before)``, full-page images after the checkpoint
  included (what replication and backups carry). Needs ``--pg-url`` (a server you may CHECKPOINT;
  the bench creates and drops one database per game on it).
- SQLite: the WAL file is truncated (``PRAGMA wal_checkpoint(TRUNCATE)``) before each slice of
  simulated time and its size read after it, so SQLite's own checkpoints never hide bytes; the sum
  is divided by the actions of the window. SQLite writes whole pages, so this has a floor of a
  few pages per commit.
Actions are the rows the window added to ``actions``. Tables that finish are replaced by new ones
outside the window (between slices), so lobby writes are not counted as actions' cost.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import Table, sqlite_url

GAMES = ("zipzap", "zaptrap", "spytrap", "gifttrap", "trap")
# Options per game: full-length games, so few tables finish inside a window.
SETUP: dict[str, tuple[dict[str, Any], str, int]] = {
    "zipzap": ({"seats": 4}, "casual", 4),
    "zaptrap": ({"seats": 4}, "casual", 4),
    "spytrap": ({"seats": 4}, "casual", 4),
    "gifttrap": ({"seats": 4}, "casual", 4),
    "trap": ({}, "easy", 2),
}
SLICE_S = 5.0  # simulated seconds per advance_time call
WARMUP_ACTIONS = 20  # per game, before the window: past the lobby and the first deal


def _plain(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _count(bot: Any) -> int:
    from sqlalchemy import text

    async with bot.database.engine.connect() as conn:
        return int((await conn.execute(text("SELECT count(*) FROM actions"))).scalar_one())


async def _open(env: Any, bot: Any, key: str, index: int) -> int:
    """A started table: its host opens it at speed "fast", computers fill the other seats."""
    options, level, seats = SETUP[key]
    guild = env.create_guild()
    channel = guild.create_text_channel(f"{key}-{index}")
    host = guild.add_member(env.create_user(f"host{index}"))
    await host.slash(channel, f"{key} new", speed="fast", **options)
    lobby = channel.last_message
    for _ in range(seats - 1):
        await host.click(lobby, label=f"Add computer: {level}")
    await host.click(lobby, label="Start")
    return int(bot.referee.by_channel[channel.id])


async def _keep_tables(env: Any, bot: Any, key: str, tables: list[int], wanted: int) -> None:
    for i, tid in enumerate(list(tables)):
        if tid not in bot.referee.tables:
            tables[i] = await _open(env, bot, key, len(tables) + i * 1000 + tid)
    while len(tables) < wanted:
        tables.append(await _open(env, bot, key, len(tables)))


async def measure_game(
    url: str, key: str, *, tables: int, actions: int, sqlite_file: Path | None, settle_timeout: float
) -> dict[str, Any]:
    import asyncpg
    import simcord

    from bot import Settings, create_bot
    from db.engine import migrate

    await asyncio.to_thread(migrate, url)  # Alembic runs its own event loop: keep it off ours
    bot = create_bot(Settings(token=None, database_url=url))
    wal = 0
    slices = 0
    async with simcord.run(bot, settle_timeout=settle_timeout, check_errors=False) as env:
        live: list[int] = []
        await _keep_tables(env, bot, key, live, tables)
        while await _count(bot) < WARMUP_ACTIONS * tables:
            await env.advance_time(SLICE_S)
            await _keep_tables(env, bot, key, live, tables)
        first = await _count(bot)
        pg = None if sqlite_file is not None else await asyncpg.connect(_plain(url))
        try:
            if pg is not None:
                await pg.execute("CHECKPOINT")
                before = await pg.fetchval("SELECT pg_current_wal_lsn()")
            done = first
            while done - first < actions:
                if pg is None:
                    await _keep_tables(env, bot, key, live, tables)
                    if _truncate(sqlite_file):  # type: ignore[arg-type]
                        raise RuntimeError("SQLite could not truncate its WAL between slices")
                else:
                    lsn0 = await pg.fetchval("SELECT pg_current_wal_lsn()")
                    counted0 = await _count(bot)
                    await _keep_tables(env, bot, key, live, tables)
                    lobby = await pg.fetchval("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1)", lsn0)
                    if counted0 == await _count(bot):
                        wal -= int(lobby)  # a replaced table's lobby writes are no action's cost
                await env.advance_time(SLICE_S)
                slices += 1
                if sqlite_file is not None:
                    wal += Path(f"{sqlite_file}-wal").stat().st_size
                done = await _count(bot)
            lsns: dict[str, str] = {}
            if pg is not None:
                after = await pg.fetchval("SELECT pg_current_wal_lsn()")
                wal += int(await pg.fetchval("SELECT pg_wal_lsn_diff($1, $2)", after, before))
                lsns = {"lsn_start": str(before), "lsn_end": str(after)}  # for pg_waldump --stats
        finally:
            if pg is not None:
                await pg.close()
    bot.scheduler.stop()
    await bot.release()  # shard locks and the change feed hold connections of their own
    await bot.database.dispose()
    n = done - first
    return {"actions": n, "wal_bytes": wal, "bytes_per_action": round(wal / n, 1), "slices": slices} | lsns


def _truncate(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return int(busy)
    finally:
        conn.close()


async def _pg_database(admin_url: str, name: str, *, drop: bool = False) -> str:
    import asyncpg

    conn = await asyncpg.connect(_plain(admin_url))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if not drop:
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base, _, _db = admin_url.rpartition("/")
    return f"{base}/{name}"


def run(
    *,
    workdir: Path,
    pg_url: str | None,
    games: list[str],
    tables: int,
    actions: int,
    sqlite_actions: int,
    settle_timeout: float,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    logging.getLogger("alembic").setLevel(logging.WARNING)
    out: dict[str, Any] = {"tables": tables, "postgresql": {}, "sqlite": {}}
    for key in games:
        if pg_url is not None:
            name = f"wal_bench_{key}"
            url = asyncio.run(_pg_database(pg_url, name))
            try:
                got = asyncio.run(
                    measure_game(
                        url,
                        key,
                        tables=tables,
                        actions=actions,
                        sqlite_file=None,
                        settle_timeout=settle_timeout,
                    )
                )
            finally:
                asyncio.run(_pg_database(pg_url, name, drop=True))
            out["postgresql"][key] = got
            progress(
                f"wal: {key} on PostgreSQL: {got['bytes_per_action']} B per action ({got['actions']} actions)"
            )
        path = workdir / f"wal-{key}.sqlite3"
        got = asyncio.run(
            measure_game(
                sqlite_url(path),
                key,
                tables=tables,
                actions=sqlite_actions,
                sqlite_file=path,
                settle_timeout=settle_timeout,
            )
        )
        out["sqlite"][key] = got
        progress(f"wal: {key} on SQLite: {got['bytes_per_action']} B per action ({got['actions']} actions)")
    for engine in ("postgresql", "sqlite"):
        per = [v["bytes_per_action"] for v in out[engine].values()]
        if per:
            out[f"{engine}_median"] = round(statistics.median(per), 1)
            out[f"{engine}_max"] = max(per)
    return out


def tables(result: dict[str, Any]) -> list[Table]:
    rows = []
    for key in GAMES:
        pg = result["postgresql"].get(key)
        lite = result["sqlite"].get(key)
        if pg is None and lite is None:
            continue
        rows.append(
            [
                key,
                f"{pg['bytes_per_action'] / 1024:.2f}" if pg else "-",
                str(pg["actions"]) if pg else "-",
                f"{lite['bytes_per_action'] / 1024:.2f}" if lite else "-",
                str(lite["actions"]) if lite else "-",
            ]
        )
    if "postgresql_median" in result:
        rows.append(["median", f"{result['postgresql_median'] / 1024:.2f}", "", "", ""])
    return [
        Table(
            f"WAL per action ({result['tables']} tables of computers per game, speed fast)",
            ["game", "PostgreSQL KiB/action", "actions", "SQLite KiB/action", "actions"],
            rows,
        )
    ]
