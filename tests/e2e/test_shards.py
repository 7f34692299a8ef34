"""A DM click that reaches the process that does not own the table (issue 13).

Discord delivers every DM interaction to shard 0. Here the bot on SimCord runs shard 1 of 2 (the
non-owner); the table belongs to a guild on shard 0, owned by a second bot on the same database
(shard 0 of 2), which cannot be attached to the same simulated Discord (one per event loop), so
its Discord side is replaced by a recorder of what it would redraw. The person's DM panel is the
one the bot application sent them earlier. The click must be applied exactly once, through the
same version check, and the owner must reload and redraw the table within a second.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import pytest_asyncio

from bot import RefereeBot, Settings, create_bot
from cogs.table.model import Table
from db.engine import Database
from db.store import SeatSpec, Store
from rules import get_game
from tests.e2e.simhelpers import playable, reply_text
from tests.pg_faults import terminate_every_connection

GUILD_ON_SHARD_0 = ((7 * 2 + 0) << 22) | 99  # (id >> 22) % 2 == 0


@pytest_asyncio.fixture
async def simcord_bot(database_url: str) -> Any:
    bot = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(1,), instance="shard-1")
    )
    yield bot
    bot.scheduler.stop()
    await bot.release()
    await bot.database.dispose()


async def owned_table(database_url: str, alice_id: int, bob_id: int, channel_id: int = 555) -> int:
    """The table as the owner of shard 0 created and started it."""
    database = Database(database_url)
    store = Store(database)
    seats = [SeatSpec(0, alice_id, "alice"), SeatSpec(1, bob_id, "bob")]
    game = get_game("zipzap")
    tid = await store.create_table(
        guild_id=GUILD_ON_SHARD_0,
        channel_id=channel_id,
        game="zipzap",
        host_id=alice_id,
        options={"seats": 2, "rules": {}},
        speed="off",
        seed=3,
        seats=seats,
    )
    state = game.new_game(2, game.parse_options({}), 3)
    await store.start_game(
        tid, version=1, seats=seats, state=state.to_json(), log=[], deadline_at=None, deadline_action=None
    )
    await store.set_table_message(tid, 777)
    await database.dispose()
    return tid


@pytest.mark.simcord(settle_timeout=20)
async def test_a_dm_click_at_the_non_owner_counts_once_and_the_owner_follows(
    simcord_env: Any, simcord_bot: RefereeBot, database_url: str
) -> None:
    """Seen to fail with Referee._foreign_click answering "That table has ended" (the old
    behaviour: the click was lost), and, on PostgreSQL, with ChangeFeed.announce doing nothing
    (the owner kept drawing the old version)."""
    env, shard1 = simcord_env, simcord_bot
    guild = env.create_guild(id=GUILD_ON_SHARD_0)
    alice = guild.add_member(env.create_user("alice")).user
    bob = guild.add_member(env.create_user("bob")).user
    # A channel they can see: a DM click is taken only from someone who sees the table's channel.
    channel = guild.create_text_channel("game-night")
    tid = await owned_table(database_url, alice.id, bob.id, channel.id)

    owner = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(0,), instance="shard-0"),
        sync_commands=False,
    )
    redrawn: list[int] = []
    try:
        await owner.setup_hook()
        owner.referee.messages.request = lambda table: redrawn.append(table.version)  # type: ignore[method-assign]
        assert tid in owner.referee.tables and tid not in shard1.referee.tables

        # The DM panel alice got from the bot application (sent by whichever process drew it).
        row = await shard1.store.get_table(tid)
        assert row is not None
        table = Table.from_row(row)
        assert table.state is not None
        seat = next(s for s in (0, 1) if table.state.legal_actions(s))  # whoever can play now
        person = (alice, bob)[seat]
        panel = shard1.referee.drawing.panel(table, seat, None, None)
        user = await shard1.fetch_user(person.id)
        await user.send(view=panel.layout.view, files=panel.files())
        dm = person.dm_channel.history()[-1]
        card = playable(dm)[0]

        result = await person.click(dm, custom_id=card["custom_id"])
        assert "ended" not in reply_text(result) and "member" not in reply_text(result)
        actions = await shard1.store.actions(tid)
        assert [(a.seq, a.actor_id) for a in actions] == [(2, person.id)], "applied exactly once"
        row = await shard1.store.get_table(tid)
        assert row is not None and row.version == 2

        if database_url.startswith("sqlite"):
            return  # one process per SQLite database: nobody else to tell
        for _ in range(20):  # within a second
            if owner.referee.tables[tid].version == 2:
                break
            await asyncio.sleep(0.05)
        assert owner.referee.tables[tid].version == 2, "the owner reloaded the table"
        assert 2 in redrawn, "and redrew it"
    finally:
        owner.scheduler.stop()
        await owner.release()
        await owner.database.dispose()


@pytest.mark.simcord(settle_timeout=20)
async def test_after_the_server_ends_every_connection_the_owner_catches_up_on_a_dm_click(
    simcord_env: Any, simcord_bot: RefereeBot, database_url: str
) -> None:
    """Issue 20's reproduction: every connection to PostgreSQL is ended by the server (as a
    restart does), and a DM click is then applied at the non-owner and announced while the
    owner's LISTEN connection is down, so the note is lost. Within a few simulated seconds the
    owner reopens its feed, sees that its table moved, reloads and redraws it. Seen to fail on
    the main branch (run without the ``listening`` checks, which main's feed lacks, and with 24
    simulated seconds: the owner was still at version 1, not redrawn), with ChangeFeed.watch
    not reopening, and with the catch-up left out of it (the feed reopened, the table stayed at
    version 1)."""
    if database_url.startswith("sqlite"):
        pytest.skip("PostgreSQL's LISTEN connection; with SQLite there is one process, no change feed")
    env, shard1 = simcord_env, simcord_bot
    guild = env.create_guild(id=GUILD_ON_SHARD_0)
    alice = guild.add_member(env.create_user("alice")).user
    bob = guild.add_member(env.create_user("bob")).user
    # A channel they can see: a DM click is taken only from someone who sees the table's channel.
    channel = guild.create_text_channel("game-night")
    tid = await owned_table(database_url, alice.id, bob.id, channel.id)
    owner = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(0,), instance="shard-0"),
        sync_commands=False,
    )
    redrawn: list[int] = []
    try:
        await owner.setup_hook()
        owner.referee.messages.request = lambda table: redrawn.append(table.version)  # type: ignore[method-assign]
        row = await shard1.store.get_table(tid)
        assert row is not None
        table = Table.from_row(row)
        assert table.state is not None
        seat = next(s for s in (0, 1) if table.state.legal_actions(s))
        person = (alice, bob)[seat]
        panel = shard1.referee.drawing.panel(table, seat, None, None)
        await (await shard1.fetch_user(person.id)).send(view=panel.layout.view, files=panel.files())
        dm = person.dm_channel.history()[-1]

        # The owner's feed may reopen only after the click: it reopens in real time, and a click
        # that waits in real time too (its pictures drawn by a fresh worker process) could let it
        # hear the note, which is not the case under test (the CI run on PostgreSQL once did).
        reopen = asyncio.Event()
        feed_open = owner.changes._open

        async def open_after_the_click() -> None:
            await reopen.wait()
            await feed_open()

        owner.changes._open = open_after_the_click  # type: ignore[method-assign]
        assert await terminate_every_connection(database_url) >= 3  # both bots' locks, the feed
        for _ in range(100):  # asyncpg reports the closed connection on a later loop turn
            if not owner.changes.listening:
                break
            await asyncio.sleep(0.01)
        assert not owner.changes.listening, "the owner is deaf"

        result = await person.click(dm, custom_id=playable(dm)[0]["custom_id"])
        assert "ended" not in reply_text(result) and "couldn't" not in reply_text(result)
        assert [a.seq for a in await shard1.store.actions(tid)] == [2], "applied once, at the non-owner"
        assert owner.referee.tables[tid].version == 1, "the note was sent while nobody listened"
        reopen.set()

        await env.advance_time(5)
        for _ in range(100):  # the reload the catch-up set going ends on a database round trip
            if owner.referee.tables[tid].version == 2 and 2 in redrawn:
                break
            await asyncio.sleep(0.02)
        assert owner.changes.listening, "the feed was reopened"
        caught_up = owner.referee.tables[tid]
        assert caught_up.version == 2 and 2 in redrawn, "the owner reloaded and redrew the table"
        row = await owner.store.get_table(tid)
        assert row is not None and caught_up.state is not None
        assert caught_up.state.to_json() == row.state
    finally:
        owner.scheduler.stop()
        await owner.release()
        await owner.database.dispose()
