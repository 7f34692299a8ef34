"""SQLite writes take turns: a burst of commits to many tables never has two transactions writing at
once, and every one of them lands."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, func, select

from db.engine import Database
from db.models import ActionRow
from db.store import SeatSpec, Store
from rules import get_game

GAME = get_game("zipzap")
SEATS = [SeatSpec(0, 11, "ann"), SeatSpec(1, 22, "bea")]


@pytest.mark.sqlite_only("SQLite has one writer; PostgreSQL's pool writes in parallel by design")
async def test_a_burst_of_commits_takes_turns_and_all_land(database_url: str) -> None:
    """Twenty tables each commit an action at the same moment. Transactions are counted open from
    the first statement that writes to the commit: never more than one at a time.

    Seen to fail when ``Database.writer`` yielded without taking the lock: 15 write
    transactions were open at once (all but one waiting in SQLite's busy handler)."""
    database = Database(database_url)
    store = Store(database)
    open_writes = 0
    most = 0

    def on_execute(conn: Any, clauseelement: Any, *_: Any) -> None:
        nonlocal open_writes, most
        if getattr(clauseelement, "is_dml", False) and not conn.info.get("writing"):
            conn.info["writing"] = True
            open_writes += 1
            most = max(most, open_writes)

    def on_end(conn: Any) -> None:
        nonlocal open_writes
        if conn.info.pop("writing", False):
            open_writes -= 1

    sync = database.engine.sync_engine
    try:
        state = GAME.new_game(2, GAME.parse_options({}), 1).to_json()
        tables = []
        for i in range(20):
            gid = await store.create_table(
                guild_id=1,
                channel_id=100 + i,
                game="zipzap",
                host_id=11,
                options={"seats": 2, "rules": {}},
                speed="relaxed",
                seed=i,
                seats=SEATS,
            )
            await store.start_game(
                gid, version=1, seats=SEATS, state=state, log=[], deadline_at=None, deadline_action=None
            )
            tables.append(gid)
        event.listen(sync, "before_execute", on_execute)
        event.listen(sync, "commit", on_end)
        event.listen(sync, "rollback", on_end)

        async def act(gid: int) -> None:
            await store.commit_action(
                gid,
                seq=2,
                seat=0,
                action="draw",
                actor_id=11,
                state=state,
                version=2,
                log=["ann drew"],
                deadline_at=None,
                deadline_action=None,
            )

        await asyncio.gather(*(act(gid) for gid in tables))
        assert most == 1
        async with database.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(ActionRow)) == 20
    finally:
        await database.dispose()
