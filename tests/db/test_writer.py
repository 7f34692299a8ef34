"""SQLite writes take turns: a burst of commits to many tables never has two transactions writing at
once, and every one of them lands. The writes of one moment share a commit (group commit), and one
write's failure is its own."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, func, select
from sqlalchemy.exc import IntegrityError

from db.engine import Database
from db.models import ActionRow
from db.store import Conflict, SeatSpec, Store
from rules import get_game

GAME = get_game("zipzap")
SEATS = [SeatSpec(0, 11, "ann"), SeatSpec(1, 22, "bea")]
STATE = GAME.new_game(2, GAME.parse_options({}), 1).to_json()


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
        tables = await _live_tables(store, 20)
        event.listen(sync, "before_execute", on_execute)
        event.listen(sync, "commit", on_end)
        event.listen(sync, "rollback", on_end)
        await asyncio.gather(*(_draw(store, gid) for gid in tables))
        assert most == 1
        async with database.sessions() as s:
            assert await s.scalar(select(func.count()).select_from(ActionRow)) == 20
    finally:
        await database.dispose()


async def _live_tables(store: Store, count: int) -> list[int]:
    tables = []
    for i in range(count):
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
            gid, version=1, seats=SEATS, state=STATE, log=[], deadline_at=None, deadline_action=None
        )
        tables.append(gid)
    return tables


async def _draw(store: Store, gid: int, version: int = 2) -> None:
    await store.commit_action(
        gid,
        seq=version,
        seat=0,
        action="draw",
        actor_id=11,
        state=STATE,
        version=version,
        log=["ann drew"],
        deadline_at=None,
        deadline_action=None,
    )


async def _actions(database: Database) -> list[tuple[int, int]]:
    async with database.sessions() as s:
        rows = await s.execute(select(ActionRow.game_id, ActionRow.seq).order_by(ActionRow.game_id))
        return [(int(g), int(q)) for g, q in rows]


@pytest.mark.sqlite_only("group commit is SQLite's: PostgreSQL's pool writes in parallel")
async def test_the_writes_of_one_moment_share_a_commit(database_url: str) -> None:
    """Twenty tables each commit an action at the same moment: far fewer commits than writes
    (each commit is an fsync), and every write is on disk when its caller goes on.

    Seen to fail with CommitLine taking one write per transaction: 20 commits."""
    database = Database(database_url)
    store = Store(database)
    commits = 0

    def on_commit(_conn: Any) -> None:
        nonlocal commits
        commits += 1

    try:
        tables = await _live_tables(store, 20)
        event.listen(database.engine.sync_engine, "commit", on_commit)
        await asyncio.gather(*(_draw(store, gid) for gid in tables))
        assert commits <= 3, commits
        assert await _actions(database) == [(gid, 2) for gid in tables]
    finally:
        await database.dispose()


@pytest.mark.sqlite_only("group commit is SQLite's: PostgreSQL's pool writes in parallel")
async def test_a_conflict_in_a_shared_commit_is_that_writes_alone(database_url: str) -> None:
    """Three tables commit together; one of the writes was made from a version the table no
    longer has. That caller gets Conflict and wrote nothing; the other two land.

    Seen to fail with CommitLine answering a refused write as done: no Conflict was raised."""
    database = Database(database_url)
    store = Store(database)
    try:
        a, b, c = await _live_tables(store, 3)
        outcomes = await asyncio.gather(
            _draw(store, a), _draw(store, b, version=5), _draw(store, c), return_exceptions=True
        )
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], Conflict)
        assert await _actions(database) == [(a, 2), (c, 2)]
    finally:
        await database.dispose()


@pytest.mark.sqlite_only("group commit is SQLite's: PostgreSQL's pool writes in parallel")
async def test_one_failing_write_does_not_take_the_others_down(database_url: str) -> None:
    """Four tables commit together; one write breaks a constraint half-way (its action row's
    number is taken, after its table row was updated). The shared transaction rolls back and
    each write is tried again alone: that one fails with its own error and leaves its table as it
    was, the other three land.

    Seen to fail without the one-by-one retry: all four callers got the IntegrityError and
    nothing was written."""
    database = Database(database_url)
    store = Store(database)
    try:
        tables = await _live_tables(store, 4)
        bad = tables[1]
        async with database.engine.begin() as connection:  # seq 2 is taken, but version stays 1
            await connection.execute(
                ActionRow.__table__.insert().values(game_id=bad, seq=2, seat=1, action="planted")
            )
        outcomes = await asyncio.gather(*(_draw(store, gid) for gid in tables), return_exceptions=True)
        assert isinstance(outcomes[1], IntegrityError), outcomes
        assert [o for i, o in enumerate(outcomes) if i != 1] == [None, None, None]
        landed = await _actions(database)
        assert [(g, q) for g, q in landed if g != bad] == [(g, 2) for g in tables if g != bad]
        row = await store.get_table(bad)
        assert row is not None and row.version == 1, "the failed write left its table alone"
    finally:
        await database.dispose()
