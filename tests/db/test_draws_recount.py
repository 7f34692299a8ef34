"""Draws stored as wins before they stopped counting are recounted by migration 0007 (issue 33):
/stats, the leaderboard and an archived season then agree with the results, as /history and the
streaks already did. Rows are made the old way: the games go through the real results write, then
each draw's seats get the win the old write gave them."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from sqlalchemy import select, update

from db.engine import Database, downgrade, migrate
from db.models import PlayerStats, SeasonStanding
from db.standings import Standings
from db.store import Store
from tests.e2e.boards_helpers import finish_quickly

GUILD = 1
NAMES = {11: "ann", 12: "bea"}


async def _old_way_draw(store: Store, channel: int) -> None:
    """A Trap draw as the results write stored it before the fix: a win for both."""
    await finish_quickly(
        store, guild_id=GUILD, channel_id=channel, key="trap", places={11: 1, 12: 1}, names=NAMES
    )
    async with store.db.sessions() as session, session.begin():
        await session.execute(
            update(PlayerStats)
            .where(PlayerStats.game == "trap")
            .values(wins=PlayerStats.wins + 1, total_wins=PlayerStats.total_wins + 1)
        )


def test_0007_recounts_draws_stored_as_wins(fresh_database_url: str) -> None:
    url = fresh_database_url
    migrate(url)

    async def fill() -> None:
        store, standings = Store(Database(url)), Standings(Database(url))
        try:
            await finish_quickly(
                store, guild_id=GUILD, channel_id=1, key="trap", places={11: 1, 12: 2}, names=NAMES
            )
            await _old_way_draw(store, 2)
            assert await standings.new_season(GUILD, ["trap"], 7, datetime.now(UTC)) == [("trap", 2)]
            await _old_way_draw(store, 3)
            # One recorded by today's write: no win was given, so none is taken off.
            await finish_quickly(
                store, guild_id=GUILD, channel_id=4, key="trap", places={11: 1, 12: 1}, names=NAMES
            )
        finally:
            await store.db.dispose()
            await standings.db.dispose()

    async def read() -> tuple[dict[int, tuple[int, int]], dict[int, int], dict[int, int]]:
        database = Database(url)
        standings = Standings(database)
        try:
            records = {uid: (await standings.record(GUILD, uid))[0] for uid in NAMES}
            board = await standings.board(GUILD, "trap", None, 1, 10, 11)
            async with database.sessions() as session:
                archived = {
                    r.user_id: r.wins
                    for r in await session.scalars(select(SeasonStanding).where(SeasonStanding.season == 1))
                }
            return (
                {uid: (r.wins, r.total_wins) for uid, r in records.items()},
                {row.user_id: row.wins for row in board.rows},
                archived,
            )
        finally:
            await database.dispose()

    asyncio.run(fill())
    stored, _, archived = asyncio.run(read())
    assert stored == {11: (1, 3), 12: (1, 2)} and archived == {11: 2, 12: 1}  # the old, wrong counts
    downgrade(url, "0005")
    migrate(url)
    records, board, archived = asyncio.run(read())
    # ann won game 1 (season 1); every other game was a draw: nobody's win.
    assert records == {11: (0, 1), 12: (0, 0)}
    assert board == {11: 0, 12: 0}
    assert archived == {11: 1, 12: 0}
    migrate(url)  # idempotent: a second start changes nothing
    assert asyncio.run(read())[0] == records
