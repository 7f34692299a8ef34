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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import pytest_asyncio

from bot import RefereeBot, Settings, create_bot
from cogs.table.model import Table
from tests.e2e.simhelpers import buttons, message_text
from tests.e2e.zipzap_driver import FINAL_TITLE

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


@asynccontextmanager
async def other_process(database_url: str) -> AsyncIterator[RefereeBot]:
    """A second bot on the same database owning shard 1 (no Discord of its own: it only commits
    the change a DM click there would commit)."""
    other = create_bot(
        Settings(token=None, database_url=database_url, shard_count=2, shard_ids=(1,), instance="shard-1"),
        sync_commands=False,
    )
    try:
        await other.setup_hook()
        yield other
    finally:
        other.scheduler.stop()
        await other.release()
        await other.database.dispose()


async def act_elsewhere(
    other: RefereeBot, table_id: int, seat: int | None, action: str, actor: int | None
) -> None:
    """The other process applies an action to a table it doesn't own, version-checked, as a DM
    click that reached it would."""
    row = await other.store.get_table(table_id)
    assert row is not None
    elsewhere = Table.from_row(row)
    elsewhere.foreign = True
    async with elsewhere.lock:
        await other.referee.act(elsewhere, seat, action, actor)


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

    async with other_process(database_url) as other:
        # Here: the owner applies Alice's drop itself.
        async with here.lock:
            await owner.referee.act(here, 0, drop, alice.id)
        # There: the other process applies it (version-checked, as a DM click there would) …
        await act_elsewhere(other, there.id, 0, drop, alice.id)
        # … and tells the owner, which catches up.
        owner.referee.on_table_changed(there.id)
        await env.advance_time(3)

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


def next_move(table: Table) -> tuple[int | None, str]:
    """A fixed way through a Zip Zap game: the first seat with a plain card plays its first one
    (else the first seat with anything), and when nobody may play, the referee's stall or idle."""
    assert table.state is not None
    seats = range(len(table.seats))
    for seat in seats:
        cards = [a for a in table.state.legal_actions(seat) if "Z" not in a]
        if cards:
            return seat, cards[0]
    for seat in seats:
        legal = table.state.legal_actions(seat)
        if legal:
            return seat, legal[0]
    return None, table.state.legal_actions(None)[0]


def ends_the_game(table: Table, seat: int | None, action: str) -> bool:
    trial = table.draft()
    assert trial.state is not None
    trial.state.apply(seat, action)
    return trial.state.is_over()


@pytest.mark.simcord(settle_timeout=20)
async def test_the_last_card_played_elsewhere_finishes_the_game_here(
    simcord_env: Any, simcord_bot: RefereeBot, database_url: str
) -> None:
    """Zip Zap, one round, one card from the end: the last card is played at the other process.
    The owner's table must become finished with the final position, post the results and Rematch,
    exactly as when the same card is played at the owner.

    Two identical tables (same seed, same people, no computers, no timers) are played to one card
    from the end by the owner; then the last card is played by the owner at the first and by the
    other process at the second. Seen to fail on a version that catches up by jumping to the
    snapshot (Spine._replay made to return None): the owner's table became "finished" but kept
    the position before the last card, its table message still showed the unfinished round and
    no "final results" message with Rematch was posted (the channel histories differed there).
    And on one that replays but hands the after-change path no events (reload's
    ``after_change(table, [])``): the state was right, but the "Round 1 over" post was missing
    from the story.
    """
    env, owner = simcord_env, simcord_bot
    owner.referee.new_seed = lambda: 11
    alice, bob = env.create_user("alice"), env.create_user("bob")
    people = {alice.id: "alice", bob.id: "bob"}
    actors = {0: alice.id, 1: bob.id}
    tables: list[tuple[Any, Table]] = []
    for guild_id in GUILDS_ON_SHARD_0:
        guild = env.create_guild(id=guild_id)
        channel = guild.create_text_channel("game-night")
        a, b = guild.add_member(alice), guild.add_member(bob)
        await a.slash(channel, "zipzap new", seats=2, speed="off", rounds=1)
        lobby = channel.last_message
        await b.click(lobby, label="Join")
        await a.click(lobby, label="Start")
        tables.append((channel, owner.referee.table_in(channel.id)))
    (here_channel, here), (there_channel, there) = tables

    # Both tables to one card from the end, move for move, at the owner.
    while True:
        assert here.state is not None and there.state is not None
        assert here.state.to_json() == there.state.to_json(), "the same game at both tables"
        seat, action = next_move(here)
        if ends_the_game(here, seat, action):
            break
        for table in (here, there):
            async with table.lock:
                await owner.referee.act(table, seat, action, actors.get(seat) if seat is not None else None)
        await env.advance_time(1)
    assert seat is not None, "the game ends with a card played by a person"
    before = len(there_channel.history())

    async with other_process(database_url) as other:
        async with here.lock:
            await owner.referee.act(here, seat, action, actors[seat])
        await act_elsewhere(other, there.id, seat, action, actors[seat])
        owner.referee.on_table_changed(there.id)
        await env.advance_time(3)

    def story() -> list[list[str]]:
        """Everything each channel shows from the last card on, with whom each message pinged."""
        return [
            [
                normalised(message_text(m), table, people)
                + f" | pings {sorted(people.get(u.id, '?') for u in m.mentions)}"
                + f" | buttons {[b.get('label') for b in buttons(m)]}"
                for m in channel.history()[before:]
            ]
            + [
                normalised(message_text(m), table, people)
                for m in channel.history()
                if m.id == table.table_message_id
            ]
            for channel, table in ((here_channel, here), (there_channel, there))
        ]

    for _ in range(30):
        if there.status == "finished" and len({str(s) for s in story()}) == 1:
            break
        await env.advance_time(1)
    assert there.status == here.status == "finished"
    assert there.state is not None and here.state is not None
    assert there.state.is_over(), "the final position, not the one before the last card"
    assert there.state.to_json() == here.state.to_json()
    assert there.log == here.log, "the same Latest lines"
    final = there_channel.last_message
    assert final is not None and final.embeds and final.embeds[0].title == FINAL_TITLE
    assert any(b.get("label") == "Rematch" for b in buttons(final)), "Rematch is offered"
    shown_here, shown_there = story()
    assert shown_there == shown_here, "the same messages, pings and table drawing"
