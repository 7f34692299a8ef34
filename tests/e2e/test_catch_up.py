"""A change made by another process is caught up by replaying its actions (issue 20).

The bot on SimCord owns shard 0 of 2; a second bot on the same database owns shard 1 and takes a
DM click for one of shard 0's tables (Discord delivers every DM to shard 0's connection, but any
process may be the one that answers). The owner is told (as the change feed would) and catches up.

The check is model-based: two identical Trap tables (same seed, same people) in two guilds of
shard 0; at the first, Alice's drop is made by the owner itself, at the second by the other
process. Everything the owner then shows must be the same at both tables: the table message, the
History, and the turn line pinging Bob. Seen to fail on the main before this change: the owner
reloaded the snapshot and lost the story ("Piece Drop: —" in History, no ping for Bob).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import pytest_asyncio

from bot import RefereeBot, Settings, create_bot
from cogs.table.model import Table
from tests.e2e.simhelpers import message_text

GUILDS_ON_SHARD_0 = (((7 * 2 + 0) << 22) | 99, ((9 * 2 + 0) << 22) | 77)  # (id >> 22) % 2 == 0


@pytest_asyncio.fixture
async def simcord_bot(database_url: str) -> Any:
    bot = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(0,), instance="shard-0")
    )
    yield bot
    bot.scheduler.stop()
    await bot.release()
    await bot.database.dispose()


def normalised(text: str, table: Table, people: dict[int, str]) -> str:
    text = re.sub(r"\b\d{15,20}\b", lambda m: people.get(int(m.group(0)), "#"), text)
    return text.replace(f":{table.id}:", ":T:")


@pytest.mark.simcord(settle_timeout=20)
async def test_a_change_made_elsewhere_looks_the_same_as_one_made_here(
    simcord_env: Any, simcord_bot: RefereeBot, database_url: str
) -> None:
    env, owner = simcord_env, simcord_bot
    owner.referee.new_seed = lambda: 11
    alice, bob = env.create_user("alice"), env.create_user("bob")
    people = {alice.id: "alice", bob.id: "bob"}
    tables: list[tuple[Any, Table]] = []
    for guild_id in GUILDS_ON_SHARD_0:
        guild = env.create_guild(id=guild_id)
        channel = guild.create_text_channel("game-night")
        a, b = guild.add_member(alice), guild.add_member(bob)
        await a.slash(channel, "trap new", quick_setup=True, speed="off")
        lobby = channel.last_message
        await b.click(lobby, label="Join")
        await a.click(lobby, label="Start")
        tables.append((channel, owner.referee.table_in(channel.id)))
    (here_channel, here), (there_channel, there) = tables
    assert here.state is not None and there.state is not None
    assert here.state.to_json() == there.state.to_json(), "the same deal at both tables"
    drop = here.state.legal_actions(0)[0]

    other = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(1,), instance="shard-1"),
        sync_commands=False,
    )
    try:
        await other.setup_hook()
        # Here: the owner applies Alice's drop itself.
        async with here.lock:
            await owner.referee.act(here, 0, drop, alice.id)
        # There: the other process applies it (version-checked, as a DM click there would) …
        row = await other.store.get_table(there.id)
        assert row is not None
        elsewhere = Table.from_row(row)
        elsewhere.foreign = True
        async with elsewhere.lock:
            await other.referee.act(elsewhere, 0, drop, alice.id)
        # … and tells the owner, which catches up.
        owner.referee.on_table_changed(there.id)
        await env.advance_time(3)
    finally:
        other.scheduler.stop()
        await other.release()
        await other.database.dispose()

    # The board picture is drawn in a worker thread (real time, under the table's lock): give the
    # catch-up and both redraws a moment on a busy machine.
    for _ in range(30):
        if there.version == here.version:
            break
        await env.advance_time(1)
    assert there.version == here.version
    ui = owner.referee.uis["trap"]
    history = ui.history(there)  # type: ignore[attr-defined]
    assert f"**Piece Drop** (A first): 1. {drop}" in history, "the move is in the story"
    assert normalised(history, there, people) == normalised(ui.history(here), here, people)  # type: ignore[attr-defined]
    shown = [
        normalised(message_text(channel.last_message), table, people)
        for channel, table in ((here_channel, here), (there_channel, there))
    ]
    assert shown[0] == shown[1], "the same last message (the turn line for Bob)"
    assert "bob" in shown[1]

    def drawn() -> list[str]:
        texts = []
        for channel, table in ((here_channel, here), (there_channel, there)):
            message = next(m for m in channel.history() if m.id == table.table_message_id)
            texts.append(normalised(message_text(message), table, people))
        return texts

    for _ in range(30):
        if len(set(drawn())) == 1:
            break
        await env.advance_time(1)
    assert drawn()[0] == drawn()[1], "the same table message"
