"""The two-process bench really plays: two bot processes, one database, each its own shard.

``python -m bench --only shards2`` compares two bot processes (SHARD_IDS=0 and 1 of 2) with one;
its figures mean something only if both processes open and play their tables on the one database.
This runs the two-process mode, scaled down, on PostgreSQL (the shard locks are PostgreSQL's
advisory locks; on SQLite it skips).

Seen to fail on a broken version: without the shift of the second process's simulated timeline
(bench/e2e.py, ``advance_time(300.0 * min(ids))``) both simulated Discords hand out the same
channel ids, the database holds one live table per channel, and one process's
``/zipzap new`` was refused: "a bot process ended (exit 1) before READY".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import select

from bench import shards2
from db.engine import Database
from db.models import Game
from tests.conftest import ON_POSTGRES

pytestmark = pytest.mark.skipif(not ON_POSTGRES, reason="two processes share shards only on PostgreSQL")


async def games_by_shard(url: str) -> dict[int, set[int]]:
    database = Database(url)
    try:
        async with database.sessions() as session:
            rows = (await session.execute(select(Game.guild_id, Game.channel_id, Game.status))).all()
    finally:
        await database.dispose()
    shards: dict[int, set[int]] = {}
    for guild_id, channel_id, _status in rows:
        shards.setdefault((guild_id >> 22) % shards2.SHARD_COUNT, set()).add(channel_id)
    return shards


def test_two_processes_each_play_their_shard_of_one_database(database_url: str, tmp_path: Path) -> None:
    result = shards2.play(
        database_url,
        "two",
        tables=4,
        seconds=2,
        click_every=1,
        burst=10,
        step=0.25,
        settle_timeout=120,
        logs=tmp_path,
        postgres_data=None,
    )
    assert result["processes"] == 2
    assert [p["shard_ids"] for p in result["per_process"]] == [[0], [1]]
    for process in result["per_process"]:
        assert process["tables"] == 2
        assert process["actions"] > 0, "each process played its tables"
        assert process["bot_errors"] == 0
    assert result["actions"] == sum(p["actions"] for p in result["per_process"])
    assert result["committed_clicks"] > 0 and result["click_committed_p99_ms"] is not None
    tables = asyncio.run(games_by_shard(database_url))
    assert {shard: len(channels) for shard, channels in tables.items()} == {0: 2, 1: 2}
